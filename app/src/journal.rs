//! The game journal: a SQLite file that records every frame processed, every confirmed
//! table state, every event and every correction of a followed game, so that nothing
//! confirmed is lost when the process dies and a rerun continues where it stopped.
//!
//! Durability: WAL with `synchronous=FULL`; one transaction per frame (the frame, its
//! events, its confirmed state and the follower's whole memory together) and one per
//! correction. A frame is thus either wholly in the journal or not at all: a process
//! killed at any moment leaves a journal that resumes exactly, and a frame is only printed
//! after its transaction committed.

use crate::error::CliError;
use rusqlite::{params, Connection, OptionalExtension};
use serde_json::{json, Value};
use std::path::Path;
use tablelens_vision::follow::{Event, Follower, TrackConfig};

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    started TEXT NOT NULL DEFAULT (datetime('now')),
    follower TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS frames (
    game INTEGER NOT NULL REFERENCES games(id),
    frame INTEGER NOT NULL,
    path TEXT NOT NULL,
    outcome TEXT NOT NULL,
    PRIMARY KEY (game, frame)
);
CREATE INDEX IF NOT EXISTS frames_by_path ON frames (game, path);
CREATE TABLE IF NOT EXISTS states (
    id INTEGER PRIMARY KEY,
    game INTEGER NOT NULL REFERENCES games(id),
    frame INTEGER NOT NULL,
    layout TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS events (
    id INTEGER PRIMARY KEY,
    game INTEGER NOT NULL REFERENCES games(id),
    frame INTEGER NOT NULL,
    kind TEXT NOT NULL,
    body TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS corrections (
    id INTEGER PRIMARY KEY,
    game INTEGER NOT NULL REFERENCES games(id),
    frame INTEGER NOT NULL,
    kind TEXT NOT NULL,
    detail TEXT NOT NULL
);
";

/// An open journal and the game it follows (the latest in the file).
#[derive(Debug)]
pub struct Journal {
    conn: Connection,
    game: i64,
}

fn db_err(path: &Path) -> impl Fn(rusqlite::Error) -> CliError + '_ {
    move |e| match e {
        rusqlite::Error::SqliteFailure(f, _)
            if matches!(
                f.code,
                rusqlite::ErrorCode::NotADatabase | rusqlite::ErrorCode::DatabaseCorrupt
            ) =>
        {
            CliError::BadInput(format!("{}: not a tablelens journal ({e})", path.display()))
        }
        other => CliError::Failure(format!("journal {}: {other}", path.display())),
    }
}

impl Journal {
    /// Opens (or creates) a journal; `new_game` starts another game in it.
    pub fn open(path: &Path, new_game: bool) -> Result<Journal, CliError> {
        let e = db_err(path);
        let conn = Connection::open(path).map_err(&e)?;
        conn.busy_timeout(std::time::Duration::from_secs(10))
            .map_err(&e)?;
        conn.pragma_update(None, "journal_mode", "WAL")
            .map_err(&e)?;
        conn.pragma_update(None, "synchronous", "FULL")
            .map_err(&e)?;
        conn.execute_batch(SCHEMA).map_err(&e)?;
        let latest: Option<i64> = conn
            .query_row("SELECT max(id) FROM games", [], |r| r.get(0))
            .map_err(&e)?;
        let game = match latest {
            Some(g) if !new_game => g,
            _ => {
                let f = Follower::new(TrackConfig::default());
                conn.execute("INSERT INTO games (follower) VALUES (?1)", [f.to_json()])
                    .map_err(&e)?;
                conn.last_insert_rowid()
            }
        };
        Ok(Journal { conn, game })
    }

    /// Opens an existing journal, refusing a missing file.
    pub fn open_existing(path: &Path) -> Result<Journal, CliError> {
        if !path.is_file() {
            return Err(CliError::BadInput(format!(
                "{}: no such journal",
                path.display()
            )));
        }
        Journal::open(path, false)
    }

    fn err(&self) -> impl Fn(rusqlite::Error) -> CliError {
        |e| CliError::Failure(format!("journal: {e}"))
    }

    /// The follower's memory as last committed.
    pub fn follower(&self) -> Result<Follower, CliError> {
        let text: String = self
            .conn
            .query_row(
                "SELECT follower FROM games WHERE id = ?1",
                [self.game],
                |r| r.get(0),
            )
            .map_err(self.err())?;
        Follower::from_json(&text)
            .map_err(|e| CliError::Failure(format!("journal: follower state unreadable: {e}")))
    }

    /// Whether a frame (by path) was already processed in this game.
    pub fn processed(&self, path: &str) -> Result<bool, CliError> {
        self.conn
            .query_row(
                "SELECT 1 FROM frames WHERE game = ?1 AND path = ?2",
                params![self.game, path],
                |_| Ok(()),
            )
            .optional()
            .map(|o| o.is_some())
            .map_err(self.err())
    }

    fn write_events(
        tx: &rusqlite::Transaction,
        game: i64,
        events: &[Event],
    ) -> rusqlite::Result<()> {
        for ev in events {
            let body = serde_json::to_string(ev).unwrap_or_default();
            tx.execute(
                "INSERT INTO events (game, frame, kind, body) VALUES (?1, ?2, ?3, ?4)",
                params![game, ev.frame() as i64, ev.kind(), body],
            )?;
            if let Event::Confirmed { frame, layout } = ev {
                tx.execute(
                    "INSERT INTO states (game, frame, layout) VALUES (?1, ?2, ?3)",
                    params![
                        game,
                        *frame as i64,
                        serde_json::to_string(layout).unwrap_or_default()
                    ],
                )?;
            }
        }
        Ok(())
    }

    /// Records one processed frame with its events and the follower's memory after it,
    /// in one transaction.
    pub fn record_frame(
        &mut self,
        frame: u64,
        path: &str,
        follower: &Follower,
        events: &[Event],
    ) -> Result<(), CliError> {
        let game = self.game;
        let outcome = if events.iter().any(|e| matches!(e, Event::Ignored { .. })) {
            "ignored"
        } else {
            "taken"
        };
        self.commit_with(follower, events, |tx| {
            tx.execute(
                "INSERT INTO frames (game, frame, path, outcome) VALUES (?1, ?2, ?3, ?4)",
                params![game, frame as i64, path, outcome],
            )
        })
    }

    /// One transaction: `first` (the frame or correction row), then the events, then the
    /// follower's memory after them; all of it is kept, or none.
    fn commit_with(
        &mut self,
        follower: &Follower,
        events: &[Event],
        first: impl FnOnce(&rusqlite::Transaction) -> rusqlite::Result<usize>,
    ) -> Result<(), CliError> {
        let game = self.game;
        let run = |conn: &mut Connection| -> rusqlite::Result<()> {
            let tx = conn.transaction()?;
            first(&tx)?;
            Journal::write_events(&tx, game, events)?;
            tx.execute(
                "UPDATE games SET follower = ?1 WHERE id = ?2",
                params![follower.to_json(), game],
            )?;
            tx.commit()
        };
        run(&mut self.conn).map_err(self.err())
    }

    /// Records a correction with its events and the follower's memory after it, in one
    /// transaction.
    pub fn record_correction(
        &mut self,
        kind: &str,
        detail: &Value,
        follower: &Follower,
        events: &[Event],
    ) -> Result<(), CliError> {
        let game = self.game;
        let frame = follower.next_frame().saturating_sub(1) as i64;
        self.commit_with(follower, events, |tx| {
            tx.execute(
                "INSERT INTO corrections (game, frame, kind, detail) VALUES (?1, ?2, ?3, ?4)",
                params![game, frame, kind, detail.to_string()],
            )
        })
    }

    /// The whole game as one JSON object: `game`, `started`, `frames` (how many were
    /// processed), `ignored_frames`, `states` (every confirmed state with its frame),
    /// `events`, `battles`, `corrections` and `final` (the last confirmed layout or null).
    pub fn export_json(&self) -> Result<Value, CliError> {
        let e = self.err();
        let started: String = self
            .conn
            .query_row(
                "SELECT started FROM games WHERE id = ?1",
                [self.game],
                |r| r.get(0),
            )
            .map_err(&e)?;
        let count = |sql: &str| -> Result<i64, CliError> {
            self.conn
                .query_row(sql, [self.game], |r| r.get(0))
                .map_err(self.err())
        };
        let frames = count("SELECT count(*) FROM frames WHERE game = ?1")?;
        let ignored = count("SELECT count(*) FROM frames WHERE game = ?1 AND outcome = 'ignored'")?;
        let rows = |sql: &str| -> Result<Vec<(i64, String, String)>, CliError> {
            let mut st = self.conn.prepare(sql).map_err(self.err())?;
            let it = st
                .query_map([self.game], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
                .map_err(self.err())?;
            it.collect::<Result<Vec<_>, _>>().map_err(self.err())
        };
        let parse = |s: &str| serde_json::from_str::<Value>(s).unwrap_or(Value::Null);
        let states: Vec<Value> =
            rows("SELECT frame, 'state', layout FROM states WHERE game = ?1 ORDER BY id")?
                .into_iter()
                .map(|(f, _, l)| json!({"frame": f, "layout": parse(&l)}))
                .collect();
        let events: Vec<Value> =
            rows("SELECT frame, kind, body FROM events WHERE game = ?1 ORDER BY id")?
                .into_iter()
                .filter(|(_, k, _)| k != "ignored")
                .map(|(_, _, b)| parse(&b))
                .collect();
        let battles: Vec<Value> = events
            .iter()
            .filter(|e| e["event"] == "battle")
            .cloned()
            .collect();
        let corrections: Vec<Value> =
            rows("SELECT frame, kind, detail FROM corrections WHERE game = ?1 ORDER BY id")?
                .into_iter()
                .map(|(f, k, d)| json!({"frame": f, "kind": k, "detail": parse(&d)}))
                .collect();
        let last = states
            .last()
            .map(|s| s["layout"].clone())
            .unwrap_or(Value::Null);
        Ok(json!({
            "game": self.game,
            "started": started,
            "frames": frames,
            "ignored_frames": ignored,
            "states": states,
            "events": events,
            "battles": battles,
            "corrections": corrections,
            "final": last,
        }))
    }

    /// The whole game as Markdown: summary, battle log, token and bonus events,
    /// corrections, and the final table.
    pub fn export_markdown(&self) -> Result<String, CliError> {
        use std::fmt::Write;
        let g = self.export_json()?;
        let mut md = String::new();
        let _ = writeln!(
            md,
            "# The Convoy: game {} (started {})\n",
            g["game"],
            g["started"].as_str().unwrap_or("?")
        );
        let _ = writeln!(
            md,
            "{} frames processed ({} ignored), {} confirmed table states, {} battles.\n",
            g["frames"],
            g["ignored_frames"],
            g["states"].as_array().map_or(0, Vec::len),
            g["battles"].as_array().map_or(0, Vec::len)
        );
        let _ = writeln!(md, "## Battles\n");
        let battles = g["battles"].as_array().cloned().unwrap_or_default();
        if battles.is_empty() {
            let _ = writeln!(md, "None yet.\n");
        } else {
            let _ = writeln!(
                md,
                "| frame | city | Moloch | Outpost | winner | consequences |"
            );
            let _ = writeln!(md, "|---|---|---|---|---|---|");
            for b in &battles {
                let r = &b["result"];
                let cons: Vec<&str> = r["consequences"]
                    .as_array()
                    .map(|a| a.iter().filter_map(Value::as_str).collect())
                    .unwrap_or_default();
                let _ = writeln!(
                    md,
                    "| {} | {} | {} | {} | {} | {} |",
                    b["frame"],
                    b["city"].as_str().unwrap_or("?"),
                    r["moloch"]["total"],
                    r["outpost"]["total"],
                    b["winner"].as_str().unwrap_or("?"),
                    cons.join("; ").replace('|', "/")
                );
            }
            let _ = writeln!(md);
        }
        let _ = writeln!(md, "## Tokens and bonuses\n");
        let mut any = false;
        for e in g["events"].as_array().into_iter().flatten() {
            let line = match e["event"].as_str() {
                Some("token_missing") => format!(
                    "- frame {}: token {} missing from {} in {} (since frame {})",
                    e["frame"],
                    e["token"].as_str().unwrap_or("?"),
                    e["card"].as_str().unwrap_or("?"),
                    e["city"].as_str().unwrap_or("?"),
                    e["since"]
                ),
                Some("bonus_due") => format!(
                    "- frame {}: {} entered undefended {}: +1 token due",
                    e["frame"],
                    e["card"].as_str().unwrap_or("?"),
                    e["city"].as_str().unwrap_or("?")
                ),
                Some("token_restored") => format!(
                    "- frame {}: token {} restored on {} in {}",
                    e["frame"],
                    e["token"].as_str().unwrap_or("?"),
                    e["card"].as_str().unwrap_or("?"),
                    e["city"].as_str().unwrap_or("?")
                ),
                _ => continue,
            };
            any = true;
            let _ = writeln!(md, "{line}");
        }
        if !any {
            let _ = writeln!(md, "None.");
        }
        let _ = writeln!(md, "\n## Corrections\n");
        let corr = g["corrections"].as_array().cloned().unwrap_or_default();
        if corr.is_empty() {
            let _ = writeln!(md, "None.");
        }
        for c in &corr {
            let _ = writeln!(
                md,
                "- frame {}: {} {}",
                c["frame"],
                c["kind"].as_str().unwrap_or("?"),
                c["detail"]
            );
        }
        let _ = writeln!(md, "\n## Final table\n");
        match g["final"].as_object() {
            None => {
                let _ = writeln!(md, "No table confirmed yet.");
            }
            Some(_) => {
                for c in g["final"]["cities"].as_array().into_iter().flatten() {
                    let unit = |u: &Value| {
                        let mut s = u["card"].as_str().unwrap_or("?").to_string();
                        if let Some(m) = u["module"]["card"].as_str() {
                            s.push_str(&format!(" + {m}"));
                        }
                        for t in u["tokens"].as_array().into_iter().flatten() {
                            s.push_str(&format!(" [{}]", t.as_str().unwrap_or("?")));
                        }
                        s
                    };
                    let side = |k: &str| -> String {
                        let v: Vec<String> =
                            c[k].as_array().into_iter().flatten().map(unit).collect();
                        if v.is_empty() {
                            "-".into()
                        } else {
                            v.join(", ")
                        }
                    };
                    let state = if c["destroyed"] == true {
                        "destroyed".to_string()
                    } else {
                        format!("{} districts destroyed", c["districts_destroyed"])
                    };
                    let _ = writeln!(
                        md,
                        "- **{}** ({state}): Moloch {}; Outpost {}",
                        c["id"].as_str().unwrap_or("?"),
                        side("moloch"),
                        side("outpost")
                    );
                }
            }
        }
        Ok(md)
    }
}
