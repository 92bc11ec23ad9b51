//! Scoring the vision against rendered scenes whose truth is known: per stage accuracy and
//! time, as `tablelens eval` reports it.

use super::assemble::Piece;
use super::close_calls;
use super::conditions::{self, ConditionBands, SceneConditions};
use super::{Analysis, PieceClass, StageTimes};
use serde::Serialize;
use std::collections::BTreeMap;
use tablelens_engine::{CityLayout, Corners, Layout, Side};

/// One truth piece: its class, component id and corners.
#[derive(Debug, Clone)]
pub struct TruthPiece {
    /// How it shows.
    pub class: PieceClass,
    /// Component id.
    pub id: String,
    /// Where it lies.
    pub corners: Corners,
}

/// Every piece of a truth layout that carries corners.
pub fn truth_pieces(truth: &Layout) -> Vec<TruthPiece> {
    let mut out = Vec::new();
    for c in &truth.cities {
        if let Some(k) = c.corners {
            let id = c.id.face_id(c.destroyed);
            out.push(TruthPiece {
                class: PieceClass::Card,
                id,
                corners: k,
            });
        }
        for m in &c.markers {
            if let Some(k) = m.corners {
                out.push(TruthPiece {
                    class: PieceClass::Small,
                    id: m.kind.clone(),
                    corners: k,
                });
            }
        }
        for u in c.moloch.iter().chain(&c.outpost) {
            if let Some(k) = u.corners {
                out.push(TruthPiece {
                    class: PieceClass::Card,
                    id: u.card.clone(),
                    corners: k,
                });
            }
            if let Some(m) = &u.module {
                if let Some(k) = m.corners {
                    out.push(TruthPiece {
                        class: PieceClass::Strip,
                        id: m.card.clone(),
                        corners: k,
                    });
                }
            }
            for (t, k) in u.tokens.iter().zip(&u.token_corners) {
                out.push(TruthPiece {
                    class: PieceClass::Small,
                    id: t.component_id().to_string(),
                    corners: *k,
                });
            }
        }
    }
    out
}

fn centre(c: &Corners) -> [f32; 2] {
    [
        c.iter().map(|p| p[0]).sum::<f32>() / 4.0,
        c.iter().map(|p| p[1]).sum::<f32>() / 4.0,
    ]
}

/// Counts for one stage and class.
#[derive(Debug, Clone, Copy, Default, Serialize)]
pub struct Counts {
    /// Truth pieces.
    pub truth: usize,
    /// Detections.
    pub found: usize,
    /// Truth pieces matched by a detection.
    pub matched: usize,
    /// Matched pieces named right.
    pub named_right: usize,
    /// Matched pieces named wrong (not unknown).
    pub named_wrong: usize,
    /// Of the pieces named right, those read by a narrow margin ([`close_calls`]).
    pub doubted_right: usize,
    /// Of the pieces named wrong, those read by a narrow margin ([`close_calls`]).
    pub doubted_wrong: usize,
}

/// What one scene scored.
#[derive(Debug, Clone, Default, Serialize)]
pub struct SceneScore {
    /// Per detection class.
    pub classes: BTreeMap<String, Counts>,
    /// Truth units placed in the right city and side.
    pub units_placed: usize,
    /// Truth units.
    pub units: usize,
    /// Truth modules found under the right unit.
    pub modules_right: usize,
    /// Truth modules.
    pub modules: usize,
    /// Truth tokens found on the right unit.
    pub tokens_right: usize,
    /// Truth tokens.
    pub tokens: usize,
    /// Cities whose state (destroyed, markers) is right.
    pub cities_right: usize,
    /// Truth cities.
    pub cities: usize,
    /// The whole layout is exactly right.
    pub exact: bool,
    /// Why the layout is not exactly right: each kind of fault found, once.
    pub faults: std::collections::BTreeSet<Fault>,
    /// Wrong identifications, as `truth -> seen`.
    pub confusions: Vec<String>,
    /// How the scene was seen, read off the truth's corners ([`conditions::of`]); `None`
    /// where the truth has none.
    pub conditions: Option<SceneConditions>,
    /// The layout tells the player to look again: it lists a piece read by a narrow
    /// margin (`doubts`), one not identified (`unknown`) or a place in a column where a card
    /// may lie unread (`missing`).
    pub flagged: bool,
}

/// Scores one analysis against its truth.
pub fn score(analysis: &Analysis, truth: &Layout) -> SceneScore {
    let mut s = SceneScore {
        conditions: conditions::of(truth),
        flagged: !analysis.layout.doubts.is_empty()
            || !analysis.layout.unknown.is_empty()
            || !analysis.layout.missing.is_empty(),
        ..SceneScore::default()
    };
    let tp = truth_pieces(truth);
    let mut used = vec![false; analysis.pieces.len()];
    for class in PieceClass::ALL {
        let name = format!("{class:?}").to_lowercase();
        let mut counts = Counts {
            truth: tp.iter().filter(|t| t.class == class).count(),
            found: analysis.pieces.iter().filter(|p| p.class == class).count(),
            ..Counts::default()
        };
        for t in tp.iter().filter(|t| t.class == class) {
            let c = centre(&t.corners);
            let tol = 0.35 * conditions::narrowest_side(&t.corners);
            let best = analysis
                .pieces
                .iter()
                .enumerate()
                .filter(|(i, p)| !used[*i] && p.class == class)
                .map(|(i, p)| {
                    let pc = centre(&p.corners);
                    (i, ((pc[0] - c[0]).powi(2) + (pc[1] - c[1]).powi(2)).sqrt())
                })
                .filter(|(_, d)| *d < tol)
                .min_by(|a, b| a.1.total_cmp(&b.1));
            if let Some((i, _)) = best {
                used[i] = true;
                counts.matched += 1;
                let p: &Piece = &analysis.pieces[i];
                let doubted = usize::from(close_calls::doubt(p).is_some());
                match &p.id {
                    Some(id) if *id == t.id => {
                        counts.named_right += 1;
                        counts.doubted_right += doubted;
                    }
                    Some(id) => {
                        counts.named_wrong += 1;
                        counts.doubted_wrong += doubted;
                        s.confusions.push(format!("{} -> {id}", t.id));
                    }
                    None => s
                        .confusions
                        .push(format!("{} -> unknown ({})", t.id, p.best)),
                }
            }
        }
        s.classes.insert(name, counts);
    }
    layout_scores(&analysis.layout, truth, &mut s);
    s
}

fn unit_key(u: &tablelens_engine::Unit) -> (String, Option<String>, Vec<String>) {
    let mut tokens: Vec<String> = u.tokens.iter().map(|t| t.as_str().to_string()).collect();
    tokens.sort();
    (
        u.card.clone(),
        u.module.as_ref().map(|m| m.card.clone()),
        tokens,
    )
}

fn city_state(c: &CityLayout) -> (bool, u32, bool, bool, bool) {
    (
        c.destroyed,
        c.districts_destroyed,
        c.battle_marker,
        c.feature_used,
        c.extra_district,
    )
}

/// Scores a layout against the truth: units, modules, tokens and city states (no
/// detection figures).
pub fn compare_layouts(seen: &Layout, truth: &Layout) -> SceneScore {
    let mut s = SceneScore::default();
    layout_scores(seen, truth, &mut s);
    s
}

fn layout_scores(seen: &Layout, truth: &Layout, s: &mut SceneScore) {
    let faults = &mut s.faults;
    if seen.cities.len() != truth.cities.len() {
        faults.insert(Fault::CityCount);
    }
    if !seen.unknown.is_empty() {
        faults.insert(Fault::UnknownLeft);
    }
    for tc in &truth.cities {
        s.cities += 1;
        let sc = seen.cities.iter().find(|c| c.id == tc.id);
        match sc {
            Some(c) if city_state(c) == city_state(tc) => s.cities_right += 1,
            Some(_) => {
                faults.insert(Fault::CityState);
            }
            None => {
                faults.insert(Fault::CityMissed);
            }
        }
        for side in [Side::Moloch, Side::Outpost] {
            let mut pool: Vec<&tablelens_engine::Unit> = sc
                .map(|c| c.side(side).iter().collect())
                .unwrap_or_default();
            let want = tc.side(side);
            for u in want {
                s.units += 1;
                s.modules += usize::from(u.module.is_some());
                s.tokens += u.tokens.len();
                let Some(k) = pool.iter().position(|p| p.card == u.card) else {
                    faults.insert(Fault::UnitMissed);
                    continue;
                };
                let p = pool.remove(k);
                s.units_placed += 1;
                if u.module.is_some()
                    && p.module.as_ref().map(|m| &m.card) == u.module.as_ref().map(|m| &m.card)
                {
                    s.modules_right += 1;
                }
                let mut have: Vec<_> = p.tokens.clone();
                for t in &u.tokens {
                    if let Some(i) = have.iter().position(|h| h == t) {
                        have.remove(i);
                        s.tokens_right += 1;
                    }
                }
                let (_, seen_module, seen_tokens) = unit_key(p);
                let (_, want_module, want_tokens) = unit_key(u);
                if seen_module != want_module {
                    faults.insert(Fault::Module);
                }
                if seen_tokens != want_tokens {
                    faults.insert(Fault::Tokens);
                }
            }
            if !pool.is_empty() {
                faults.insert(Fault::UnitExtra);
            }
        }
    }
    s.exact = faults.is_empty();
}

/// A kind of fault that keeps a layout from being exactly right.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Fault {
    /// More or fewer cities than the truth.
    CityCount,
    /// A truth city is not in the layout.
    CityMissed,
    /// A city's state (destroyed, districts, battle marker, feature, extra district) is wrong.
    CityState,
    /// A truth unit is not in its city and side.
    UnitMissed,
    /// A unit that is not in the truth sits in a city and side.
    UnitExtra,
    /// A placed unit has the wrong module, or a module it lacks, or misses its own.
    Module,
    /// A placed unit has the wrong tokens.
    Tokens,
    /// Pieces were left unplaced.
    UnknownLeft,
}

impl Fault {
    /// Every fault, in report order.
    pub const ALL: [Fault; 8] = [
        Fault::CityCount,
        Fault::CityMissed,
        Fault::CityState,
        Fault::UnitMissed,
        Fault::UnitExtra,
        Fault::Module,
        Fault::Tokens,
        Fault::UnknownLeft,
    ];

    /// A short name for reports.
    pub fn name(self) -> &'static str {
        match self {
            Fault::CityCount => "city count",
            Fault::CityMissed => "city missed",
            Fault::CityState => "city state",
            Fault::UnitMissed => "unit missed",
            Fault::UnitExtra => "unit extra",
            Fault::Module => "module",
            Fault::Tokens => "tokens",
            Fault::UnknownLeft => "unplaced pieces",
        }
    }
}

/// Totals over many scenes, as `tablelens eval` prints them.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Report {
    /// Scenes scored.
    pub scenes: usize,
    /// Per detection class: recall, precision and identity top-1.
    pub detection: BTreeMap<String, ClassReport>,
    /// Identity top-1 over matched cards, strips and small pieces together.
    pub identity_top1: f64,
    /// Share of truth tokens found on the right unit.
    pub token_accuracy: f64,
    /// Share of truth units in the right city and side.
    pub unit_placement: f64,
    /// Share of truth modules under the right unit.
    pub module_accuracy: f64,
    /// Share of cities whose state is right.
    pub city_state_accuracy: f64,
    /// Share of scenes whose whole layout is exactly right.
    pub layout_exact: f64,
    /// Median milliseconds per stage.
    pub median_ms: StageTimes,
    /// Median milliseconds for the whole analysis.
    pub median_total_ms: f64,
    /// Scenes lit too far from the enrolled pictures' light (in colour or brightness)
    /// that were analysed again with the light taken out ([`super::light::Light::relit`]).
    pub relit: usize,
    /// The most frequent confusions.
    pub confusions: Vec<(String, usize)>,
    /// For each kind of fault, the scenes it kept from being exact; and, apart, the scenes it
    /// alone kept from being exact.
    pub faults: Vec<FaultCount>,
    /// Each scene that was not exactly right, in the order scored, with its faults.
    pub not_exact: Vec<NotExact>,
    /// Layouts exact by band of the scenes' conditions, read off the truth: how large the
    /// cards and tokens were in the frame, how steeply the table was seen
    /// ([`conditions::bands`]).
    pub by_condition: Vec<ConditionBands>,
    /// How well the layouts' doubts, unknown pieces and missing cards point the player at
    /// what was misread.
    pub close_calls: CloseCalls,
}

/// How well the doubts of the layouts ([`close_calls`]), their pieces not identified and
/// their missing cards ([`super::missing_cards`]) point the player at what was misread: a
/// wrong layout that lists none of them is a silent error; a right one that lists some asks
/// the player to look for nothing.
#[derive(Debug, Clone, Copy, Default, Serialize)]
pub struct CloseCalls {
    /// Scenes not exactly right.
    pub not_exact: usize,
    /// Of them, those whose layout lists a doubt, a piece not identified or a missing card.
    pub not_exact_flagged: usize,
    /// Scenes exactly right.
    pub exact: usize,
    /// Of them, those whose layout lists a doubt, a piece not identified or a missing card.
    pub exact_flagged: usize,
    /// Pieces named wrong (matched to the truth), and of them those read by a narrow margin.
    pub named_wrong: usize,
    /// Of the pieces named wrong, those read by a narrow margin.
    pub named_wrong_doubted: usize,
    /// Pieces named right.
    pub named_right: usize,
    /// Of the pieces named right, those read by a narrow margin.
    pub named_right_doubted: usize,
}

/// A scene whose layout was not exactly right, and why.
#[derive(Debug, Clone, Serialize)]
pub struct NotExact {
    /// The scene's name as given to [`report`] (its picture's file name in `tablelens
    /// eval`), or its place in the order scored when no names were given.
    pub scene: String,
    /// What kept it from being exact.
    pub faults: Vec<Fault>,
    /// Its wrong identifications, as `truth -> seen`.
    pub confusions: Vec<String>,
}

/// How many scenes one kind of fault spoiled.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct FaultCount {
    /// The fault.
    pub fault: Fault,
    /// Scenes with it.
    pub scenes: usize,
    /// Scenes with no other fault.
    pub alone: usize,
}

/// Detection and identification figures of one class.
#[derive(Debug, Clone, Copy, Default, Serialize)]
pub struct ClassReport {
    /// Matched truth pieces / truth pieces.
    pub recall: f64,
    /// Matched truth pieces / detections.
    pub precision: f64,
    /// Named right / matched.
    pub identity_top1: f64,
    /// Named wrong / matched: wrong guesses, where unknown was the honest answer.
    pub named_wrong: f64,
    /// Truth pieces.
    pub truth: usize,
}

fn ratio(a: usize, b: usize) -> f64 {
    if b == 0 {
        1.0
    } else {
        a as f64 / b as f64
    }
}

fn median(mut v: Vec<f64>) -> f64 {
    if v.is_empty() {
        return 0.0;
    }
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// Sums scene scores and stage times into a report.
///
/// `names[i]` names the scene of `scores[i]` in [`Report::not_exact`]; a scene without a
/// name is named by its place in the order, from 0.
pub fn report(scores: &[SceneScore], times: &[StageTimes], names: &[String]) -> Report {
    let mut r = Report {
        scenes: scores.len(),
        ..Report::default()
    };
    let mut totals: BTreeMap<String, Counts> = BTreeMap::new();
    let mut confusions: BTreeMap<String, usize> = BTreeMap::new();
    let (
        mut placed,
        mut units,
        mut mods_r,
        mut mods,
        mut tok_r,
        mut tok,
        mut cit_r,
        mut cit,
        mut exact,
    ) = (0, 0, 0, 0, 0, 0, 0, 0, 0);
    for s in scores {
        for (k, c) in &s.classes {
            let t = totals.entry(k.clone()).or_default();
            t.truth += c.truth;
            t.found += c.found;
            t.matched += c.matched;
            t.named_right += c.named_right;
            t.named_wrong += c.named_wrong;
            t.doubted_right += c.doubted_right;
            t.doubted_wrong += c.doubted_wrong;
        }
        for c in &s.confusions {
            *confusions.entry(c.clone()).or_default() += 1;
        }
        placed += s.units_placed;
        units += s.units;
        mods_r += s.modules_right;
        mods += s.modules;
        tok_r += s.tokens_right;
        tok += s.tokens;
        cit_r += s.cities_right;
        cit += s.cities;
        exact += usize::from(s.exact);
    }
    let (mut right, mut matched) = (0, 0);
    for (k, c) in &totals {
        right += c.named_right;
        matched += c.matched;
        r.detection.insert(
            k.clone(),
            ClassReport {
                recall: ratio(c.matched, c.truth),
                precision: ratio(c.matched, c.found),
                identity_top1: ratio(c.named_right, c.matched),
                named_wrong: if c.matched == 0 {
                    0.0
                } else {
                    ratio(c.named_wrong, c.matched)
                },
                truth: c.truth,
            },
        );
    }
    r.identity_top1 = ratio(right, matched);
    r.token_accuracy = ratio(tok_r, tok);
    r.unit_placement = ratio(placed, units);
    r.module_accuracy = ratio(mods_r, mods);
    r.city_state_accuracy = ratio(cit_r, cit);
    r.layout_exact = ratio(exact, scores.len());
    r.median_ms = StageTimes {
        detect_ms: median(times.iter().map(|t| t.detect_ms).collect()),
        refine_ms: median(times.iter().map(|t| t.refine_ms).collect()),
        identify_ms: median(times.iter().map(|t| t.identify_ms).collect()),
        first_look_ms: median(times.iter().map(|t| t.first_look_ms).collect()),
        second_look_ms: median(times.iter().map(|t| t.second_look_ms).collect()),
        on_cards_ms: median(times.iter().map(|t| t.on_cards_ms).collect()),
        assemble_ms: median(times.iter().map(|t| t.assemble_ms).collect()),
        first_pass_ms: median(times.iter().map(|t| t.first_pass_ms).collect()),
    };
    r.relit = times.iter().filter(|t| t.relit()).count();
    r.median_total_ms = median(times.iter().map(|t| t.total_ms()).collect());
    let mut c: Vec<(String, usize)> = confusions.into_iter().collect();
    c.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    c.truncate(15);
    r.confusions = c;
    r.faults = Fault::ALL
        .iter()
        .map(|&fault| FaultCount {
            fault,
            scenes: scores.iter().filter(|s| s.faults.contains(&fault)).count(),
            alone: scores
                .iter()
                .filter(|s| s.faults.len() == 1 && s.faults.contains(&fault))
                .count(),
        })
        .filter(|f| f.scenes > 0)
        .collect();
    r.not_exact = scores
        .iter()
        .enumerate()
        .filter(|(_, s)| !s.exact)
        .map(|(i, s)| NotExact {
            scene: names.get(i).cloned().unwrap_or_else(|| i.to_string()),
            faults: s.faults.iter().copied().collect(),
            confusions: s.confusions.clone(),
        })
        .collect();
    let seen: Vec<(Option<SceneConditions>, bool)> =
        scores.iter().map(|s| (s.conditions, s.exact)).collect();
    r.by_condition = conditions::bands(&seen);
    let scenes = |exact: bool, flagged: bool| {
        scores
            .iter()
            .filter(|s| s.exact == exact && (s.flagged || !flagged))
            .count()
    };
    r.close_calls = CloseCalls {
        not_exact: scenes(false, false),
        not_exact_flagged: scenes(false, true),
        exact: scenes(true, false),
        exact_flagged: scenes(true, true),
        named_wrong: totals.values().map(|c| c.named_wrong).sum(),
        named_wrong_doubted: totals.values().map(|c| c.doubted_wrong).sum(),
        named_right: totals.values().map(|c| c.named_right).sum(),
        named_right_doubted: totals.values().map(|c| c.doubted_right).sum(),
    };
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scene(faults: &[Fault], confusions: &[&str]) -> SceneScore {
        SceneScore {
            exact: faults.is_empty(),
            faults: faults.iter().copied().collect(),
            confusions: confusions.iter().map(|c| c.to_string()).collect(),
            ..SceneScore::default()
        }
    }

    #[test]
    fn a_layout_listing_a_doubt_an_unknown_piece_or_a_missing_card_is_flagged() {
        let truth = Layout::default();
        let flagged = |layout: Layout| {
            let analysis = Analysis {
                layout,
                has_cities: false,
                pieces: Vec::new(),
                times: StageTimes::default(),
                steps: Vec::new(),
            };
            score(&analysis, &truth).flagged
        };
        assert!(!flagged(Layout::default()));
        let missing = tablelens_engine::layout::MissingCard {
            city: tablelens_engine::CityId::IronGate,
            side: tablelens_engine::Side::Outpost,
            after: None,
            before: Some("trooper".into()),
            corners: None,
            likely: Vec::new(),
        };
        assert!(flagged(Layout {
            missing: vec![missing],
            ..Layout::default()
        }));
        assert!(flagged(Layout {
            unknown: vec![tablelens_engine::layout::UnknownPiece {
                kind: "card".into(),
                corners: None,
            }],
            ..Layout::default()
        }));
        assert!(flagged(Layout {
            doubts: vec![tablelens_engine::layout::Doubt {
                read: "trooper".into(),
                could_be: "scout".into(),
                city: None,
                on: None,
                corners: None,
            }],
            ..Layout::default()
        }));
    }

    #[test]
    fn the_report_counts_the_layouts_that_ask_the_player_to_look_again() {
        let flagged = |mut s: SceneScore| {
            s.flagged = true;
            s
        };
        let mut read = scene(&[], &[]);
        read.classes.insert(
            "card".into(),
            Counts {
                named_right: 20,
                named_wrong: 2,
                doubted_right: 3,
                doubted_wrong: 1,
                ..Counts::default()
            },
        );
        let scores = [
            read,
            flagged(scene(&[], &[])),
            flagged(scene(&[Fault::Tokens], &[])),
            scene(&[Fault::UnitMissed], &[]),
            scene(&[Fault::Module], &[]),
        ];
        let r = report(&scores, &vec![StageTimes::default(); 5], &[]);
        let c = r.close_calls;
        assert_eq!((c.not_exact_flagged, c.not_exact), (1, 3));
        assert_eq!((c.exact_flagged, c.exact), (1, 2));
        assert_eq!((c.named_wrong_doubted, c.named_wrong), (1, 2));
        assert_eq!((c.named_right_doubted, c.named_right), (3, 20));
    }

    #[test]
    fn the_report_names_each_scene_not_exact_with_its_faults() {
        let scores = [
            scene(&[], &[]),
            scene(&[Fault::Tokens, Fault::UnitMissed], &["hornet -> scout"]),
            scene(&[Fault::Module], &[]),
        ];
        let times = vec![StageTimes::default(); 3];
        let names = ["0000.png", "0001.png", "0002.png"].map(String::from);
        let r = report(&scores, &times, &names);
        assert_eq!(r.layout_exact, 1.0 / 3.0);
        let listed: Vec<(&str, &[Fault])> = r
            .not_exact
            .iter()
            .map(|n| (n.scene.as_str(), n.faults.as_slice()))
            .collect();
        assert_eq!(
            listed,
            [
                ("0001.png", &[Fault::UnitMissed, Fault::Tokens][..]),
                ("0002.png", &[Fault::Module][..]),
            ]
        );
        assert_eq!(r.not_exact[0].confusions, ["hornet -> scout"]);
        // Without names, a scene is named by its place in the order.
        let unnamed = report(&scores, &times, &[]);
        let places: Vec<&str> = unnamed.not_exact.iter().map(|n| n.scene.as_str()).collect();
        assert_eq!(places, ["1", "2"]);
    }
}
