//! The command-line grammar (clap).

use clap::{Args, Parser, Subcommand};
use std::path::PathBuf;

/// tablelens: a camera companion for The Convoy. It reads the table, runs the rules and
/// says who wins the battle.
#[derive(Debug, Parser)]
#[command(name = "tablelens", version, about, long_about = None)]
pub struct Cli {
    /// Catalogue corrections (TOML) read off your own cards; by default
    /// `<data dir>/tablelens/catalogue.toml` is used when it exists.
    #[arg(long, global = true, value_name = "FILE")]
    pub catalogue: Option<PathBuf>,

    /// What to do; with none, tablelens shows the built-in demo table.
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// The commands of CONTRACT.md.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Strength totals, winner and consequences of the battle in the active city.
    Battle(BattleArgs),
    /// The table's violations and warnings only (exit 0 even when there are some).
    Check(CheckArgs),
    /// The card catalogue, with which values are confirmed.
    Cards(CardsArgs),
    /// Synthetic table photos with their true layout, or the proxy faces of every piece.
    Render(RenderArgs),
    /// Learn the physical pieces from pictures `DIR/<component id>.png` or `DIR/<id>/*.png`
    /// (and the decks' backs, `DIR/card_back.png` or `DIR/card_back/*.png`).
    Enroll(EnrollArgs),
    /// The layout seen in each photo, plus its battle result.
    Analyze(AnalyzeArgs),
    /// Accuracy and time of each vision stage against the truth files of rendered scenes.
    Eval(EvalArgs),
    /// Follow a game through frames in order; print events; the journal makes it resumable.
    Follow(FollowArgs),
    /// Export a followed game, or correct it (put back a vanished token).
    Journal(JournalArgs),
}

/// `tablelens follow`.
#[derive(Debug, Args)]
pub struct FollowArgs {
    /// Frames in order: table photos, or layout files (`.json`, as `analyze` or `render`
    /// write them) taken as already analysed frames. A frame already in the journal is
    /// skipped.
    #[arg(value_name = "FRAME")]
    pub frames: Vec<PathBuf>,
    /// Gallery made by `tablelens enroll` (needed for photos).
    #[arg(long, value_name = "GALLERY")]
    pub gallery: Option<PathBuf>,
    /// The game journal (SQLite); created when missing, continued when present.
    #[arg(long, value_name = "FILE")]
    pub journal: PathBuf,
    /// Events as JSON lines.
    #[arg(long)]
    pub json: bool,
    /// Start a new game in the journal instead of continuing the last one.
    #[arg(long)]
    pub new_game: bool,
    /// Afterwards, write the whole game as JSON (`-` for standard output).
    #[arg(long, value_name = "FILE")]
    pub export_json: Option<PathBuf>,
    /// Afterwards, write the whole game as Markdown (`-` for standard output).
    #[arg(long, value_name = "FILE")]
    pub export_md: Option<PathBuf>,
}

/// `tablelens journal`.
#[derive(Debug, Args)]
pub struct JournalArgs {
    /// The game journal written by `tablelens follow`.
    #[arg(value_name = "FILE")]
    pub journal: PathBuf,
    /// Write the game as JSON (`-` for standard output).
    #[arg(long, value_name = "FILE")]
    pub export_json: Option<PathBuf>,
    /// Write the game as Markdown (`-` for standard output). With no option at all, the
    /// Markdown is printed.
    #[arg(long, value_name = "FILE")]
    pub export_md: Option<PathBuf>,
    /// Put a vanished token back: `PIECE:TOKEN` with the `piece` of a `token_missing`
    /// event (e.g. `3:+1`). Recorded as a correction.
    #[arg(long, value_name = "PIECE:TOKEN")]
    pub restore_token: Option<String>,
    /// Events of a correction as JSON lines.
    #[arg(long)]
    pub json: bool,
}

/// `tablelens enroll`.
#[derive(Debug, Args)]
pub struct EnrollArgs {
    /// Folder of face pictures: one piece alone, cropped to its outline, upright.
    #[arg(long, value_name = "DIR")]
    pub faces: PathBuf,
    /// Gallery file to write.
    #[arg(long, value_name = "GALLERY")]
    pub out: PathBuf,
}

/// `tablelens analyze`.
#[derive(Debug, Args)]
pub struct AnalyzeArgs {
    /// Table photos.
    #[arg(required = true, value_name = "IMAGE")]
    pub images: Vec<PathBuf>,
    /// Gallery made by `tablelens enroll`.
    #[arg(long, value_name = "GALLERY")]
    pub gallery: PathBuf,
    /// One JSON object per line: `{"image", "layout", "battle"}`.
    #[arg(long)]
    pub json: bool,
}

/// `tablelens eval`.
#[derive(Debug, Args)]
pub struct EvalArgs {
    /// Folder of rendered scenes `NNNN.png` with their truth `NNNN.json`.
    #[arg(long, value_name = "DIR")]
    pub scenes: PathBuf,
    /// Gallery made by `tablelens enroll`.
    #[arg(long, value_name = "GALLERY")]
    pub gallery: PathBuf,
    /// Print the report as JSON.
    #[arg(long)]
    pub json: bool,
}

/// `tablelens battle`.
#[derive(Debug, Args)]
pub struct BattleArgs {
    /// The table layout (JSON, as CONTRACT.md describes); `-` reads standard input.
    pub layout: PathBuf,
    /// Print the battle result as JSON.
    #[arg(long)]
    pub json: bool,
    /// Cards left in Moloch's draw deck: adds who wins the game.
    #[arg(long, value_name = "N", requires = "moloch_hand")]
    pub moloch_deck: Option<u32>,
    /// Cards in Moloch's hand: adds who wins the game.
    #[arg(long, value_name = "N", requires = "moloch_deck")]
    pub moloch_hand: Option<u32>,
}

/// `tablelens check`.
#[derive(Debug, Args)]
pub struct CheckArgs {
    /// The table layout (JSON); `-` reads standard input.
    pub layout: PathBuf,
    /// Print `{"violations": [...], "warnings": [...]}`.
    #[arg(long)]
    pub json: bool,
}

/// `tablelens cards`.
#[derive(Debug, Args)]
pub struct CardsArgs {
    /// Print the catalogue as a JSON array.
    #[arg(long)]
    pub json: bool,
    /// Language of the names in the readable listing: en, pl or hu.
    #[arg(long, default_value = "en", value_parser = ["en", "pl", "hu"])]
    pub lang: String,
}

/// `tablelens render`.
#[derive(Debug, Args)]
#[command(group = clap::ArgGroup::new("target").required(true).args(["out", "faces"]))]
pub struct RenderArgs {
    /// Write scenes `DIR/NNNN.png` with their true layouts `DIR/NNNN.json`.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Write the proxy face of every component as `DIR/<component id>.png`, and the deck's
    /// two card backs as `DIR/card_back/moloch.png` and `outpost.png`.
    #[arg(long, value_name = "DIR", conflicts_with_all = ["count", "seed"])]
    pub faces: Option<PathBuf>,
    /// How many scenes.
    #[arg(long, default_value_t = 10, value_name = "N")]
    pub count: usize,
    /// Random seed: the same seed gives the same files, bit for bit.
    #[arg(long, default_value_t = 0, value_name = "S")]
    pub seed: u64,
    /// Which rendered deck the pieces are printed as: 0, the canonical faces; 1, 2, ...,
    /// other face styles (art, palette, frame, fonts) that no model was trained or scored
    /// on. Render the scenes and the faces to enrol with the same deck.
    #[arg(long, default_value_t = 0, value_name = "K",
          value_parser = clap::value_parser!(u64).range(0..=tablelens_vision::render::LAST_DECK))]
    pub deck: u64,
    /// The photos' size in pixels, `WIDTHxHEIGHT` (64 to 4096 each): other cameras give
    /// other sizes and shapes, 1280x720 or a phone's 4:3.
    #[arg(long, default_value = "1920x1080", value_name = "WxH", value_parser = tablelens_vision::render::parse_size,
          conflicts_with = "faces")]
    pub size: (u32, u32),
}
