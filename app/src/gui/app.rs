//! The app's state and the window's layout: the source bar on top, the frame with its
//! overlay in the middle and the followed game's battle log under it, the battle (with what
//! the followed game needs of the player) on the right, the status line at the bottom, and
//! the correction and enrolment windows over them.

use super::correction::{Correction, Corrections};
use super::follow::FollowState;
use super::game_panel::{self, GameAction};
use super::i18n::{component_name, tr, Lang};
use super::overlay::{self, OverlayOptions};
use super::panels;
use super::report;
use super::settings::{Settings, SourceKind, RESOLUTIONS};
use super::sources::camera::CameraEntry;
use super::sources::{demo, SourceSpec};
use super::view::View;
use super::wizard::{self, Wizard};
use super::worker::{self, Files, FromWorker, Seen, Status, ToWorker};
use eframe::egui::{self, Key, RichText};
use std::path::PathBuf;
use std::sync::mpsc::{channel, Receiver, Sender};
use tablelens_engine::{Catalogue, Corners, Side, Token};

/// The open correction of one piece.
#[derive(Debug, Clone, PartialEq)]
pub struct Editor {
    /// Where the piece lies.
    pub corners: Corners,
    /// What the vision named it (or its best guess).
    pub seen: String,
    /// Whether the vision named it at all.
    pub named: bool,
    /// For a place where a card may lie unread, the unit cards the vision found most like
    /// it, most like first (`MissingCard::likely`): offered first.
    pub likely: Vec<String>,
    /// The identity chosen; `None` keeps what the vision saw.
    pub identity: Option<String>,
    /// Whether the piece is a unit (tokens and nets apply).
    pub is_unit: bool,
    /// Count of each token of [`Token::ALL`].
    pub tokens: [u32; 5],
    /// Netted.
    pub netted: bool,
}

struct Link {
    tx: Sender<ToWorker>,
    rx: Receiver<FromWorker>,
}

/// The whole app.
pub struct TableLensApp {
    catalogue_file: Option<PathBuf>,
    data_dir: Option<PathBuf>,
    catalogue: Catalogue,
    demo_catalogue: Catalogue,
    /// The player's settings.
    pub settings: Settings,
    settings_path: Option<PathBuf>,
    link: Option<Link>,
    status: Status,
    cameras: Vec<CameraEntry>,
    note: Option<String>,
    message: Option<String>,
    seen: Option<Box<Seen>>,
    texture: Option<(egui::TextureHandle, [u32; 2])>,
    texture_stale: bool,
    view: Option<View>,
    /// The player's corrections.
    pub corrections: Corrections,
    /// The correction being edited.
    pub editor: Option<Editor>,
    /// The followed game, as the worker last reported it.
    pub follow: FollowState,
    paused: bool,
    /// The enrolment wizard, when open.
    pub wizard: Option<Wizard>,
    show_help: bool,
    saved_tx: Sender<String>,
    saved_rx: Receiver<String>,
}

fn load_catalogue(file: Option<&std::path::Path>) -> (Catalogue, Option<String>) {
    match crate::catalogue_source::load(file) {
        Ok(c) => (c, None),
        Err(e) => (Catalogue::bundled(), Some(e.to_string())),
    }
}

impl TableLensApp {
    /// An app with no worker (for tests, and the base of [`TableLensApp::start`]).
    pub fn new(catalogue: Catalogue, settings: Settings, data_dir: Option<PathBuf>) -> Self {
        let (saved_tx, saved_rx) = channel();
        TableLensApp {
            catalogue_file: None,
            demo_catalogue: demo::catalogue(&catalogue),
            catalogue,
            data_dir,
            settings,
            settings_path: None,
            link: None,
            status: Status::Starting,
            cameras: Vec::new(),
            note: None,
            message: None,
            seen: None,
            texture: None,
            texture_stale: false,
            view: None,
            corrections: Corrections::default(),
            editor: None,
            follow: FollowState::default(),
            paused: false,
            wizard: None,
            show_help: false,
            saved_tx,
            saved_rx,
        }
    }

    /// The app with its worker: settings read, catalogue loaded, the source of last time
    /// (or, the first time, a camera when there is one and the demo table otherwise) opened.
    pub fn start(ctx: &egui::Context, catalogue_file: Option<PathBuf>) -> Self {
        let settings_path = Settings::path();
        let first_run = settings_path.as_ref().is_none_or(|p| !p.is_file());
        let mut settings = settings_path
            .as_deref()
            .map(Settings::load_from)
            .unwrap_or_default();
        let (catalogue, error) = load_catalogue(catalogue_file.as_deref());
        let data_dir = crate::catalogue_source::data_dir();
        let cameras = super::sources::camera::list();
        if first_run && !cameras.is_empty() {
            settings.source = SourceKind::Camera;
        }
        if settings.source == SourceKind::Camera && cameras.is_empty() {
            settings.source = SourceKind::Demo;
        }
        let mut app = TableLensApp::new(catalogue.clone(), settings, data_dir.clone());
        app.catalogue_file = catalogue_file;
        app.settings_path = settings_path;
        app.cameras = cameras;
        app.message = error;
        let (tx, worker_rx) = channel();
        let (worker_tx, rx) = channel();
        let repaint = ctx.clone();
        let files = Files {
            gallery: data_dir.as_ref().map(|d| d.join("gallery.json")),
            journal: data_dir.as_ref().map(|d| d.join("journal.db")),
        };
        let spawned = worker::spawn(
            catalogue,
            files,
            worker_rx,
            worker_tx,
            Box::new(move || repaint.request_repaint()),
        );
        match spawned {
            Ok(_) => app.connect(tx, rx),
            Err(e) => app.message = Some(format!("cannot start the worker: {e}")),
        }
        app.send(ToWorker::DemoTruth(app.settings.demo_truth));
        if let Some(spec) = app.spec() {
            app.send(ToWorker::Open(spec));
        }
        app
    }

    /// Connects the app to a worker (tests connect their own channels).
    pub fn connect(&mut self, tx: Sender<ToWorker>, rx: Receiver<FromWorker>) {
        self.link = Some(Link { tx, rx });
    }

    fn lang(&self) -> Lang {
        self.settings.lang()
    }

    fn send(&self, c: ToWorker) {
        if let Some(l) = &self.link {
            let _ = l.tx.send(c);
        }
    }

    /// The source the settings describe, if it can be opened without more input.
    fn spec(&self) -> Option<SourceSpec> {
        let s = &self.settings;
        match s.source {
            SourceKind::Demo => Some(SourceSpec::Demo {
                step: s.step_seconds,
            }),
            SourceKind::Camera => Some(SourceSpec::Camera {
                index: s.camera,
                resolution: s.resolution,
            }),
            SourceKind::Photo => {
                (!s.photo.trim().is_empty()).then(|| SourceSpec::Photo(s.photo.trim().into()))
            }
            SourceKind::Folder => (!s.folder.trim().is_empty()).then(|| SourceSpec::Folder {
                dir: s.folder.trim().into(),
                step: s.step_seconds,
            }),
        }
    }

    fn open_source(&mut self) {
        self.corrections.clear();
        self.editor = None;
        self.paused = false;
        if let Some(spec) = self.spec() {
            self.send(ToWorker::Open(spec));
        }
        self.save_settings();
    }

    fn save_settings(&mut self) {
        if let Some(p) = &self.settings_path {
            if let Err(e) = self.settings.save_to(p) {
                self.message = Some(e);
            }
        }
    }

    fn catalogue_in_force(&self) -> &Catalogue {
        match &self.seen {
            Some(s) if s.demo => &self.demo_catalogue,
            _ => &self.catalogue,
        }
    }

    /// Takes a message from the worker (tests feed it directly).
    pub fn accept(&mut self, m: FromWorker) {
        match m {
            FromWorker::Seen(seen) => {
                if let Ok(a) = &seen.analysis {
                    self.corrections.track(&a.pieces, &a.layout.missing);
                }
                self.seen = Some(seen);
                self.texture_stale = true;
                self.status = Status::Running;
                self.rebuild_view();
            }
            FromWorker::Follow(f) => self.follow = *f,
            FromWorker::Status(s) => self.status = s,
            FromWorker::Cameras(c) => self.cameras = c,
            FromWorker::Note(n) => self.note = Some(n),
        }
    }

    /// Works the view out again from the last analysis and the corrections.
    pub fn rebuild_view(&mut self) {
        let cat = self.catalogue_in_force().clone();
        self.view = match self.seen.as_ref().map(|s| &s.analysis) {
            Some(Ok(a)) => {
                let layout = self.corrections.apply(&cat, &a.layout, &a.pieces);
                let has_cities = a.has_cities || !layout.cities.is_empty();
                Some(View::new(&cat, layout, has_cities))
            }
            _ => None,
        };
    }

    /// The view of the current frame.
    pub fn view(&self) -> Option<&View> {
        self.view.as_ref()
    }

    fn open_editor(&mut self, corners: Corners) {
        let cat = self.catalogue_in_force();
        let piece = self
            .seen
            .as_ref()
            .and_then(|s| s.analysis.as_ref().ok())
            .and_then(|a| {
                a.pieces
                    .iter()
                    .find(|p| super::correction::same_place(&p.corners, &corners))
            });
        let unit = self.view.as_ref().and_then(|v| v.unit_at(&corners));
        let existing = self.corrections.at(&corners);
        // A place where a card may lie unread: the cards it looks most like.
        let likely = match piece {
            Some(_) => Vec::new(),
            None => self
                .seen
                .as_ref()
                .and_then(|s| s.analysis.as_ref().ok())
                .and_then(|a| super::correction::missing_at(&a.layout.missing, &corners))
                .map(|m| m.likely.clone())
                .unwrap_or_default(),
        };
        let seen_id = piece
            .and_then(|p| p.id.clone())
            .or_else(|| unit.map(|u| u.card.clone()));
        let named = seen_id.is_some();
        let seen = seen_id
            .or_else(|| piece.map(|p| p.best.clone()))
            .or_else(|| likely.first().cloned())
            .unwrap_or_default();
        let identity = existing.and_then(|c| c.identity.clone());
        let shown = identity.clone().unwrap_or_else(|| seen.clone());
        let is_unit = cat.card(&shown).is_some_and(|c| c.kind.is_unit());
        let mut tokens = [0u32; 5];
        if let Some(u) = unit {
            for t in &u.tokens {
                if let Some(i) = Token::ALL.iter().position(|x| x == t) {
                    tokens[i] += 1;
                }
            }
        }
        self.editor = Some(Editor {
            corners,
            seen,
            named,
            likely,
            identity,
            is_unit,
            tokens,
            netted: unit.is_some_and(|u| u.netted),
        });
    }

    fn apply_editor(&mut self) {
        let Some(e) = self.editor.take() else { return };
        let mut tokens = Vec::new();
        for (i, n) in e.tokens.iter().enumerate() {
            tokens.extend(std::iter::repeat_n(Token::ALL[i], *n as usize));
        }
        self.corrections.set(Correction {
            corners: e.corners,
            identity: e.identity.clone(),
            tokens: e.is_unit.then_some(tokens),
            netted: e.is_unit.then_some(e.netted),
            // The tokens chosen here are all there is: none is kept on top of them.
            pinned: Vec::new(),
            missed: 0,
        });
        self.corrections_changed();
    }

    /// The corrections changed: the worker follows the game with them, the view shows them.
    fn corrections_changed(&mut self) {
        self.send(ToWorker::Corrections(self.corrections.clone()));
        self.rebuild_view();
    }

    /// Carries out what the player asked of the followed game.
    pub fn game_action(&mut self, action: GameAction) {
        match action {
            GameAction::Restore { piece, token } => self.restore_token(piece, token),
            GameAction::Dismiss(piece) => {
                self.follow.bonus.retain(|b| b.piece != piece);
                self.send(ToWorker::DismissBonus(piece));
            }
            GameAction::NewGame => {
                self.follow = FollowState {
                    journal: self.follow.journal.clone(),
                    ..FollowState::default()
                };
                self.send(ToWorker::NewGame);
            }
        }
    }

    /// Puts a vanished token back: the follower counts it from now on (in the worker), and
    /// the card on screen carries it as the player's correction, which sticks while the
    /// card stays in view.
    fn restore_token(&mut self, piece: u64, token: Token) {
        self.send(ToWorker::RestoreToken { piece, token });
        let Some(k) = self
            .follow
            .missing
            .iter()
            .position(|m| m.piece == piece && m.token == token)
        else {
            return;
        };
        let m = self.follow.missing.remove(k);
        let place = self
            .view
            .as_ref()
            .and_then(|v| v.place_of(m.city, m.side, &m.card, m.pos));
        if let Some(corners) = place {
            let mut c = self
                .corrections
                .at(&corners)
                .cloned()
                .unwrap_or(Correction {
                    corners,
                    ..Correction::default()
                });
            c.pinned.push(token);
            self.corrections.set(c);
            self.corrections_changed();
        }
    }

    fn drain_worker(&mut self) {
        let msgs: Vec<FromWorker> = match &self.link {
            Some(l) => l.rx.try_iter().collect(),
            None => Vec::new(),
        };
        for m in msgs {
            self.accept(m);
        }
        for m in self.saved_rx.try_iter().collect::<Vec<_>>() {
            self.message = Some(m);
        }
    }

    fn screenshot(&self, ctx: &egui::Context) {
        let path = report::stamped(
            &report::captures_dir(self.data_dir.as_deref()),
            "screenshot",
            "png",
        );
        let tx = self.saved_tx.clone();
        let saved = tr(self.lang(), "saved");
        let repaint = ctx.clone();
        ctx.send_viewport_cmd(egui::ViewportCommand::Screenshot(
            egui::ScreenshotCallback::new(move |img| {
                let m = match report::save_png(&path, &img) {
                    Ok(()) => format!("{saved}: {}", path.display()),
                    Err(e) => e,
                };
                let _ = tx.send(m);
                repaint.request_repaint();
            }),
        ));
    }

    fn save_report(&mut self) {
        let lang = self.lang();
        let Some(Some(Ok(r))) = self.view.as_ref().map(|v| &v.battle) else {
            self.message = Some(tr(lang, "no_city").to_string());
            return;
        };
        let unknown = self.view.as_ref().map_or(0, |v| v.layout.unknown.len());
        let md = report::battle_markdown(
            self.catalogue_in_force(),
            lang,
            r,
            unknown,
            self.corrections.all().len(),
        );
        let path = report::stamped(
            &report::captures_dir(self.data_dir.as_deref()),
            "battle",
            "md",
        );
        self.message = Some(match report::write(&path, md.as_bytes()) {
            Ok(()) => format!("{}: {}", tr(lang, "saved"), path.display()),
            Err(e) => e,
        });
    }

    fn open_wizard(&mut self) {
        let dir = self
            .data_dir
            .clone()
            .unwrap_or_else(|| PathBuf::from("tablelens-data"));
        self.wizard = Some(Wizard::new(&self.catalogue, dir));
    }

    fn set_paused(&mut self, p: bool) {
        self.paused = p;
        self.send(ToWorker::Pause(p));
    }

    fn shortcuts(&mut self, ctx: &egui::Context) {
        if ctx.egui_wants_keyboard_input() {
            return;
        }
        let pressed = |k: Key| ctx.input(|i| i.key_pressed(k));
        if pressed(Key::Space) {
            self.set_paused(!self.paused);
        }
        if pressed(Key::ArrowRight) {
            self.send(ToWorker::Step(1));
        }
        if pressed(Key::ArrowLeft) {
            self.send(ToWorker::Step(-1));
        }
        if pressed(Key::T) {
            self.settings.show_truth = !self.settings.show_truth;
        }
        if pressed(Key::L) {
            self.settings.show_labels = !self.settings.show_labels;
        }
        if pressed(Key::S) {
            self.screenshot(ctx);
        }
        if pressed(Key::R) {
            self.save_report();
        }
        if pressed(Key::E) && self.wizard.is_none() {
            self.open_wizard();
        }
        if pressed(Key::F1) {
            self.show_help = !self.show_help;
        }
        if pressed(Key::Escape) {
            self.editor = None;
            self.show_help = false;
        }
    }

    /// Draws the whole window.
    pub fn ui(&mut self, ui: &mut egui::Ui) {
        let ctx = ui.ctx().clone();
        self.drain_worker();
        self.shortcuts(&ctx);
        let lang = self.lang();
        if self.texture_stale {
            if let Some(s) = &self.seen {
                let img = &s.frame.image;
                let size = [img.width(), img.height()];
                let color =
                    egui::ColorImage::from_rgb([size[0] as usize, size[1] as usize], img.as_raw());
                match &mut self.texture {
                    Some((t, sz)) => {
                        t.set(color, egui::TextureOptions::LINEAR);
                        *sz = size;
                    }
                    None => {
                        let t = ctx.load_texture("frame", color, egui::TextureOptions::LINEAR);
                        self.texture = Some((t, size));
                    }
                }
            }
            self.texture_stale = false;
        }

        egui::Panel::top("source_bar").show(ui, |ui| self.source_bar(ui, lang));
        egui::Panel::bottom("status_bar").show(ui, |ui| self.status_bar(ui, lang));
        egui::Panel::right("battle")
            .resizable(true)
            .default_size(420.0)
            .show(ui, |ui| {
                egui::ScrollArea::vertical().show(ui, |ui| self.battle_panel(ui, lang));
            });
        egui::Panel::bottom("battle_log")
            .resizable(true)
            .default_size(190.0)
            .min_size(90.0)
            .show(ui, |ui| {
                egui::ScrollArea::vertical()
                    .auto_shrink([false, false])
                    .show(ui, |ui| self.log_panel(ui, lang));
            });
        egui::CentralPanel::default().show(ui, |ui| self.frame_panel(ui, lang));

        self.editor_window(&ctx, lang);
        self.wizard_window(&ctx, lang);
        if self.show_help {
            egui::Window::new(tr(lang, "shortcuts"))
                .collapsible(false)
                .show(&ctx, |ui| {
                    for line in tr(lang, "help_text").split(" · ") {
                        ui.label(line);
                    }
                });
        }
    }

    fn source_bar(&mut self, ui: &mut egui::Ui, lang: Lang) {
        ui.horizontal_wrapped(|ui| {
            ui.label(RichText::new("tablelens").strong().size(18.0));
            ui.separator();
            let before = self.settings.source;
            egui::ComboBox::from_label(tr(lang, "source"))
                .selected_text(source_name(lang, self.settings.source))
                .show_ui(ui, |ui| {
                    for k in [
                        SourceKind::Demo,
                        SourceKind::Camera,
                        SourceKind::Photo,
                        SourceKind::Folder,
                    ] {
                        ui.selectable_value(&mut self.settings.source, k, source_name(lang, k));
                    }
                });
            let mut reopen = before != self.settings.source
                && matches!(self.settings.source, SourceKind::Demo | SourceKind::Camera);
            match self.settings.source {
                SourceKind::Camera => {
                    let cam = self.settings.camera;
                    let name = self
                        .cameras
                        .iter()
                        .find(|c| c.index == cam)
                        .map(|c| c.name.clone())
                        .unwrap_or_else(|| {
                            if self.cameras.is_empty() {
                                tr(lang, "no_cameras").to_string()
                            } else {
                                format!("#{cam}")
                            }
                        });
                    egui::ComboBox::from_label(tr(lang, "camera"))
                        .selected_text(name)
                        .show_ui(ui, |ui| {
                            for c in &self.cameras {
                                if ui
                                    .selectable_value(&mut self.settings.camera, c.index, &c.name)
                                    .clicked()
                                {
                                    reopen = true;
                                }
                            }
                        });
                    let [w, h] = self.settings.resolution;
                    egui::ComboBox::from_label(tr(lang, "resolution"))
                        .selected_text(format!("{w}×{h}"))
                        .show_ui(ui, |ui| {
                            for r in RESOLUTIONS {
                                if ui
                                    .selectable_value(
                                        &mut self.settings.resolution,
                                        r,
                                        format!("{}×{}", r[0], r[1]),
                                    )
                                    .clicked()
                                {
                                    reopen = true;
                                }
                            }
                        });
                    if ui.button(tr(lang, "refresh")).clicked() {
                        self.send(ToWorker::ListCameras);
                    }
                }
                SourceKind::Photo | SourceKind::Folder => {
                    let field = if self.settings.source == SourceKind::Photo {
                        &mut self.settings.photo
                    } else {
                        &mut self.settings.folder
                    };
                    let l = ui.label(tr(lang, "path"));
                    let edit = ui
                        .add(
                            egui::TextEdit::singleline(field)
                                .hint_text(tr(lang, "path"))
                                .desired_width(260.0),
                        )
                        .labelled_by(l.id);
                    let enter = edit.lost_focus() && ui.input(|i| i.key_pressed(Key::Enter));
                    if ui.button(tr(lang, "open")).clicked() || enter {
                        reopen = true;
                    }
                }
                SourceKind::Demo => {}
            }
            if reopen {
                self.open_source();
            }
            ui.separator();
            let sequence = matches!(self.settings.source, SourceKind::Demo | SourceKind::Folder);
            if sequence {
                if ui
                    .button("<<")
                    .on_hover_text(tr(lang, "previous"))
                    .clicked()
                {
                    self.send(ToWorker::Step(-1));
                }
                let label = if self.paused { ">" } else { "||" };
                let hint = if self.paused {
                    tr(lang, "resume")
                } else {
                    tr(lang, "pause")
                };
                if ui.button(label).on_hover_text(hint).clicked() {
                    self.set_paused(!self.paused);
                }
                if ui.button(">>").on_hover_text(tr(lang, "next")).clicked() {
                    self.send(ToWorker::Step(1));
                }
                ui.separator();
            }
            ui.menu_button(tr(lang, "view"), |ui| {
                ui.checkbox(&mut self.settings.show_outlines, tr(lang, "show_outlines"));
                ui.checkbox(&mut self.settings.show_labels, tr(lang, "show_labels"));
                ui.checkbox(&mut self.settings.show_truth, tr(lang, "show_truth"));
                if ui
                    .checkbox(&mut self.settings.demo_truth, tr(lang, "demo_truth"))
                    .changed()
                {
                    self.send(ToWorker::DemoTruth(self.settings.demo_truth));
                    self.save_settings();
                }
            });
            ui.menu_button(tr(lang, "settings"), |ui| {
                ui.label(tr(lang, "language"));
                let mut changed = ui
                    .radio_value(
                        &mut self.settings.language,
                        None,
                        tr(lang, "system_language"),
                    )
                    .clicked();
                for l in Lang::ALL {
                    changed |= ui
                        .radio_value(&mut self.settings.language, Some(l), l.native_name())
                        .clicked();
                }
                ui.separator();
                ui.label(tr(lang, "step"));
                changed |= ui
                    .add(
                        egui::Slider::new(&mut self.settings.step_seconds, 1.0..=30.0).suffix(" s"),
                    )
                    .drag_stopped();
                if changed {
                    self.save_settings();
                }
            });
            if ui.button(tr(lang, "screenshot")).clicked() {
                self.screenshot(ui.ctx());
            }
            if ui.button(tr(lang, "report")).clicked() {
                self.save_report();
            }
            if ui.button(tr(lang, "enrol")).clicked() {
                self.open_wizard();
            }
            if ui
                .button("?")
                .on_hover_text(tr(lang, "shortcuts"))
                .clicked()
            {
                self.show_help = !self.show_help;
            }
        });
    }

    fn status_bar(&mut self, ui: &mut egui::Ui, lang: Lang) {
        ui.horizontal_wrapped(|ui| {
            match &self.status {
                Status::Starting => {
                    ui.spinner();
                    ui.label(tr(lang, "loading_vision"));
                }
                Status::Running => {
                    ui.label(RichText::new("•").color(panels::OUTPOST));
                }
                Status::Retrying(m) => {
                    ui.spinner();
                    ui.label(
                        RichText::new(format!("{}: {m}", tr(lang, "camera_lost")))
                            .color(panels::WARN),
                    );
                }
                Status::Failed(m) => {
                    ui.label(
                        RichText::new(format!("{}: {m}", tr(lang, "error"))).color(panels::MOLOCH),
                    );
                }
            }
            if let Some(s) = &self.seen {
                ui.label(&s.frame.label);
                if let Some((i, n)) = s.frame.position {
                    ui.label(format!("{} {}/{n}", tr(lang, "step"), i + 1));
                }
                ui.label(format!(
                    "{} {:.0} ms",
                    tr(lang, "analysis_ms"),
                    s.analysis_ms
                ));
                match &s.analysis {
                    Err(e) => {
                        ui.label(RichText::new(e).color(panels::MOLOCH));
                    }
                    Ok(a) if a.times.relit() => {
                        ui.label(RichText::new(tr(lang, "relit")).color(panels::WARN));
                    }
                    Ok(_) => {}
                }
                // The demo's camera is ours, not the player's to move.
                let small = s.analysis.as_ref().ok().and_then(|a| a.small_cards());
                if let Some(width) = small.filter(|_| !s.demo) {
                    let text = format!("{} ({width:.0} px)", tr(lang, "small_cards"));
                    ui.label(RichText::new(text).color(panels::WARN));
                }
            }
            if self.paused {
                ui.label(RichText::new(tr(lang, "pause")).color(panels::WARN));
            }
            if self.seen.as_ref().is_some_and(|s| s.demo) && self.settings.demo_truth {
                ui.label(RichText::new(tr(lang, "demo_truth_note")).color(panels::WARN));
            }
            if let Some(n) = &self.note {
                ui.separator();
                ui.label(RichText::new(n).small().weak());
            }
            if let Some(m) = &self.message {
                ui.separator();
                ui.label(RichText::new(m).small());
            }
        });
    }

    fn battle_panel(&mut self, ui: &mut egui::Ui, lang: Lang) {
        let cat = self.catalogue_in_force().clone();
        let action = game_panel::alerts(ui, &cat, lang, &self.follow);
        self.frame_battle(ui, &cat, lang);
        if let Some(a) = action {
            self.game_action(a);
        }
    }

    /// Under the frame: the battles of the followed game.
    fn log_panel(&mut self, ui: &mut egui::Ui, lang: Lang) {
        let cat = self.catalogue_in_force().clone();
        if let Some(a) = game_panel::battle_log(ui, &cat, lang, &self.follow) {
            self.game_action(a);
        }
    }

    /// The battle on the table in the frame shown: totals, outcome, every unit's points,
    /// what is wrong or uncertain, and the corrections in force.
    fn frame_battle(&mut self, ui: &mut egui::Ui, cat: &Catalogue, lang: Lang) {
        let Some(view) = self.view().cloned() else {
            ui.label(tr(lang, "waiting"));
            return;
        };
        panels::cities(ui, cat, lang, &view.cities);
        ui.separator();
        let mut clicked = None;
        match &view.battle {
            None => {
                ui.label(RichText::new(tr(lang, "no_city")).color(panels::WARN));
            }
            Some(Err(_)) => {
                ui.label(tr(lang, "no_battle"));
            }
            Some(Ok(r)) => {
                panels::outcome(ui, cat, lang, r);
                if self.settings.show_truth {
                    self.truth_line(ui, cat, lang);
                }
                ui.separator();
                if let Some((side, i)) = panels::breakdown(ui, cat, lang, r) {
                    clicked = view
                        .layout
                        .full_cities()
                        .get(r.city.index())
                        .and_then(|c| c.side(side).get(i).and_then(|u| u.corners));
                    if clicked.is_none() {
                        self.message = Some(format!(
                            "{}: {}",
                            component_name(cat, lang, &r.units_of(side)[i]),
                            tr(lang, "unknown")
                        ));
                    }
                }
            }
        }
        ui.separator();
        if let Some(place) = panels::findings(ui, cat, lang, &view) {
            clicked = Some(place);
        }
        if !self.corrections.all().is_empty() {
            ui.separator();
            ui.horizontal(|ui| {
                ui.label(format!(
                    "{}: {}",
                    tr(lang, "corrections"),
                    self.corrections.all().len()
                ));
                if ui.button(tr(lang, "clear_correction")).clicked() {
                    self.corrections.clear();
                    self.corrections_changed();
                }
            });
        }
        ui.label(RichText::new(tr(lang, "click_hint")).small().weak());
        if let Some(c) = clicked {
            self.open_editor(c);
        }
    }

    fn truth_line(&self, ui: &mut egui::Ui, cat: &Catalogue, lang: Lang) {
        let Some(truth) = self.seen.as_ref().and_then(|s| s.frame.truth.as_ref()) else {
            return;
        };
        if let Ok(t) = tablelens_engine::battle(cat, truth) {
            ui.label(
                RichText::new(format!(
                    "{}: {}",
                    tr(lang, "truth"),
                    report::verdict(lang, &t)
                ))
                .italics(),
            );
        }
    }

    fn frame_panel(&mut self, ui: &mut egui::Ui, lang: Lang) {
        let (Some((texture, size)), Some(seen)) = (&self.texture, &self.seen) else {
            ui.centered_and_justified(|ui| {
                ui.spinner();
                ui.label(tr(lang, "waiting"));
            });
            return;
        };
        let pieces = match &seen.analysis {
            Ok(a) => a.pieces.as_slice(),
            Err(_) => &[],
        };
        let clicked = overlay::show(
            ui,
            texture,
            *size,
            self.catalogue_in_force(),
            lang,
            pieces,
            self.view.as_ref(),
            seen.frame.truth.as_ref(),
            &self.corrections,
            self.editor.as_ref().map(|e| &e.corners),
            OverlayOptions {
                outlines: self.settings.show_outlines,
                labels: self.settings.show_labels,
                truth: self.settings.show_truth,
            },
        );
        if let Some(c) = clicked {
            self.open_editor(c);
        }
    }

    fn editor_window(&mut self, ctx: &egui::Context, lang: Lang) {
        let cat = self.catalogue_in_force().clone();
        let Some(editor) = &mut self.editor else {
            return;
        };
        let mut apply = false;
        let mut close = false;
        let mut forget = false;
        egui::Window::new(tr(lang, "correct"))
            .collapsible(false)
            .resizable(false)
            .show(ctx, |ui| {
                let seen = if editor.seen.is_empty() {
                    tr(lang, "unknown").to_string()
                } else {
                    component_name(&cat, lang, &editor.seen)
                };
                let seen = if editor.named {
                    seen
                } else {
                    format!("? ({seen})")
                };
                ui.label(format!("{}: {seen}", tr(lang, "vision")));
                let shown = editor
                    .identity
                    .as_deref()
                    .map(|id| component_name(&cat, lang, id))
                    .unwrap_or_else(|| format!("{} ({})", seen, tr(lang, "as_seen")));
                egui::ComboBox::from_label(tr(lang, "identity"))
                    .selected_text(shown)
                    .height(400.0)
                    .show_ui(ui, |ui| {
                        ui.selectable_value(&mut editor.identity, None, tr(lang, "as_seen"));
                        // The cards the vision found most like a place left unread, first.
                        for id in &editor.likely {
                            let name = component_name(&cat, lang, id);
                            let name = format!("{name} ({})", tr(lang, "likely"));
                            ui.selectable_value(&mut editor.identity, Some(id.clone()), name);
                        }
                        if !editor.likely.is_empty() {
                            ui.separator();
                        }
                        // Every other component, each once.
                        let others = cat.component_ids().into_iter();
                        for id in others.filter(|id| !editor.likely.contains(id)) {
                            let name = component_name(&cat, lang, &id);
                            ui.selectable_value(&mut editor.identity, Some(id), name);
                        }
                    });
                let now = editor
                    .identity
                    .clone()
                    .unwrap_or_else(|| editor.seen.clone());
                editor.is_unit = cat.card(&now).is_some_and(|c| c.kind.is_unit());
                if editor.is_unit {
                    ui.label(tr(lang, "tokens"));
                    ui.horizontal(|ui| {
                        for (i, t) in Token::ALL.iter().enumerate() {
                            let l = ui.label(t.as_str());
                            ui.add(egui::DragValue::new(&mut editor.tokens[i]).range(0..=6))
                                .labelled_by(l.id);
                        }
                    });
                    ui.checkbox(&mut editor.netted, tr(lang, "netted"));
                }
                ui.horizontal(|ui| {
                    apply = ui.button(tr(lang, "apply")).clicked();
                    forget = ui.button(tr(lang, "clear_correction")).clicked();
                    close = ui.button(tr(lang, "close")).clicked();
                });
            });
        if apply {
            self.apply_editor();
        } else if forget {
            let c = editor.corners;
            self.corrections.forget(&c);
            self.editor = None;
            self.corrections_changed();
        } else if close {
            self.editor = None;
        }
    }

    fn wizard_window(&mut self, ctx: &egui::Context, lang: Lang) {
        let cat = self.catalogue.clone();
        let Some(w) = &mut self.wizard else { return };
        let live = self.seen.as_ref().and_then(|s| {
            s.analysis
                .as_ref()
                .ok()
                .map(|a| (s.frame.image.as_ref(), a))
        });
        let mut outcome = wizard::Outcome::Open;
        egui::Window::new(tr(lang, "wizard_title"))
            .collapsible(false)
            .default_width(520.0)
            .show(ctx, |ui| outcome = w.ui(ui, &cat, lang, live));
        match outcome {
            wizard::Outcome::Open => {}
            wizard::Outcome::Close => self.wizard = None,
            wizard::Outcome::Saved => {
                let (c, e) = load_catalogue(self.catalogue_file.as_deref());
                self.catalogue = c;
                if let Some(e) = e {
                    self.message = Some(e);
                }
                self.send(ToWorker::ReloadGallery);
                self.rebuild_view();
            }
        }
    }
}

fn source_name(lang: Lang, k: SourceKind) -> &'static str {
    match k {
        SourceKind::Demo => tr(lang, "demo"),
        SourceKind::Camera => tr(lang, "camera"),
        SourceKind::Photo => tr(lang, "photo"),
        SourceKind::Folder => tr(lang, "folder"),
    }
}

/// The cards of a side's units in a battle result.
trait UnitsOf {
    fn units_of(&self, side: Side) -> Vec<String>;
}

impl UnitsOf for tablelens_engine::BattleResult {
    fn units_of(&self, side: Side) -> Vec<String> {
        let st = match side {
            Side::Moloch => &self.moloch,
            Side::Outpost => &self.outpost,
        };
        st.units.iter().map(|u| u.card.clone()).collect()
    }
}

impl eframe::App for TableLensApp {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        TableLensApp::ui(self, ui);
    }

    fn on_exit(&mut self, _gl: Option<&eframe::glow::Context>) {
        self.save_settings();
        self.send(ToWorker::Shutdown);
    }
}
