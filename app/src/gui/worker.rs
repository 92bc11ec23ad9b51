//! The capture and analysis thread. The window sends it [`ToWorker`] commands and receives
//! only finished work ([`FromWorker`]): a frame together with what the vision saw in it,
//! the state of the followed game, status changes, and the list of cameras. The window
//! never waits on it.
//!
//! Every analysed frame, with the player's corrections applied (the worker keeps a copy of
//! them, sent by the window whenever they change), is fed to the game follower
//! ([`super::follow::GameFollow`]): a live camera frame once; a step of the demo or of a
//! folder, or a photo, held until it is confirmed. Stepping back in a sequence replays the
//! steps before it into a new game. A camera's game is kept in the journal, and resumed
//! from it when the camera is opened again.

use super::correction::Corrections;
use super::follow::{FollowState, GameFollow, Moment};
use super::sources::camera::{self, CameraEntry};
use super::sources::{self, demo, Frame, Source, SourceError, SourceSpec};
use std::collections::BTreeMap;
use std::panic::AssertUnwindSafe;
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender};
use std::time::{Duration, Instant};
use tablelens_engine::{Catalogue, Layout, Token};
use tablelens_vision::perceive::identify::gallery_of;
use tablelens_vision::perceive::{embedder_fingerprint, Analysis, Analyzer, Embedder, Gallery};
use tablelens_vision::render::all_faces;

/// What the window asks of the worker.
#[derive(Debug, Clone, PartialEq)]
pub enum ToWorker {
    /// Close the current source and open this one.
    Open(SourceSpec),
    /// Move along a sequence (demo, folder).
    Step(i64),
    /// Pause or resume a sequence.
    Pause(bool),
    /// Read the player's gallery again (after enrolment).
    ReloadGallery,
    /// List the cameras again.
    ListCameras,
    /// The player's corrections, whenever they change.
    Corrections(Corrections),
    /// Put a vanished token back on a card of the followed game.
    RestoreToken {
        /// The card's piece id.
        piece: u64,
        /// The token.
        token: Token,
    },
    /// Stop reminding of the +1 due to a card.
    DismissBonus(u64),
    /// Read the demo from its true table instead of with the vision.
    DemoTruth(bool),
    /// Follow a new game.
    NewGame,
    /// End the thread.
    Shutdown,
}

/// A frame and what the vision saw in it.
#[derive(Debug, Clone)]
pub struct Seen {
    /// The frame.
    pub frame: Frame,
    /// The analysis, or why there is none.
    pub analysis: Result<Analysis, String>,
    /// Whether it came from the demo table (judged with the demo's catalogue).
    pub demo: bool,
    /// Milliseconds the analysis took.
    pub analysis_ms: f64,
}

/// The state of the source, for the status line.
#[derive(Debug, Clone, PartialEq)]
pub enum Status {
    /// Loading the models or opening the source.
    Starting,
    /// Frames are coming.
    Running,
    /// The source is gone for now and is being retried (an unplugged camera).
    Retrying(String),
    /// The source failed; choose another.
    Failed(String),
}

/// What the worker sends back.
#[derive(Debug, Clone)]
pub enum FromWorker {
    /// A finished frame.
    Seen(Box<Seen>),
    /// The followed game changed.
    Follow(Box<FollowState>),
    /// The source's state changed.
    Status(Status),
    /// The cameras present.
    Cameras(Vec<CameraEntry>),
    /// A note for the player (which gallery is in use, ...).
    Note(String),
}

/// How long to wait before opening an unavailable source again.
const RETRY: Duration = Duration::from_secs(2);

/// Where the worker finds the player's files.
#[derive(Debug, Clone, Default)]
pub struct Files {
    /// The enrolled gallery.
    pub gallery: Option<std::path::PathBuf>,
    /// The journal of games followed with a camera.
    pub journal: Option<std::path::PathBuf>,
}

/// Starts the worker thread. `notify` is called after every message (to wake the window).
pub fn spawn(
    catalogue: Catalogue,
    files: Files,
    commands: Receiver<ToWorker>,
    results: Sender<FromWorker>,
    notify: Box<dyn Fn() + Send>,
) -> std::io::Result<std::thread::JoinHandle<()>> {
    std::thread::Builder::new()
        .name("tablelens-worker".into())
        .spawn(move || Worker::new(catalogue, files, results, notify).run(commands))
}

struct Worker {
    catalogue: Catalogue,
    demo_catalogue: Catalogue,
    files: Files,
    results: Sender<FromWorker>,
    notify: Box<dyn Fn() + Send>,
    /// Analyzer with the gallery of the canonical proxy faces (the demo's pieces).
    canonical: Option<Result<Analyzer, String>>,
    /// Analyzer with the player's gallery, or the canonical one when there is none.
    user: Option<Result<Analyzer, String>>,
    source: Option<Box<dyn Source>>,
    spec: Option<SourceSpec>,
    is_demo: bool,
    /// Read the demo from its true table.
    demo_truth: bool,
    /// A live source (camera): frames are observed once, the game is journalled.
    live: bool,
    retry_at: Option<Instant>,
    /// The player's corrections, as the window last sent them.
    corrections: Corrections,
    /// The followed game.
    game: GameFollow,
    /// The game state last sent to the window.
    sent: Option<FollowState>,
    /// The layout followed at each step of the sequence open, for replays.
    steps: BTreeMap<usize, Layout>,
    /// The last step of the sequence followed.
    last_step: Option<usize>,
}

impl Worker {
    fn new(
        catalogue: Catalogue,
        files: Files,
        results: Sender<FromWorker>,
        notify: Box<dyn Fn() + Send>,
    ) -> Worker {
        Worker {
            demo_catalogue: demo::catalogue(&catalogue),
            catalogue,
            files,
            results,
            notify,
            canonical: None,
            user: None,
            source: None,
            spec: None,
            is_demo: false,
            demo_truth: false,
            live: false,
            retry_at: None,
            corrections: Corrections::default(),
            game: GameFollow::in_memory(),
            sent: None,
            steps: BTreeMap::new(),
            last_step: None,
        }
    }

    fn send(&self, m: FromWorker) -> bool {
        let ok = self.results.send(m).is_ok();
        (self.notify)();
        ok
    }

    fn run(&mut self, commands: Receiver<ToWorker>) {
        let _ = self.send(FromWorker::Cameras(camera::list()));
        loop {
            let wait = match &self.source {
                Some(s) => s.idle(),
                None => Duration::from_millis(100),
            };
            let first = match commands.recv_timeout(wait) {
                Ok(c) => Some(c),
                Err(RecvTimeoutError::Timeout) => None,
                Err(RecvTimeoutError::Disconnected) => return,
            };
            for c in first.into_iter().chain(commands.try_iter()) {
                match c {
                    ToWorker::Open(spec) => {
                        self.source = None;
                        self.is_demo = matches!(spec, SourceSpec::Demo { .. });
                        self.live = matches!(spec, SourceSpec::Camera { .. });
                        self.spec = Some(spec);
                        self.retry_at = None;
                        let _ = self.send(FromWorker::Status(Status::Starting));
                        self.start_game();
                    }
                    ToWorker::Step(d) => {
                        if let Some(s) = &mut self.source {
                            s.step(d);
                        }
                    }
                    ToWorker::Pause(p) => {
                        if let Some(s) = &mut self.source {
                            s.set_paused(p);
                        }
                    }
                    ToWorker::ReloadGallery => self.user = None,
                    ToWorker::ListCameras => {
                        let _ = self.send(FromWorker::Cameras(camera::list()));
                    }
                    ToWorker::Corrections(c) => self.corrections = c,
                    ToWorker::DemoTruth(t) => self.demo_truth = t,
                    ToWorker::RestoreToken { piece, token } => {
                        let done = self.game.restore(piece, token);
                        self.game_done(done);
                    }
                    ToWorker::DismissBonus(piece) => {
                        let done = self.game.dismiss(piece);
                        self.game_done(done);
                    }
                    ToWorker::NewGame => {
                        self.steps.clear();
                        self.last_step = None;
                        let done = self.game.new_game();
                        self.game_done(done);
                    }
                    ToWorker::Shutdown => return,
                }
            }
            self.open_if_due();
            if !self.poll_once() {
                return;
            }
        }
    }

    fn open_if_due(&mut self) {
        if self.source.is_some() || self.retry_at.is_some_and(|t| Instant::now() < t) {
            return;
        }
        let Some(spec) = self.spec.clone() else {
            return;
        };
        match sources::open(&spec, &self.catalogue) {
            Ok(s) => {
                self.source = Some(s);
                self.retry_at = None;
                let _ = self.send(FromWorker::Status(Status::Running));
            }
            Err(SourceError::Unavailable(m)) => {
                self.retry_at = Some(Instant::now() + RETRY);
                let _ = self.send(FromWorker::Status(Status::Retrying(m)));
            }
            Err(SourceError::Invalid(m)) => {
                self.spec = None;
                let _ = self.send(FromWorker::Status(Status::Failed(m)));
            }
        }
    }

    /// Polls the source once; false when the window is gone.
    fn poll_once(&mut self) -> bool {
        let Some(src) = &mut self.source else {
            return true;
        };
        let polled = std::panic::catch_unwind(AssertUnwindSafe(|| src.poll()))
            .unwrap_or_else(|_| Err(SourceError::Unavailable("the source failed".into())));
        match polled {
            Ok(Some(frame)) => {
                let seen = self.analyze(frame);
                let done = self.follow(&seen);
                let alive = self.send(FromWorker::Seen(Box::new(seen)));
                self.game_done(done);
                alive
            }
            Ok(None) => true,
            Err(SourceError::Unavailable(m)) => {
                self.source = None;
                self.retry_at = Some(Instant::now() + RETRY);
                self.send(FromWorker::Status(Status::Retrying(m)))
            }
            Err(SourceError::Invalid(m)) => self.send(FromWorker::Status(Status::Failed(m))),
        }
    }

    fn analyze(&mut self, frame: Frame) -> Seen {
        let demo = self.is_demo;
        let t0 = Instant::now();
        if let Some(truth) = frame.truth.as_ref().filter(|_| demo && self.demo_truth) {
            return Seen {
                analysis: Ok(demo::perfect_analysis(truth)),
                frame,
                demo,
                analysis_ms: t0.elapsed().as_secs_f64() * 1000.0,
            };
        }
        let cat = if demo {
            &self.demo_catalogue
        } else {
            &self.catalogue
        };
        let slot = if demo {
            &mut self.canonical
        } else {
            &mut self.user
        };
        if slot.is_none() {
            let (analyzer, note) = if demo {
                (canonical_analyzer(&self.demo_catalogue), None)
            } else {
                user_analyzer(&self.catalogue, self.files.gallery.as_deref())
            };
            *slot = Some(analyzer);
            if let Some(n) = note {
                let _ = self.results.send(FromWorker::Note(n));
            }
        }
        let analysis = match slot {
            Some(Ok(a)) => {
                std::panic::catch_unwind(AssertUnwindSafe(|| a.analyze(cat, &frame.image)))
                    .unwrap_or_else(|_| {
                        Err(tablelens_vision::perceive::VisionError::Model(
                            "the vision failed on this frame".into(),
                        ))
                    })
                    .map_err(|e| e.to_string())
            }
            Some(Err(e)) => Err(e.clone()),
            None => Err("no vision".into()),
        };
        Seen {
            frame,
            analysis,
            demo,
            analysis_ms: t0.elapsed().as_secs_f64() * 1000.0,
        }
    }
}

impl Worker {
    /// A new source: a new game (a camera's is resumed from the journal).
    fn start_game(&mut self) {
        self.corrections.clear();
        self.steps.clear();
        self.last_step = None;
        self.game = GameFollow::in_memory();
        if self.live {
            if let Some(p) = &self.files.journal {
                match GameFollow::with_journal(p) {
                    Ok(g) => self.game = g,
                    Err(e) => {
                        let _ = self.send(FromWorker::Note(format!(
                            "{e} — the game is followed without a journal"
                        )));
                    }
                }
            }
        }
        self.sent = None;
        self.game_done(Ok(()));
    }

    /// Feeds an analysed frame, corrected as the player said, to the game follower.
    fn follow(&mut self, seen: &Seen) -> Result<(), String> {
        let Ok(a) = &seen.analysis else {
            return Ok(());
        };
        let cat = if seen.demo {
            &self.demo_catalogue
        } else {
            &self.catalogue
        };
        self.corrections.track(&a.pieces, &a.layout.missing);
        let layout = self.corrections.apply(cat, &a.layout, &a.pieces);
        match seen.frame.position {
            Some((step, _)) => {
                if self.last_step.is_some_and(|last| step < last) {
                    // Back in the sequence (or round to its start): the game up to here.
                    self.game.new_game()?;
                    self.steps.split_off(&step);
                    for (k, l) in &self.steps {
                        self.game.hold(cat, l, Moment::Step(k + 1))?;
                    }
                }
                self.last_step = Some(step);
                self.steps.insert(step, layout.clone());
                self.game.hold(cat, &layout, Moment::Step(step + 1))
            }
            None if self.live => self.game.observe(cat, &layout, Moment::Live),
            None => self.game.hold(cat, &layout, Moment::Live),
        }
    }

    /// Reports a failure of the game follower, and sends its state when it changed.
    fn game_done(&mut self, done: Result<(), String>) {
        if let Err(e) = done {
            let _ = self.send(FromWorker::Note(e));
        }
        if self.sent.as_ref() != Some(self.game.state()) {
            let state = self.game.state().clone();
            self.sent = Some(state.clone());
            let _ = self.send(FromWorker::Follow(Box::new(state)));
        }
    }
}

/// A gallery of the canonical proxy face of every component (style 0), made in memory.
pub fn canonical_gallery(cat: &Catalogue, embedder: &Embedder) -> Result<Gallery, String> {
    gallery_of(cat, embedder, &embedder_fingerprint(), all_faces(cat, 0)).map_err(|e| e.to_string())
}

fn canonical_analyzer(cat: &Catalogue) -> Result<Analyzer, String> {
    let embedder = Embedder::builtin().map_err(|e| e.to_string())?;
    let gallery = canonical_gallery(cat, &embedder)?;
    Analyzer::new(gallery).map_err(|e| e.to_string())
}

/// The player's gallery when it exists and fits this tablelens, else the proxy faces.
fn user_analyzer(
    cat: &Catalogue,
    path: Option<&std::path::Path>,
) -> (Result<Analyzer, String>, Option<String>) {
    if let Some(p) = path.filter(|p| p.is_file()) {
        match Gallery::load(p).and_then(Analyzer::new) {
            Ok(a) => {
                let note = match a.gallery().lacking_note(cat) {
                    Some(lacking) => format!("gallery: {}: {lacking} (E)", p.display()),
                    None => format!("gallery: {}", p.display()),
                };
                return (Ok(a), Some(note));
            }
            Err(e) => {
                let note = format!("{e} — using the proxy faces instead");
                return (canonical_analyzer(cat), Some(note));
            }
        }
    }
    (
        canonical_analyzer(cat),
        Some("no enrolled gallery: using the proxy faces (enrol your pieces with E)".into()),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gui::correction::Correction;
    use crate::gui::tests::seen;
    use std::sync::mpsc::channel;

    #[test]
    fn a_gallery_enrolled_by_an_older_tablelens_is_used_and_asks_to_be_enrolled_again() {
        let cat = Catalogue::bundled();
        let embedder = Embedder::builtin().unwrap();
        let mut gallery = canonical_gallery(&cat, &embedder).unwrap();
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("gallery.json");
        gallery.save(&path).unwrap();
        let (analyzer, note) = user_analyzer(&cat, Some(&path));
        assert!(analyzer.is_ok());
        assert_eq!(note, Some(format!("gallery: {}", path.display())));
        // The same gallery without the face pictures a newer enrolment keeps.
        gallery.faces.clear();
        gallery.save(&path).unwrap();
        let (analyzer, note) = user_analyzer(&cat, Some(&path));
        assert!(analyzer.is_ok());
        let note = note.unwrap();
        assert!(
            note.contains("unit face pictures") && note.contains("enrol"),
            "{note}"
        );
    }

    fn worker() -> (Worker, Receiver<FromWorker>) {
        let (tx, rx) = channel();
        let w = Worker::new(Catalogue::bundled(), Files::default(), tx, Box::new(|| {}));
        (w, rx)
    }

    /// Move `n` of the demo, seen perfectly, as step `n` of the sequence.
    fn step(n: usize) -> Seen {
        let FromWorker::Seen(mut s) = seen(&Catalogue::bundled(), n, None) else {
            unreachable!()
        };
        s.frame.position = Some((n, 8));
        *s
    }

    fn follow(w: &mut Worker, n: usize) {
        w.follow(&step(n)).unwrap();
    }

    #[test]
    fn a_sequence_is_followed_and_replayed_up_to_a_step_gone_back_to() {
        let (mut w, _rx) = worker();
        w.is_demo = true;
        for n in 0..=4 {
            follow(&mut w, n);
        }
        assert_eq!(w.game.state().battles.len(), 2);
        follow(&mut w, 3);
        assert_eq!(
            w.game.state().battles.len(),
            1,
            "back at move 4: only the battle before it"
        );
        follow(&mut w, 4);
        assert_eq!(w.game.state().battles.len(), 2);
        follow(&mut w, 0);
        assert!(w.game.state().battles.is_empty(), "round to the start");
    }

    #[test]
    fn the_game_is_followed_with_the_players_corrections() {
        let (mut w, rx) = worker();
        w.is_demo = true;
        let k = demo::TOKEN_KNOCKED_OFF;
        for n in 0..=k {
            follow(&mut w, n);
        }
        assert_eq!(w.game.state().missing.len(), 1);
        // The player says the Hunter does have its +1 (a correction on its card).
        let s = step(k);
        let hunter = s
            .analysis
            .as_ref()
            .unwrap()
            .layout
            .city(tablelens_engine::CityId::IronGate)
            .unwrap()
            .moloch
            .iter()
            .find(|u| u.card == "hunter")
            .and_then(|u| u.corners)
            .unwrap();
        let mut cs = Corrections::default();
        cs.set(Correction {
            corners: hunter,
            pinned: vec![Token::Plus1],
            ..Correction::default()
        });
        w.corrections = cs;
        let done = w.follow(&s);
        w.game_done(done);
        assert!(w.game.state().missing.is_empty(), "the token is back");
        let sent: Vec<FromWorker> = rx.try_iter().collect();
        assert!(sent
            .iter()
            .any(|m| matches!(m, FromWorker::Follow(f) if f.missing.is_empty())));
    }

    #[test]
    fn the_demo_can_be_read_from_its_true_table() {
        let (mut w, _rx) = worker();
        w.is_demo = true;
        w.demo_truth = true;
        let cat = demo::catalogue(&Catalogue::bundled());
        let (image, truth) = demo::render(&cat, &demo::game(&cat).unwrap()[..1]).remove(0);
        let seen = w.analyze(Frame {
            image,
            truth: Some(truth.clone()),
            label: "demo".into(),
            position: Some((0, 1)),
        });
        assert_eq!(seen.analysis.unwrap().layout, truth);
        assert!(w.canonical.is_none(), "no vision loaded");
    }

    /// Plumbing through the real vision (weak models today: what it reads is not checked).
    #[test]
    fn the_worker_analyses_and_follows_the_demo() {
        let (tx, commands) = channel();
        let (results, rx) = channel();
        let handle = spawn(
            Catalogue::bundled(),
            Files::default(),
            commands,
            results,
            Box::new(|| {}),
        )
        .unwrap();
        tx.send(ToWorker::Open(SourceSpec::Demo { step: 600.0 }))
            .unwrap();
        let deadline = Instant::now() + Duration::from_secs(120);
        let (mut frame, mut game) = (false, false);
        while !(frame && game) && Instant::now() < deadline {
            match rx.recv_timeout(Duration::from_secs(1)) {
                Ok(FromWorker::Seen(s)) => {
                    assert!(s.analysis.is_ok(), "{:?}", s.analysis.err());
                    assert_eq!(
                        s.frame.position,
                        Some((0, demo::game(&Catalogue::bundled()).unwrap().len()))
                    );
                    frame = true;
                }
                Ok(FromWorker::Follow(_)) => game = true,
                Ok(_) | Err(_) => {}
            }
        }
        assert!(frame && game, "a frame and the state of the game followed");
        tx.send(ToWorker::Shutdown).unwrap();
        handle.join().unwrap();
    }
}
