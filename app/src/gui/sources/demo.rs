//! The built-in demo table: a short scripted game (`app/data/demo_game.json`, legal
//! layouts) rendered by the synthetic-table renderer as one fixed camera sees it (same
//! framing, every piece staying where it lies), a move every few seconds. The frames go
//! through the real vision like camera frames do, and the game is followed like a live one:
//! two battles in Ziggy One, then a token knocked off a card (the move the tests call
//! `TOKEN_KNOCKED_OFF`) and a robot played into an undefended city without its +1, then a
//! battle in Iron Gate.

use super::{Frame, Sequencer, Source, SourceError};
use std::sync::Arc;
use tablelens_engine::{Catalogue, Corners, Layout};
use tablelens_vision::perceive::assemble::Piece;
use tablelens_vision::perceive::{Analysis, PieceClass, StageTimes};
use tablelens_vision::render::sequence::SequenceFrame;
use tablelens_vision::render::{faces::printed_strength, Renderer, SceneOptions};

/// The scripted game: one layout per move.
const GAME: &str = include_str!("../../../data/demo_game.json");
/// Placement and camera of the demo (the same for every move).
const SEED: u64 = 0xC0_4E07;
/// Frame size of the demo.
pub const SIZE: [u32; 2] = [1280, 720];
/// The move (from 0) in which the Hunter's +1 token has been knocked off its card and a
/// Steelhound entered undefended Cleveland Harbour without its +1.
#[cfg(test)]
pub const TOKEN_KNOCKED_OFF: usize = 6;

/// The moves of the demo game.
pub fn game(catalogue: &Catalogue) -> Result<Vec<Layout>, SourceError> {
    let values: Vec<serde_json::Value> =
        serde_json::from_str(GAME).map_err(|e| SourceError::Invalid(format!("demo game: {e}")))?;
    values
        .iter()
        .enumerate()
        .map(|(i, v)| {
            Layout::from_json(&v.to_string(), catalogue)
                .map_err(|e| SourceError::Invalid(format!("demo game, move {}: {e}", i + 1)))
        })
        .collect()
}

/// The catalogue of the demo's proxy pieces: the bundled one with every strength printed on
/// a proxy face confirmed, as if a player had enrolled the proxies and read their values.
pub fn catalogue(base: &Catalogue) -> Catalogue {
    let mut toml = String::new();
    for card in base.cards() {
        if card.strength.is_none() || !card.confirmed {
            if let Some(s) = printed_strength(card) {
                toml.push_str(&format!("[cards.{}]\nstrength = {s}\n", card.id));
            }
        }
    }
    let mut cat = base.clone();
    // The values come from the catalogue itself, so they always apply; on the unexpected
    // error the demo simply keeps the catalogue as it was.
    let _ = cat.apply_overrides(&toml);
    cat
}

/// The demo game, rendered once, as a whole, when first polled.
#[derive(Debug)]
pub struct DemoSource {
    catalogue: Catalogue,
    moves: Vec<Layout>,
    /// Each move's picture and true layout (with corners), once rendered.
    frames: Vec<(Arc<image::RgbImage>, Layout)>,
    seq: Sequencer,
}

impl DemoSource {
    /// The demo, advancing every `step_s` seconds.
    pub fn new(catalogue: &Catalogue, step_s: f32) -> Result<DemoSource, SourceError> {
        let moves = game(catalogue)?;
        Ok(DemoSource {
            catalogue: catalogue.clone(),
            frames: Vec::new(),
            seq: Sequencer::new(moves.len(), step_s),
            moves,
        })
    }
}

/// Every move of the game as one fixed camera sees it, with its true layout. A clean table:
/// no blur, glare or distractors, so the demo shows the vision at its best rather than at
/// its hardest.
pub fn render(catalogue: &Catalogue, moves: &[Layout]) -> Vec<(Arc<image::RgbImage>, Layout)> {
    let options = SceneOptions {
        distractors: false,
        effects: false,
        ..SceneOptions::default().sized(SIZE[0], SIZE[1])
    };
    let frames: Vec<SequenceFrame> = moves.iter().map(SequenceFrame::table).collect();
    Renderer::new(catalogue)
        .render_sequence(&frames, SEED, 0, &options, 0.0)
        .into_iter()
        .map(|scene| (Arc::new(scene.image), scene.truth))
        .collect()
}

impl Source for DemoSource {
    fn poll(&mut self) -> Result<Option<Frame>, SourceError> {
        let Some(i) = self.seq.tick() else {
            return Ok(None);
        };
        if self.frames.len() != self.moves.len() {
            self.frames = render(&self.catalogue, &self.moves);
        }
        let Some((image, truth)) = self.frames.get(i).cloned() else {
            return Err(SourceError::Invalid("the demo could not be drawn".into()));
        };
        Ok(Some(Frame {
            image,
            truth: Some(truth),
            label: "demo".to_string(),
            position: Some((i, self.seq.len())),
        }))
    }

    fn step(&mut self, delta: i64) {
        self.seq.step(delta);
    }

    fn set_paused(&mut self, paused: bool) {
        self.seq.set_paused(paused);
    }
}

/// What a perfect vision would read in a demo frame: its true layout, and a named piece for
/// every card, module strip, token and marker that lies in view. The demo's "read the true
/// table" view uses it to show what the app makes of a perfect reading.
pub fn perfect_analysis(truth: &Layout) -> Analysis {
    let mut pieces = Vec::new();
    let mut named = |class: PieceClass, corners: Option<Corners>, id: &str| {
        if let Some(corners) = corners {
            pieces.push(Piece::sure(class, corners, id));
        }
    };
    for c in &truth.cities {
        let id = c.id.face_id(c.destroyed);
        named(PieceClass::Card, c.corners, &id);
        for m in &c.markers {
            named(PieceClass::Small, m.corners, &m.kind);
        }
        for u in c.moloch.iter().chain(&c.outpost) {
            named(PieceClass::Card, u.corners, &u.card);
            if let Some(m) = &u.module {
                named(PieceClass::Strip, m.corners, &m.card);
            }
            for (t, k) in u.tokens.iter().zip(&u.token_corners) {
                named(PieceClass::Small, Some(*k), t.component_id());
            }
        }
    }
    Analysis {
        layout: truth.clone(),
        has_cities: truth.cities.iter().any(|c| c.corners.is_some()),
        pieces,
        times: StageTimes::default(),
        steps: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tablelens_engine::{battle, check};

    #[test]
    fn every_move_of_the_demo_game_is_legal() {
        let cat = catalogue(&Catalogue::bundled());
        let moves = game(&cat).unwrap();
        assert!(moves.len() >= 5);
        for (i, m) in moves.iter().enumerate() {
            let f = check(&cat, m);
            assert!(
                f.violations.is_empty(),
                "move {}: {:?}",
                i + 1,
                f.violations
            );
            assert!(battle(&cat, m).is_ok());
        }
    }

    #[test]
    fn a_perfect_reading_names_every_piece_in_view() {
        let cat = catalogue(&Catalogue::bundled());
        let moves = game(&cat).unwrap();
        let frames = render(&cat, &moves[..1]);
        let truth = &frames[0].1;
        let a = perfect_analysis(truth);
        assert_eq!(&a.layout, truth);
        assert!(a.has_cities);
        assert!(a.pieces.iter().all(|p| p.id.is_some()));
        // Five cities, the Hornet and the Trooper, and the battle marker.
        assert!(a.pieces.len() >= 8, "{}", a.pieces.len());
        assert!(a.pieces.iter().any(|p| p.id.as_deref() == Some("hornet")));
    }

    #[test]
    fn the_demo_catalogue_confirms_the_proxy_strengths() {
        let cat = catalogue(&Catalogue::bundled());
        let hunter = cat.card("hunter").unwrap();
        assert!(hunter.confirmed && hunter.strength.is_some());
    }
}
