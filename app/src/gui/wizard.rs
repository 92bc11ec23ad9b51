//! The enrolment wizard: the player shows tablelens each of their pieces (from the camera,
//! a picture, or the printed proxy face), confirms what it is and its printed strength,
//! then confirms each city's slots and districts. Saving writes the gallery
//! (`gallery.json`) and the confirmed values (`catalogue.toml`) into the data directory,
//! where the app and the command line find them.

use super::i18n::{city_name, component_name, tr, Lang};
use eframe::egui::{self, RichText};
use image::RgbImage;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use tablelens_engine::catalogue::{CityOverride, Overrides};
use tablelens_engine::{Catalogue, CityId, Kind};
use tablelens_vision::perceive::identify::{class_of, crop, entries_of, extras_of, face_crop};
use tablelens_vision::perceive::{embedder_fingerprint, Analysis, Embedder, Gallery};
use tablelens_vision::render::distractors::deck_backs;
use tablelens_vision::render::face;
use tablelens_vision::CARD_BACK;

/// One piece to enrol.
#[derive(Debug, Clone)]
pub struct Item {
    /// The component id the wizard expects.
    pub expected: String,
    /// The id the player confirmed (may differ from `expected`).
    pub id: String,
    /// Its crop, once captured.
    pub crop: Option<RgbImage>,
    /// The printed strength, for units.
    pub strength: Option<i32>,
    /// Whether the player confirmed it.
    pub confirmed: bool,
}

/// One city's printed values.
#[derive(Debug, Clone, PartialEq)]
pub struct CityDraft {
    /// The city.
    pub id: CityId,
    /// Moloch slots.
    pub moloch: u32,
    /// Outpost slots.
    pub outpost: u32,
    /// Districts.
    pub districts: u32,
}

/// Where the wizard is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// What it is about.
    Intro,
    /// Piece `n` of the list.
    Piece(usize),
    /// The cities' values.
    Cities,
    /// Saved.
    Done,
}

/// What the window should do after the wizard drew itself.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// Keep it open.
    Open,
    /// Close it.
    Close,
    /// Files were saved: reload the gallery and the catalogue.
    Saved,
}

/// The wizard's state.
#[derive(Debug, Clone)]
pub struct Wizard {
    /// Where it is.
    pub step: Step,
    /// Every piece, in catalogue order.
    pub items: Vec<Item>,
    /// The five cities.
    pub cities: Vec<CityDraft>,
    /// Where to save.
    pub dir: PathBuf,
    /// The path typed for "load picture".
    pub picture_path: String,
    /// The last message (an error, or what was saved).
    pub message: Option<String>,
}

impl Wizard {
    /// A wizard over every component of the catalogue, saving into `dir`.
    pub fn new(cat: &Catalogue, dir: PathBuf) -> Wizard {
        let items = cat
            .component_ids()
            .into_iter()
            .filter(|id| cat.card(id).is_none_or(|c| c.kind != Kind::Instant))
            .map(|id| {
                let strength = cat
                    .card(&id)
                    .filter(|c| c.kind.is_unit())
                    .map(|c| c.strength.unwrap_or(0));
                Item {
                    expected: id.clone(),
                    id,
                    crop: None,
                    strength,
                    confirmed: false,
                }
            })
            // Last, the backs of the two decks, so that face-down cards are known too.
            .chain([0, 1].map(|_| Item {
                expected: CARD_BACK.to_string(),
                id: CARD_BACK.to_string(),
                crop: None,
                strength: None,
                confirmed: false,
            }))
            .collect();
        let cities = cat
            .cities()
            .iter()
            .map(|c| CityDraft {
                id: c.id,
                moloch: c.moloch_slots.value,
                outpost: c.outpost_slots.value,
                districts: c.districts.value,
            })
            .collect();
        Wizard {
            step: Step::Intro,
            items,
            cities,
            dir,
            picture_path: String::new(),
            message: None,
        }
    }

    /// How many pieces are confirmed.
    pub fn done(&self) -> usize {
        self.items.iter().filter(|i| i.confirmed).count()
    }

    /// Takes the piece from the camera: the largest detection of the piece's kind.
    pub fn capture(&mut self, cat: &Catalogue, n: usize, frame: &RgbImage, analysis: &Analysis) {
        let class = class_of(cat, &self.items[n].expected);
        let best = analysis
            .pieces
            .iter()
            .filter(|p| p.class == class)
            .max_by(|a, b| extent(&a.corners).total_cmp(&extent(&b.corners)));
        match best {
            Some(p) => {
                self.items[n].crop = Some(crop(frame, class, &p.corners));
                self.message = None;
            }
            None => self.message = Some(tr_en("no_capture")),
        }
    }

    /// Takes the piece from a picture file (the piece alone, upright, cropped to it).
    pub fn load_picture(&mut self, cat: &Catalogue, n: usize, path: &Path) {
        match tablelens_vision::photo::open(path) {
            Ok(img) => {
                let class = class_of(cat, &self.items[n].expected);
                self.items[n].crop = Some(face_crop(&img.to_rgb8(), class));
                self.message = None;
            }
            Err(e) => self.message = Some(format!("{}: {e}", path.display())),
        }
    }

    /// Takes the piece from its printed proxy face (for a card back, the proxy deck's
    /// backs, Moloch's then Outpost's).
    pub fn use_proxy(&mut self, cat: &Catalogue, n: usize) {
        let id = self.items[n].expected.clone();
        let proxy = if id == CARD_BACK {
            let earlier = self.items[..n]
                .iter()
                .filter(|i| i.expected == CARD_BACK)
                .count();
            let [moloch, outpost] = deck_backs(0);
            Some(if earlier == 0 { moloch } else { outpost })
        } else {
            face(cat, &id, 0)
        };
        if let Some(img) = proxy {
            self.items[n].crop = Some(face_crop(&img, class_of(cat, &id)));
        }
    }

    /// Writes `gallery.json` (merged with the pieces enrolled before) and `catalogue.toml`
    /// (merged with the values confirmed before). Returns what was written.
    pub fn save(&self, cat: &Catalogue) -> Result<String, String> {
        std::fs::create_dir_all(&self.dir)
            .map_err(|e| format!("cannot create {}: {e}", self.dir.display()))?;
        let captured: Vec<&Item> = self
            .items
            .iter()
            .filter(|i| i.confirmed && i.crop.is_some())
            .collect();
        let gallery_path = self.dir.join("gallery.json");
        let mut gallery = Gallery::load(&gallery_path)
            .ok()
            .filter(|g| g.model == embedder_fingerprint())
            .unwrap_or_else(|| Gallery {
                model: embedder_fingerprint(),
                ..Gallery::default()
            });
        if !captured.is_empty() {
            let embedder = Embedder::builtin().map_err(|e| e.to_string())?;
            let crops = captured
                .iter()
                .filter_map(|i| {
                    let crop = i.crop.clone()?;
                    Some((i.id.clone(), class_of(cat, &i.id), crop))
                })
                .collect();
            let entries = entries_of(cat, &embedder, crops).map_err(|e| e.to_string())?;
            gallery
                .entries
                .retain(|e| !captured.iter().any(|i| i.id == e.id));
            gallery.entries.extend(entries);
            let views: Vec<(String, &RgbImage)> = captured
                .iter()
                .filter_map(|i| Some((i.id.clone(), i.crop.as_ref()?)))
                .collect();
            let extras = extras_of(cat, &views).map_err(|e| e.to_string())?;
            let ids: Vec<&str> = captured.iter().map(|i| i.id.as_str()).collect();
            gallery.replace_extras(&ids, extras);
            gallery.save(&gallery_path).map_err(|e| e.to_string())?;
        }
        let toml_path = self.dir.join("catalogue.toml");
        let mut overrides: Overrides = std::fs::read_to_string(&toml_path)
            .ok()
            .and_then(|t| toml::from_str(&t).ok())
            .unwrap_or_default();
        for item in self.items.iter().filter(|i| i.confirmed) {
            if let Some(s) = item.strength {
                if cat.card(&item.id).is_some_and(|c| c.kind.is_unit()) {
                    overrides.cards.entry(item.id.clone()).or_default().strength = Some(s);
                }
            }
        }
        let mut cities: BTreeMap<String, CityOverride> = overrides.cities;
        for c in &self.cities {
            let o = cities.entry(c.id.as_str().to_string()).or_default();
            o.moloch_slots = Some(c.moloch);
            o.outpost_slots = Some(c.outpost);
            o.districts = Some(c.districts);
        }
        overrides.cities = cities;
        let text = toml::to_string(&overrides).map_err(|e| format!("catalogue.toml: {e}"))?;
        // Refuse values the catalogue itself would refuse, before writing them.
        cat.clone()
            .apply_overrides(&text)
            .map_err(|e| format!("catalogue.toml: {e}"))?;
        std::fs::write(&toml_path, text)
            .map_err(|e| format!("cannot write {}: {e}", toml_path.display()))?;
        Ok(format!(
            "{} ({} {}), {}",
            gallery_path.display(),
            captured.len(),
            tr_en("enrolled"),
            toml_path.display()
        ))
    }

    /// Draws the wizard. `live` is the latest frame and analysis, for capturing.
    pub fn ui(
        &mut self,
        ui: &mut egui::Ui,
        cat: &Catalogue,
        lang: Lang,
        live: Option<(&RgbImage, &Analysis)>,
    ) -> Outcome {
        let total = self.items.len();
        let progress = self.done() as f32 / total.max(1) as f32;
        ui.add(egui::ProgressBar::new(progress).text(format!(
            "{} {} / {total}",
            tr(lang, "enrolled"),
            self.done()
        )));
        ui.separator();
        let mut outcome = Outcome::Open;
        match self.step {
            Step::Intro => {
                ui.label(tr(lang, "wizard_intro"));
                ui.horizontal(|ui| {
                    if ui.button(tr(lang, "start")).clicked() {
                        self.step = Step::Piece(0);
                    }
                    if ui.button(tr(lang, "city_slots")).clicked() {
                        self.step = Step::Cities;
                    }
                    if ui.button(tr(lang, "cancel")).clicked() {
                        outcome = Outcome::Close;
                    }
                });
            }
            Step::Piece(n) => self.piece_ui(ui, cat, lang, n, live),
            Step::Cities => {
                ui.heading(tr(lang, "city_slots"));
                egui::Grid::new("wizard_cities")
                    .num_columns(4)
                    .show(ui, |ui| {
                        ui.label("");
                        ui.label(tr(lang, "moloch_slots"));
                        ui.label(tr(lang, "outpost_slots"));
                        ui.label(tr(lang, "districts"));
                        ui.end_row();
                        for c in &mut self.cities {
                            let l = ui.label(city_name(cat, lang, c.id));
                            ui.add(egui::DragValue::new(&mut c.moloch).range(0..=8))
                                .labelled_by(l.id);
                            ui.add(egui::DragValue::new(&mut c.outpost).range(0..=8))
                                .labelled_by(l.id);
                            ui.add(egui::DragValue::new(&mut c.districts).range(1..=6))
                                .labelled_by(l.id);
                            ui.end_row();
                        }
                    });
                ui.horizontal(|ui| {
                    if ui.button(tr(lang, "back")).clicked() {
                        self.step = Step::Piece(total.saturating_sub(1));
                    }
                    if ui.button(tr(lang, "save")).clicked() {
                        match self.save(cat) {
                            Ok(m) => {
                                self.message = Some(m);
                                self.step = Step::Done;
                                outcome = Outcome::Saved;
                            }
                            Err(e) => self.message = Some(e),
                        }
                    }
                });
            }
            Step::Done => {
                ui.label(RichText::new(tr(lang, "wizard_done")).strong());
                if ui.button(tr(lang, "close")).clicked() {
                    outcome = Outcome::Close;
                }
            }
        }
        if let Some(m) = &self.message {
            ui.separator();
            ui.label(RichText::new(m).small());
        }
        outcome
    }

    fn piece_ui(
        &mut self,
        ui: &mut egui::Ui,
        cat: &Catalogue,
        lang: Lang,
        n: usize,
        live: Option<(&RgbImage, &Analysis)>,
    ) {
        let total = self.items.len();
        let Some(item) = self.items.get(n) else {
            self.step = Step::Cities;
            return;
        };
        ui.label(
            RichText::new(format!(
                "{} {} / {total}: {}",
                tr(lang, "piece"),
                n + 1,
                component_name(cat, lang, &item.expected)
            ))
            .heading(),
        );
        ui.label(if item.crop.is_some() {
            format!("[x] {}", tr(lang, "capture"))
        } else {
            tr(lang, "no_capture").to_string()
        });
        ui.horizontal(|ui| {
            if ui
                .add_enabled(live.is_some(), egui::Button::new(tr(lang, "capture")))
                .clicked()
            {
                if let Some((frame, analysis)) = live {
                    self.capture(cat, n, frame, analysis);
                }
            }
            if ui.button(tr(lang, "use_proxy")).clicked() {
                self.use_proxy(cat, n);
            }
        });
        ui.horizontal(|ui| {
            let l = ui.label(tr(lang, "path"));
            ui.text_edit_singleline(&mut self.picture_path)
                .labelled_by(l.id);
            if ui.button(tr(lang, "load_picture")).clicked() {
                let p = PathBuf::from(self.picture_path.trim());
                self.load_picture(cat, n, &p);
            }
        });
        let item = &mut self.items[n];
        egui::ComboBox::from_label(tr(lang, "identity"))
            .selected_text(component_name(cat, lang, &item.id))
            .show_ui(ui, |ui| {
                for id in cat.component_ids() {
                    let name = component_name(cat, lang, &id);
                    ui.selectable_value(&mut item.id, id, name);
                }
            });
        if let Some(s) = &mut item.strength {
            ui.horizontal(|ui| {
                let l = ui.label(tr(lang, "printed_strength"));
                ui.add(egui::DragValue::new(s).range(0..=12))
                    .labelled_by(l.id);
            });
        }
        ui.horizontal(|ui| {
            if ui.button(tr(lang, "back")).clicked() {
                self.step = if n == 0 {
                    Step::Intro
                } else {
                    Step::Piece(n - 1)
                };
            }
            let can_confirm = self.items[n].crop.is_some();
            if ui
                .add_enabled(can_confirm, egui::Button::new(tr(lang, "confirm")))
                .clicked()
            {
                self.items[n].confirmed = true;
                self.step = next(n, total);
            }
            if ui.button(tr(lang, "skip")).clicked() {
                self.step = next(n, total);
            }
            if ui.button(tr(lang, "city_slots")).clicked() {
                self.step = Step::Cities;
            }
        });
    }
}

fn next(n: usize, total: usize) -> Step {
    if n + 1 < total {
        Step::Piece(n + 1)
    } else {
        Step::Cities
    }
}

fn extent(c: &[[f32; 2]; 4]) -> f32 {
    let xs = c.iter().map(|p| p[0]);
    let ys = c.iter().map(|p| p[1]);
    let w = xs.clone().fold(f32::MIN, f32::max) - xs.fold(f32::MAX, f32::min);
    let h = ys.clone().fold(f32::MIN, f32::max) - ys.fold(f32::MAX, f32::min);
    w * h
}

fn tr_en(key: &'static str) -> String {
    tr(Lang::En, key).to_string()
}
