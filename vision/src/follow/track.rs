//! Tracking pieces over frames.
//!
//! Each unit card seen is matched to a *track* (a physical card with a stable id) by its
//! city, side, identity and position (the centre of its corners; the place in its column
//! when there are no corners). A track keeps its last `window` observations; what it is (card,
//! tokens, module) is the majority of those, and it is on the table (*present*) while it
//! was seen in at least `present` of them. City cards are handled the same way, per city.
//! One bad frame therefore changes nothing. A frame in which a large part of the table
//! vanishes at once (a hand over the table) is left out altogether. The *believed* table is
//! built from the present tracks; it is *stable* once it has not changed for `confirm`
//! frames in a row.

use serde::{Deserialize, Serialize};
use std::collections::VecDeque;
use tablelens_engine::{CityId, CityLayout, Layout, ModuleCard, Side, Token, Unit};

/// How eager the tracker is.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TrackConfig {
    /// Observations a track keeps (frames).
    pub window: usize,
    /// Sightings within the window that make a piece present.
    pub present: usize,
    /// Frames in a row the believed table must stay the same to be confirmed.
    pub confirm: usize,
    /// A frame in which more than this fraction of the present pieces vanish is ignored.
    pub hand_fraction: f64,
    /// ... provided at least this many pieces are present.
    pub hand_min: usize,
    /// After this many ignored frames in a row, frames are taken again (the table really
    /// changed).
    pub max_ignored: usize,
}

impl Default for TrackConfig {
    /// Window 5, present in 3 of them, confirmed after 2 equal frames; a frame losing more
    /// than 30% of at least 3 pieces is ignored, at most 8 in a row.
    fn default() -> TrackConfig {
        TrackConfig {
            window: 5,
            present: 3,
            confirm: 2,
            hand_fraction: 0.3,
            hand_min: 3,
            max_ignored: 8,
        }
    }
}

/// One sighting of a unit card.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Obs {
    /// Frame number.
    pub frame: u64,
    /// Card id read.
    pub card: String,
    /// Tokens seen on it.
    pub tokens: Vec<Token>,
    /// Module under it.
    pub module: Option<String>,
    /// Tokens on the module.
    pub module_tokens: Vec<Token>,
    /// Netted.
    pub netted: bool,
    /// Printed strength read off the card.
    pub strength: Option<i32>,
    /// Place in its column (0 nearest the city).
    pub rank: usize,
    /// Centre in the image.
    pub pos: Option<[f32; 2]>,
    /// Diagonal in the image (pixels).
    pub size: Option<f32>,
}

/// A physical unit card followed over frames.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Track {
    /// Stable id.
    pub id: u64,
    /// Its city.
    pub city: CityId,
    /// Its side.
    pub side: Side,
    /// The last observations, oldest first (`None`: not seen in that frame).
    pub seen: VecDeque<Option<Obs>>,
    /// Last known centre.
    pub pos: Option<[f32; 2]>,
    /// Last known diagonal.
    pub size: Option<f32>,
    /// Tokens the user restored by hand: they count even when not seen.
    #[serde(default)]
    pub pinned: Vec<Token>,
}

fn mode<T: PartialEq + Clone>(items: impl Iterator<Item = T>) -> Option<T> {
    // Most frequent; on a tie the most recent wins.
    let all: Vec<T> = items.collect();
    let mut best: Option<(usize, usize)> = None; // (count, last index)
    for (i, x) in all.iter().enumerate() {
        let n = all.iter().filter(|y| *y == x).count();
        if best.is_none_or(|(bn, bi)| n > bn || (n == bn && i > bi)) {
            best = Some((n, i));
        }
    }
    best.map(|(_, i)| all[i].clone())
}

fn median_count(counts: &mut [usize]) -> usize {
    counts.sort_unstable();
    counts.get(counts.len() / 2).copied().unwrap_or(0)
}

fn count(tokens: &[Token], t: Token) -> usize {
    tokens.iter().filter(|&&x| x == t).count()
}

impl Track {
    fn obs(&self) -> impl Iterator<Item = &Obs> {
        self.seen.iter().flatten()
    }

    /// Sightings within the window.
    pub fn sightings(&self) -> usize {
        self.obs().count()
    }

    /// Whether it is on the table.
    pub fn present(&self, cfg: &TrackConfig) -> bool {
        self.sightings() >= cfg.present.clamp(1, cfg.window.max(1))
    }

    /// The card it is, by majority.
    pub fn card(&self) -> String {
        mode(self.obs().map(|o| o.card.clone())).unwrap_or_default()
    }

    /// How many of a token lie on it: the median of the sightings, at least the pinned ones.
    pub fn token_count(&self, t: Token) -> usize {
        let mut counts: Vec<usize> = self.obs().map(|o| count(&o.tokens, t)).collect();
        median_count(&mut counts).max(count(&self.pinned, t))
    }

    /// The first frame since which fewer than `n` of token `t` were seen.
    pub fn missing_since(&self, t: Token, n: usize) -> Option<u64> {
        let obs: Vec<&Obs> = self.obs().collect();
        let last_full = obs.iter().rposition(|o| count(&o.tokens, t) >= n);
        match last_full {
            Some(i) => obs.get(i + 1).map(|o| o.frame),
            None => obs.first().map(|o| o.frame),
        }
    }

    /// The unit as believed, without image positions.
    pub fn unit(&self) -> Unit {
        let mut u = Unit::new(&self.card());
        for t in Token::ALL {
            for _ in 0..self.token_count(t) {
                u.tokens.push(t);
            }
        }
        if let Some(Some(m)) = mode(self.obs().map(|o| o.module.clone())) {
            let mut mc = ModuleCard::new(&m);
            for t in Token::ALL {
                let mut c: Vec<usize> = self
                    .obs()
                    .filter(|o| o.module.as_deref() == Some(m.as_str()))
                    .map(|o| count(&o.module_tokens, t))
                    .collect();
                for _ in 0..median_count(&mut c) {
                    mc.tokens.push(t);
                }
            }
            u.module = Some(mc);
        }
        u.netted = mode(self.obs().map(|o| o.netted)).unwrap_or(false);
        u.strength = mode(self.obs().map(|o| o.strength)).flatten();
        u
    }

    fn rank(&self) -> usize {
        self.obs().last().map_or(usize::MAX, |o| o.rank)
    }
}

/// What a city card showed in one frame.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct CityObs {
    destroyed: bool,
    districts_destroyed: u32,
    battle_marker: bool,
    battle_district: Option<u32>,
    feature_used: bool,
    extra_district: bool,
}

impl CityObs {
    fn of(c: &CityLayout) -> CityObs {
        CityObs {
            destroyed: c.destroyed,
            districts_destroyed: c.districts_destroyed,
            battle_marker: c.battle_marker,
            battle_district: c.battle_district,
            feature_used: c.feature_used,
            extra_district: c.extra_district,
        }
    }
}

/// Where a unit of the believed layout comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct PieceRef {
    /// The track id.
    pub id: u64,
    /// The unit's city.
    pub city: CityId,
    /// Its side.
    pub side: Side,
    /// Its index in that column of the layout.
    pub index: usize,
}

/// What the tracker made of a frame.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    /// Left out; why.
    Ignored(String),
    /// Taken; whether the believed table is now stable.
    Taken {
        /// The believed table has been the same for `confirm` frames in a row.
        stable: bool,
    },
}

/// The tracker: tracks of unit cards and the recent states of the city cards.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Tracker {
    /// Its settings.
    pub config: TrackConfig,
    next_id: u64,
    /// The tracks, live or fading.
    pub tracks: Vec<Track>,
    cities: Vec<VecDeque<Option<CityObs>>>,
    emp: VecDeque<bool>,
    candidate: Option<Layout>,
    streak: usize,
    ignored_run: usize,
}

fn centre(c: &[[f32; 2]; 4]) -> ([f32; 2], f32) {
    let x = c.iter().map(|p| p[0]).sum::<f32>() / 4.0;
    let y = c.iter().map(|p| p[1]).sum::<f32>() / 4.0;
    let d = ((c[0][0] - c[2][0]).powi(2) + (c[0][1] - c[2][1]).powi(2)).sqrt();
    ([x, y], d)
}

fn observations(frame: u64, layout: &Layout) -> Vec<(CityId, Side, Obs)> {
    let mut out = Vec::new();
    for city in &layout.cities {
        for side in [Side::Moloch, Side::Outpost] {
            for (rank, u) in city.side(side).iter().enumerate() {
                let (pos, size) = match (&u.corners, &u.bbox) {
                    (Some(c), _) => {
                        let (p, d) = centre(c);
                        (Some(p), Some(d))
                    }
                    (None, Some(b)) => (
                        Some([b[0] + b[2] * 0.5, b[1] + b[3] * 0.5]),
                        Some((b[2] * b[2] + b[3] * b[3]).sqrt()),
                    ),
                    _ => (None, None),
                };
                let (pos, size) = match (pos, size) {
                    (Some(p), Some(s)) if p.iter().all(|v| v.is_finite()) && s.is_finite() => {
                        (Some(p), Some(s.max(1.0)))
                    }
                    _ => (None, None),
                };
                out.push((
                    city.id,
                    side,
                    Obs {
                        frame,
                        card: u.card.clone(),
                        tokens: u.tokens.clone(),
                        module: u.module.as_ref().map(|m| m.card.clone()),
                        module_tokens: u
                            .module
                            .as_ref()
                            .map(|m| m.tokens.clone())
                            .unwrap_or_default(),
                        netted: u.netted,
                        strength: u.strength,
                        rank,
                        pos,
                        size,
                    },
                ));
            }
        }
    }
    out
}

/// The layout in a canonical form for comparing table states: no image positions, no
/// arrival order, no unknown pieces, every column sorted.
pub fn canonical(layout: &Layout) -> Layout {
    let mut l = layout.clone();
    l.unknown.clear();
    l.cities = l.full_cities();
    for c in &mut l.cities {
        c.corners = None;
        c.markers.clear();
        for side in [Side::Moloch, Side::Outpost] {
            let col = c.side_mut(side);
            for u in col.iter_mut() {
                u.arrived = None;
                u.corners = None;
                u.bbox = None;
                u.token_corners.clear();
                u.tokens.sort_by_key(|t| t.as_str());
                if let Some(m) = &mut u.module {
                    m.corners = None;
                    m.tokens.sort_by_key(|t| t.as_str());
                }
            }
            col.sort_by(|a, b| {
                let key = |u: &Unit| {
                    serde_json::to_string(u).unwrap_or_default() // stable total order
                };
                key(a).cmp(&key(b))
            });
        }
    }
    l
}

impl Tracker {
    /// A tracker with nothing seen yet.
    pub fn new(config: TrackConfig) -> Tracker {
        Tracker {
            config,
            next_id: 1,
            tracks: Vec::new(),
            cities: vec![VecDeque::new(); 5],
            emp: VecDeque::new(),
            candidate: None,
            streak: 0,
            ignored_run: 0,
        }
    }

    fn window(&self) -> usize {
        self.config.window.max(1)
    }

    fn city_present(&self, i: usize) -> bool {
        self.cities[i].iter().flatten().count() >= self.config.present.clamp(1, self.window())
    }

    /// Whether any city card is on the table (a table without one is not a game).
    pub fn any_city_present(&self) -> bool {
        (0..5).any(|i| self.city_present(i))
    }

    /// Takes one frame's layout.
    pub fn observe(&mut self, frame: u64, layout: &Layout) -> Outcome {
        let obs = observations(frame, layout);
        let cfg = self.config.clone();

        // Match observations to tracks: pairs of the same card first, then (for a card
        // misread in this frame) pairs of different cards; cheapest first within each. A card
        // that slides one place along its column when a neighbour leaves thus stays itself,
        // rather than taking the place's new occupant for a misreading of it.
        let mut pairs: Vec<(bool, f32, usize, usize)> = Vec::new();
        for (ti, t) in self.tracks.iter().enumerate() {
            let tcard = t.card();
            let present = t.present(&cfg);
            for (oi, (city, side, o)) in obs.iter().enumerate() {
                if *city != t.city || *side != t.side {
                    continue;
                }
                let id_cost = if o.card == tcard { 0.0 } else { 0.6 };
                let pos_cost = match (t.pos, o.pos) {
                    (Some(a), Some(b)) => {
                        let scale = t.size.or(o.size).unwrap_or(100.0).max(1.0);
                        (((a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2)).sqrt() / scale).min(2.0)
                    }
                    _ => (t.rank().abs_diff(o.rank) as f32 * 0.3).min(2.0),
                };
                let cost = id_cost + pos_cost + if present { 0.0 } else { 0.01 };
                if cost < 1.0 {
                    pairs.push((o.card != tcard, cost, ti, oi));
                }
            }
        }
        pairs.sort_by(|a, b| {
            a.0.cmp(&b.0)
                .then(a.1.total_cmp(&b.1))
                .then(a.2.cmp(&b.2))
                .then(a.3.cmp(&b.3))
        });
        let mut track_obs: Vec<Option<usize>> = vec![None; self.tracks.len()];
        let mut obs_taken = vec![false; obs.len()];
        for (_, _, ti, oi) in pairs {
            if track_obs[ti].is_none() && !obs_taken[oi] {
                track_obs[ti] = Some(oi);
                obs_taken[oi] = true;
            }
        }

        // A hand over the table: many present pieces gone at once.
        let seen_cities: Vec<bool> = (0..5)
            .map(|i| layout.cities.iter().any(|c| c.id.index() == i))
            .collect();
        let mut pieces = 0;
        let mut vanished = 0;
        for (ti, t) in self.tracks.iter().enumerate() {
            if t.present(&cfg) {
                pieces += 1;
                vanished += usize::from(track_obs[ti].is_none());
            }
        }
        for (i, &seen) in seen_cities.iter().enumerate() {
            if self.city_present(i) {
                pieces += 1;
                vanished += usize::from(!seen);
            }
        }
        let sudden = pieces >= cfg.hand_min && vanished as f64 > cfg.hand_fraction * pieces as f64;
        if sudden && self.ignored_run < cfg.max_ignored {
            self.ignored_run += 1;
            return Outcome::Ignored(format!(
                "{vanished} of {pieces} pieces vanished at once (a hand over the table?)"
            ));
        }
        // Past `max_ignored` the change is real: frames are taken until it has settled.
        if !sudden {
            self.ignored_run = 0;
        }

        // Update tracks, start new ones, drop the long gone.
        let w = self.window();
        for (ti, t) in self.tracks.iter_mut().enumerate() {
            let o = track_obs[ti].map(|oi| obs[oi].2.clone());
            if let Some(o) = &o {
                if o.pos.is_some() {
                    t.pos = o.pos;
                    t.size = o.size;
                }
            }
            t.seen.push_back(o);
            while t.seen.len() > w {
                t.seen.pop_front();
            }
        }
        for (oi, (city, side, o)) in obs.into_iter().enumerate() {
            if obs_taken[oi] {
                continue;
            }
            let id = self.next_id;
            self.next_id += 1;
            self.tracks.push(Track {
                id,
                city,
                side,
                pos: o.pos,
                size: o.size,
                seen: VecDeque::from([Some(o)]),
                pinned: Vec::new(),
            });
        }
        self.tracks
            .retain(|t| !(t.seen.len() >= w && t.seen.iter().all(Option::is_none)));

        for (i, q) in self.cities.iter_mut().enumerate() {
            let c = layout.cities.iter().find(|c| c.id.index() == i);
            q.push_back(c.map(CityObs::of));
            while q.len() > w {
                q.pop_front();
            }
        }
        self.emp.push_back(layout.emp_assault);
        while self.emp.len() > w {
            self.emp.pop_front();
        }

        let believed = canonical(&self.believed().0);
        if self.candidate.as_ref() == Some(&believed) {
            self.streak += 1;
        } else {
            self.candidate = Some(believed);
            self.streak = 1;
        }
        // A piece seen now that is not yet on the table may be arriving: wait for it.
        let arriving = self
            .tracks
            .iter()
            .any(|t| !t.present(&cfg) && t.seen.back().is_some_and(Option::is_some))
            || (0..5).any(|i| {
                !self.city_present(i) && self.cities[i].back().is_some_and(Option::is_some)
            });
        Outcome::Taken {
            stable: self.streak >= self.config.confirm.max(1) && !arriving,
        }
    }

    /// The table as believed now, and where each of its units comes from.
    pub fn believed(&self) -> (Layout, Vec<PieceRef>) {
        let mut layout = Layout {
            cities: Vec::new(),
            emp_assault: mode(self.emp.iter().copied()).unwrap_or(false),
            ..Layout::default()
        };
        let mut refs = Vec::new();
        for id in CityId::ALL {
            let i = id.index();
            let mut c = CityLayout::empty(id);
            if let Some(o) = mode(self.cities[i].iter().flatten().cloned()) {
                c.destroyed = o.destroyed;
                c.districts_destroyed = o.districts_destroyed;
                c.battle_marker = o.battle_marker;
                c.battle_district = o.battle_district;
                c.feature_used = o.feature_used;
                c.extra_district = o.extra_district;
            }
            for side in [Side::Moloch, Side::Outpost] {
                let mut ts: Vec<&Track> = self
                    .tracks
                    .iter()
                    .filter(|t| t.city == id && t.side == side && t.present(&self.config))
                    .collect();
                ts.sort_by_key(|t| (t.rank(), t.id));
                for (index, t) in ts.into_iter().enumerate() {
                    c.side_mut(side).push(t.unit());
                    refs.push(PieceRef {
                        id: t.id,
                        city: id,
                        side,
                        index,
                    });
                }
            }
            layout.cities.push(c);
        }
        (layout, refs)
    }

    /// A track by id.
    pub fn track(&self, id: u64) -> Option<&Track> {
        self.tracks.iter().find(|t| t.id == id)
    }

    /// A track by id, mutable.
    pub fn track_mut(&mut self, id: u64) -> Option<&mut Track> {
        self.tracks.iter_mut().find(|t| t.id == id)
    }
}
