//! The capture and analysis thread. The window sends it [`ToWorker`] commands and receives
//! only finished work ([`FromWorker`]): a frame together with what the vision saw in it,
//! status changes, and the list of cameras. The window never waits on it.

use super::sources::camera::{self, CameraEntry};
use super::sources::{self, demo, Frame, Source, SourceError, SourceSpec};
use std::panic::AssertUnwindSafe;
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender};
use std::time::{Duration, Instant};
use tablelens_engine::Catalogue;
use tablelens_vision::perceive::identify::{class_of, face_crop, GalleryEntry};
use tablelens_vision::perceive::{
    embedder_fingerprint, Analysis, Analyzer, Embedder, Gallery, EMBEDDER_ONNX,
};
use tablelens_vision::render::face;

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
    /// The source's state changed.
    Status(Status),
    /// The cameras present.
    Cameras(Vec<CameraEntry>),
    /// A note for the player (which gallery is in use, ...).
    Note(String),
}

/// How long to wait before opening an unavailable source again.
const RETRY: Duration = Duration::from_secs(2);

/// Starts the worker thread. `notify` is called after every message (to wake the window).
pub fn spawn(
    catalogue: Catalogue,
    gallery_path: Option<std::path::PathBuf>,
    commands: Receiver<ToWorker>,
    results: Sender<FromWorker>,
    notify: Box<dyn Fn() + Send>,
) -> std::io::Result<std::thread::JoinHandle<()>> {
    std::thread::Builder::new()
        .name("tablelens-worker".into())
        .spawn(move || {
            let mut w = Worker {
                demo_catalogue: demo::catalogue(&catalogue),
                catalogue,
                gallery_path,
                results,
                notify,
                canonical: None,
                user: None,
                source: None,
                spec: None,
                is_demo: false,
                retry_at: None,
            };
            w.run(commands);
        })
}

struct Worker {
    catalogue: Catalogue,
    demo_catalogue: Catalogue,
    gallery_path: Option<std::path::PathBuf>,
    results: Sender<FromWorker>,
    notify: Box<dyn Fn() + Send>,
    /// Analyzer with the gallery of the canonical proxy faces (the demo's pieces).
    canonical: Option<Result<Analyzer, String>>,
    /// Analyzer with the player's gallery, or the canonical one when there is none.
    user: Option<Result<Analyzer, String>>,
    source: Option<Box<dyn Source>>,
    spec: Option<SourceSpec>,
    is_demo: bool,
    retry_at: Option<Instant>,
}

impl Worker {
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
                        self.spec = Some(spec);
                        self.retry_at = None;
                        let _ = self.send(FromWorker::Status(Status::Starting));
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
                self.send(FromWorker::Seen(Box::new(seen)))
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
                user_analyzer(&self.catalogue, self.gallery_path.as_deref())
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

/// A gallery of the canonical proxy face of every component (style 0), made in memory.
pub fn canonical_gallery(cat: &Catalogue, embedder: &Embedder) -> Result<Gallery, String> {
    let mut crops = Vec::new();
    let mut labels = Vec::new();
    for id in cat.component_ids() {
        if let Some(img) = face(cat, &id, 0) {
            let class = class_of(cat, &id);
            crops.push(face_crop(&img, class));
            labels.push((id, class));
        }
    }
    let embeddings = embedder.embed(&crops).map_err(|e| e.to_string())?;
    Ok(Gallery {
        model: embedder_fingerprint(),
        entries: labels
            .into_iter()
            .zip(embeddings)
            .map(|((id, class), e)| GalleryEntry {
                id,
                class,
                embedding: e.to_vec(),
            })
            .collect(),
    })
}

fn canonical_analyzer(cat: &Catalogue) -> Result<Analyzer, String> {
    let embedder = Embedder::load(EMBEDDER_ONNX).map_err(|e| e.to_string())?;
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
            Ok(a) => return (Ok(a), Some(format!("gallery: {}", p.display()))),
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
