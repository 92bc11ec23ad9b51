//! Following the game in the app. The worker feeds every analysed frame (with the player's
//! corrections applied) to a [`GameFollow`], which runs the follow library's [`Follower`]
//! and keeps, as plain data for the window ([`FollowState`]):
//! - the tokens that vanished from a card that stayed (`token_missing`) and are neither
//!   back on the card nor restored by the player;
//! - the +1 tokens due to a unit that entered an undefended future city (`bonus_due`) and
//!   not placed yet;
//! - the battle log: every battle resolved, with its totals, winner and consequences.
//!
//! A live camera gives a stream of frames, each observed once. A photo, a folder or the
//! demo gives one picture per table state: it is held (observed again) until the follower
//! has confirmed what it shows, as a camera looking at a still table would.
//!
//! With a journal (the live camera), every frame, event and correction also goes into the
//! SQLite game journal of `tablelens follow` (`crate::journal`), so that a game resumes
//! where it was after a crash: the follower's memory, the open alerts and the battle log.

use crate::journal::Journal;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Instant;
use tablelens_engine::{Catalogue, CityId, Layout, Reason, Side, Token, Unit, Winner};
use tablelens_vision::follow::{canonical, Event, Follower, PieceRef, Snapshot, TrackConfig};

/// When something happened, in the player's terms.
#[derive(Debug, Clone, PartialEq)]
pub struct When {
    /// The follower's frame number.
    pub frame: u64,
    /// The step of a sequence (demo move, folder picture), counted from 1.
    pub step: Option<usize>,
    /// The clock time it was seen, when it was seen in this session.
    pub at: Option<Instant>,
}

impl When {
    fn unknown(frame: u64) -> When {
        When {
            frame,
            step: None,
            at: None,
        }
    }
}

/// A token that vanished from a card that stayed.
#[derive(Debug, Clone, PartialEq)]
pub struct MissingToken {
    /// The stable id of the physical card (what a restore names).
    pub piece: u64,
    /// The card.
    pub card: String,
    /// Its city.
    pub city: CityId,
    /// Its side.
    pub side: Side,
    /// The token.
    pub token: Token,
    /// Since when it has not been seen.
    pub since: When,
    /// The card's last centre in the frame (to find it on screen).
    pub pos: Option<[f32; 2]>,
    /// How many of that token the card must show again for the alert to close.
    needed: usize,
}

/// A unit that entered an undefended future city without its +1 token.
#[derive(Debug, Clone, PartialEq)]
pub struct BonusDue {
    /// The stable id of the physical card.
    pub piece: u64,
    /// The card.
    pub card: String,
    /// The city it entered.
    pub city: CityId,
    /// Its side.
    pub side: Side,
    /// When it was seen there.
    pub when: When,
    /// How many +1 tokens it had then (one more closes the alert).
    plus_then: usize,
}

/// One resolved battle of the log.
#[derive(Debug, Clone, PartialEq)]
pub struct LoggedBattle {
    /// Where it was fought.
    pub city: CityId,
    /// Who won.
    pub winner: Winner,
    /// Why.
    pub reason: Reason,
    /// Moloch's total.
    pub moloch: i32,
    /// Outpost's total.
    pub outpost: i32,
    /// What the result set off, in rulebook order.
    pub consequences: Vec<String>,
    /// When the battle was seen resolved.
    pub when: When,
}

/// What the window shows of the followed game.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct FollowState {
    /// Tokens missing, oldest first.
    pub missing: Vec<MissingToken>,
    /// +1 tokens due, oldest first.
    pub bonus: Vec<BonusDue>,
    /// Every battle resolved, in order.
    pub battles: Vec<LoggedBattle>,
    /// Whether a table state has been confirmed yet.
    pub confirmed: bool,
    /// The journal the game is kept in, if any.
    pub journal: Option<PathBuf>,
    /// Whether the game was resumed from the journal.
    pub resumed: bool,
}

/// Where a frame comes from, for [`When`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Moment {
    /// A live frame (camera).
    Live,
    /// Step `n` (from 1) of a sequence.
    Step(usize),
}

/// Most observations of one held picture (enough for the tracker to confirm it even after
/// it first takes a big change for a hand over the table).
const MAX_HOLD: usize = 24;
/// Frames whose [`When`] is remembered.
const MOMENTS_KEPT: usize = 20_000;

/// The follower of one game, its journal, and the state the window shows.
#[derive(Debug)]
pub struct GameFollow {
    follower: Follower,
    journal: Option<(Journal, PathBuf)>,
    state: FollowState,
    moments: BTreeMap<u64, When>,
    dismissed: Vec<u64>,
}

fn unit_of(snap: &Snapshot, piece: u64) -> Option<&Unit> {
    let r: &PieceRef = snap.refs.iter().find(|r| r.id == piece)?;
    snap.layout.city(r.city)?.side(r.side).get(r.index)
}

/// The count of a token on a card: by piece id in the snapshot of that frame, else (when
/// replaying a journal) on the card of that name in its column (the smallest count).
fn count_on(
    snap: Option<&Snapshot>,
    layout: Option<&Layout>,
    frame: u64,
    piece: u64,
    at: (CityId, Side, &str),
    token: Token,
) -> usize {
    if let Some(u) = snap
        .filter(|s| s.frame == frame)
        .and_then(|s| unit_of(s, piece))
    {
        return u.count(token);
    }
    layout
        .and_then(|l| l.city(at.0))
        .map(|c| {
            c.side(at.1)
                .iter()
                .filter(|u| u.card == at.2)
                .map(|u| u.count(token))
                .min()
                .unwrap_or(0)
        })
        .unwrap_or(0)
}

fn parse_winner(s: &str) -> Winner {
    match s {
        "moloch" => Winner::Moloch,
        "outpost" => Winner::Outpost,
        "draw" => Winner::Draw,
        _ => Winner::None,
    }
}

fn parse_reason(s: &str) -> Reason {
    match s {
        "stormtrooper" => Reason::Stormtrooper,
        "tie" => Reason::Tie,
        "emp_assault" => Reason::EmpAssault,
        _ => Reason::Strength,
    }
}

fn total(v: &Value) -> i32 {
    v["total"]
        .as_i64()
        .and_then(|t| i32::try_from(t).ok())
        .unwrap_or(0)
}

impl GameFollow {
    /// A game followed in memory only.
    pub fn in_memory() -> GameFollow {
        GameFollow {
            follower: Follower::new(TrackConfig::default()),
            journal: None,
            state: FollowState::default(),
            moments: BTreeMap::new(),
            dismissed: Vec::new(),
        }
    }

    /// The latest game of a journal (created when missing), resumed where it was.
    pub fn with_journal(path: &Path) -> Result<GameFollow, String> {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)
                .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        }
        let journal = Journal::open(path, false).map_err(|e| e.to_string())?;
        let mut g = GameFollow::in_memory();
        g.load(journal, path)?;
        Ok(g)
    }

    /// Takes the follower and the game's history from a journal.
    fn load(&mut self, journal: Journal, path: &Path) -> Result<(), String> {
        self.follower = journal.follower().map_err(|e| e.to_string())?;
        let game = journal.export_json().map_err(|e| e.to_string())?;
        let events: Vec<Event> = game["events"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|e| serde_json::from_value(e.clone()).ok())
            .collect();
        for c in game["corrections"].as_array().into_iter().flatten() {
            if c["kind"] == "dismiss_bonus" {
                if let Some(p) = c["detail"]["piece"].as_u64() {
                    self.dismissed.push(p);
                }
            }
        }
        self.state = FollowState {
            journal: Some(path.to_path_buf()),
            resumed: game["frames"].as_i64().unwrap_or(0) > 0,
            ..FollowState::default()
        };
        self.moments.clear();
        self.journal = Some((journal, path.to_path_buf()));
        self.take(&events);
        Ok(())
    }

    /// Starts a new game (a new game in the journal, if there is one).
    pub fn new_game(&mut self) -> Result<(), String> {
        self.dismissed.clear();
        self.moments.clear();
        match self.journal.take() {
            Some((_, path)) => {
                let journal = Journal::open(&path, true).map_err(|e| e.to_string())?;
                self.load(journal, &path)?;
                self.state.resumed = false;
            }
            None => {
                self.follower = Follower::new(TrackConfig::default());
                self.state = FollowState::default();
            }
        }
        Ok(())
    }

    /// What the window shows.
    pub fn state(&self) -> &FollowState {
        &self.state
    }

    /// The follower.
    #[cfg(test)]
    pub fn follower(&self) -> &Follower {
        &self.follower
    }

    /// One live frame.
    pub fn observe(
        &mut self,
        cat: &Catalogue,
        seen: &Layout,
        moment: Moment,
    ) -> Result<(), String> {
        let frame = self.follower.next_frame();
        self.remember(frame, moment);
        let events = self.follower.observe(cat, seen);
        if let Some((journal, _)) = &mut self.journal {
            journal
                .record_frame(frame, &format!("app:{frame}"), &self.follower, &events)
                .map_err(|e| e.to_string())?;
        }
        self.take(&events);
        Ok(())
    }

    /// One picture of a still table: observed until the follower has confirmed it.
    pub fn hold(&mut self, cat: &Catalogue, seen: &Layout, moment: Moment) -> Result<(), String> {
        let window = self.follower.tracker().config.window.max(1);
        for i in 0..MAX_HOLD {
            self.observe(cat, seen, moment)?;
            if i + 1 >= window && self.settled() {
                break;
            }
        }
        Ok(())
    }

    /// Whether the confirmed table is what the tracker now believes.
    fn settled(&self) -> bool {
        let believed = canonical(&self.follower.tracker().believed().0);
        self.follower
            .confirmed()
            .is_some_and(|c| canonical(&c.layout) == believed)
    }

    fn remember(&mut self, frame: u64, moment: Moment) {
        let step = match moment {
            Moment::Live => None,
            Moment::Step(n) => Some(n),
        };
        self.moments.insert(
            frame,
            When {
                frame,
                step,
                at: Some(Instant::now()),
            },
        );
        while self.moments.len() > MOMENTS_KEPT {
            self.moments.pop_first();
        }
    }

    fn when(&self, frame: u64) -> When {
        self.moments
            .get(&frame)
            .cloned()
            .unwrap_or_else(|| When::unknown(frame))
    }

    /// The player puts a vanished token back: it counts from now on, until the card leaves
    /// the table.
    pub fn restore(&mut self, piece: u64, token: Token) -> Result<(), String> {
        let events = self
            .follower
            .restore_token(piece, token)
            .map_err(|e| e.to_string())?;
        if let Some((journal, _)) = &mut self.journal {
            journal
                .record_correction(
                    "restore_token",
                    &serde_json::json!({"piece": piece, "token": token}),
                    &self.follower,
                    &events,
                )
                .map_err(|e| e.to_string())?;
        }
        self.take(&events);
        Ok(())
    }

    /// The player has seen to a +1 token due (or says it is not due).
    pub fn dismiss(&mut self, piece: u64) -> Result<(), String> {
        self.dismissed.push(piece);
        if let Some((journal, _)) = &mut self.journal {
            journal
                .record_correction(
                    "dismiss_bonus",
                    &serde_json::json!({ "piece": piece }),
                    &self.follower,
                    &[],
                )
                .map_err(|e| e.to_string())?;
        }
        self.resolve();
        Ok(())
    }

    /// Takes the follower's events into the state the window shows.
    fn take(&mut self, events: &[Event]) {
        let snap = self.follower.confirmed().cloned();
        let mut layout: Option<Layout> = None;
        for (i, e) in events.iter().enumerate() {
            match e {
                Event::Confirmed { layout: l, .. } => {
                    layout = Some(l.clone());
                    self.state.confirmed = true;
                }
                Event::TokenMissing {
                    frame,
                    card,
                    city,
                    side,
                    token,
                    since,
                    piece,
                } => {
                    // Several of one token gone at once: one alert each, each closed by
                    // one more coming back.
                    let earlier = events[..i]
                        .iter()
                        .filter(|x| {
                            matches!(x, Event::TokenMissing { piece: p, token: t, frame: f, .. }
                                if p == piece && t == token && f == frame)
                        })
                        .count();
                    let now = count_on(
                        snap.as_ref(),
                        layout.as_ref(),
                        *frame,
                        *piece,
                        (*city, *side, card),
                        *token,
                    );
                    self.state.missing.push(MissingToken {
                        piece: *piece,
                        card: card.clone(),
                        city: *city,
                        side: *side,
                        token: *token,
                        since: self.when(*since),
                        pos: None,
                        needed: now + earlier + 1,
                    });
                }
                Event::BonusDue {
                    frame,
                    card,
                    city,
                    side,
                    piece,
                } => {
                    let plus_then = count_on(
                        snap.as_ref(),
                        layout.as_ref(),
                        *frame,
                        *piece,
                        (*city, *side, card),
                        Token::Plus1,
                    );
                    self.state.bonus.push(BonusDue {
                        piece: *piece,
                        card: card.clone(),
                        city: *city,
                        side: *side,
                        when: self.when(*frame),
                        plus_then,
                    });
                }
                Event::Battle {
                    frame,
                    city,
                    winner,
                    result,
                    ..
                } => self.state.battles.push(LoggedBattle {
                    city: *city,
                    winner: parse_winner(winner),
                    reason: parse_reason(result["reason"].as_str().unwrap_or("")),
                    moloch: total(&result["moloch"]),
                    outpost: total(&result["outpost"]),
                    consequences: result["consequences"]
                        .as_array()
                        .into_iter()
                        .flatten()
                        .filter_map(|c| c.as_str().map(str::to_string))
                        .collect(),
                    when: self.when(*frame),
                }),
                Event::TokenRestored { piece, token, .. } => {
                    if let Some(k) = self
                        .state
                        .missing
                        .iter()
                        .position(|m| m.piece == *piece && m.token == *token)
                    {
                        self.state.missing.remove(k);
                    }
                }
                Event::Ignored { .. } => {}
            }
        }
        self.resolve();
    }

    /// Closes the alerts the confirmed table has answered: the card left, or the token is
    /// back; and notes where each card of an open alert lies.
    fn resolve(&mut self) {
        let Some(snap) = self.follower.confirmed() else {
            return;
        };
        self.state
            .missing
            .retain(|m| unit_of(snap, m.piece).is_some_and(|u| u.count(m.token) < m.needed));
        let dismissed = &self.dismissed;
        self.state.bonus.retain(|b| {
            !dismissed.contains(&b.piece)
                && unit_of(snap, b.piece).is_some_and(|u| u.count(Token::Plus1) <= b.plus_then)
        });
        let tracker = self.follower.tracker();
        for m in &mut self.state.missing {
            m.pos = tracker.track(m.piece).and_then(|t| t.pos);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gui::sources::demo;

    /// The demo game, held move by move.
    fn follow_demo(moves: usize) -> (GameFollow, Catalogue, Vec<Layout>) {
        let cat = demo::catalogue(&Catalogue::bundled());
        let game = demo::game(&cat).unwrap();
        let mut g = GameFollow::in_memory();
        for (i, m) in game.iter().take(moves).enumerate() {
            g.hold(&cat, m, Moment::Step(i + 1)).unwrap();
        }
        (g, cat, game)
    }

    #[test]
    fn a_held_picture_is_confirmed() {
        let (g, _, game) = follow_demo(1);
        let conf = g.follower().confirmed().expect("confirmed");
        assert_eq!(canonical(&conf.layout), canonical(&game[0]));
        assert!(g.state().confirmed);
    }

    #[test]
    fn the_demo_game_shows_every_kind_of_event() {
        let (g, _, game) = follow_demo(demo::TOKEN_KNOCKED_OFF + 1);
        let s = g.state();
        assert_eq!(s.battles.len(), 2, "{:?}", s.battles);
        assert!(s.battles.iter().all(|b| b.city == CityId::ZiggyOne));
        assert_eq!(s.missing.len(), 1, "{:?}", s.missing);
        let m = &s.missing[0];
        assert_eq!((m.card.as_str(), m.token), ("hunter", Token::Plus1));
        assert_eq!(m.since.step, Some(demo::TOKEN_KNOCKED_OFF + 1));
        assert_eq!(s.bonus.len(), 1, "{:?}", s.bonus);
        assert_eq!(s.bonus[0].city, CityId::ClevelandHarbour);
        // The next move resolves the battle in Iron Gate.
        assert!(game.len() > demo::TOKEN_KNOCKED_OFF + 1);
    }

    #[test]
    fn a_restored_token_closes_its_alert_and_counts_in_the_next_battle() {
        let (mut g, cat, game) = follow_demo(demo::TOKEN_KNOCKED_OFF + 1);
        let unrestored = {
            let (mut h, _, _) = follow_demo(demo::TOKEN_KNOCKED_OFF + 1);
            let next = demo::TOKEN_KNOCKED_OFF + 1;
            h.hold(&cat, &game[next], Moment::Step(next + 1)).unwrap();
            h.state().battles.last().unwrap().moloch
        };
        let m = g.state().missing[0].clone();
        g.restore(m.piece, m.token).unwrap();
        assert!(g.state().missing.is_empty());
        // The camera still does not see the token: the alert stays closed.
        let k = demo::TOKEN_KNOCKED_OFF;
        g.hold(&cat, &game[k], Moment::Step(k + 1)).unwrap();
        assert!(g.state().missing.is_empty());
        g.hold(&cat, &game[k + 1], Moment::Step(k + 2)).unwrap();
        let b = g.state().battles.last().unwrap();
        assert_eq!(b.city, CityId::IronGate);
        assert_eq!(b.moloch, unrestored + 1, "{b:?}");
    }

    #[test]
    fn a_bonus_closes_when_dismissed() {
        let (mut g, _, _) = follow_demo(demo::TOKEN_KNOCKED_OFF + 1);
        let piece = g.state().bonus[0].piece;
        g.dismiss(piece).unwrap();
        assert!(g.state().bonus.is_empty());
    }

    #[test]
    fn a_journalled_game_resumes_with_its_alerts_and_battles() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("journal.db");
        let cat = demo::catalogue(&Catalogue::bundled());
        let game = demo::game(&cat).unwrap();
        let (before, frames) = {
            let mut g = GameFollow::with_journal(&path).unwrap();
            for (i, m) in game.iter().take(demo::TOKEN_KNOCKED_OFF + 1).enumerate() {
                g.hold(&cat, m, Moment::Step(i + 1)).unwrap();
            }
            let piece = g.state().bonus[0].piece;
            g.dismiss(piece).unwrap();
            (g.state().clone(), g.follower().next_frame())
        };
        let g = GameFollow::with_journal(&path).unwrap();
        let after = g.state();
        assert!(after.resumed);
        assert_eq!(after.battles.len(), before.battles.len());
        assert_eq!(after.missing.len(), 1);
        assert_eq!(after.missing[0].piece, before.missing[0].piece);
        assert!(after.bonus.is_empty(), "a dismissed bonus stays dismissed");
        assert_eq!(g.follower().next_frame(), frames);
        let mut g = g;
        g.new_game().unwrap();
        assert!(g.state().battles.is_empty() && !g.state().resumed);
        assert_eq!(g.follower().next_frame(), 0);
    }
}
