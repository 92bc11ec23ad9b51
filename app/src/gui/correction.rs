//! The player's corrections: a piece's identity, its tokens, its netted flag, and tokens
//! the player restored after they vanished (from the game follower's alert). A correction
//! is tied to where the piece lies in the frame; it sticks while a piece is seen there and
//! is forgotten when that place stays empty for a few frames. The player is the final
//! authority: corrections are applied to what the vision saw before the rules run.
//!
//! A place where the layout lists a card missing from a column (`Layout::missing`: the
//! column leaves room for a card nothing found or named) can be corrected too: the card the
//! player names there is added to what the vision saw, and the correction sticks while the
//! vision still lists the place or comes to see a piece there.

use tablelens_engine::layout::MissingCard;
use tablelens_engine::{Catalogue, Corners, Kind, Layout, Token};
use tablelens_vision::perceive::assemble::{assemble, Piece};
use tablelens_vision::perceive::PieceClass;

/// Frames a correction survives without its piece in view.
pub const MISSES_ALLOWED: u32 = 3;

/// One correction of one piece.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Correction {
    /// Where the piece lies (frame pixels).
    pub corners: Corners,
    /// What the piece really is (a component id).
    pub identity: Option<String>,
    /// The tokens really on it.
    pub tokens: Option<Vec<Token>>,
    /// Whether it is really netted.
    pub netted: Option<bool>,
    /// Tokens the player put back: at least these lie on it, seen or not.
    pub pinned: Vec<Token>,
    /// Frames in a row without the piece in view.
    pub missed: u32,
}

/// The centre of a quadrilateral.
pub fn centre(c: &Corners) -> [f32; 2] {
    [
        c.iter().map(|p| p[0]).sum::<f32>() / 4.0,
        c.iter().map(|p| p[1]).sum::<f32>() / 4.0,
    ]
}

fn shorter_side(c: &Corners) -> f32 {
    (0..4)
        .map(|i| {
            let (a, b) = (c[i], c[(i + 1) % 4]);
            ((a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2)).sqrt()
        })
        .fold(f32::INFINITY, f32::min)
}

/// Whether two outlines are the same piece in two frames: their centres lie within 40%
/// of the smaller piece's shorter side (a card moved by a nudge still matches; its
/// neighbour does not).
pub fn same_place(a: &Corners, b: &Corners) -> bool {
    let (ca, cb) = (centre(a), centre(b));
    let d = ((ca[0] - cb[0]).powi(2) + (ca[1] - cb[1]).powi(2)).sqrt();
    d <= 0.4 * shorter_side(a).min(shorter_side(b)).max(1.0)
}

/// Whether a point lies inside a quadrilateral (convex or not).
pub fn contains(c: &Corners, p: [f32; 2]) -> bool {
    let mut inside = false;
    let mut j = 3;
    for i in 0..4 {
        let (a, b) = (c[i], c[j]);
        if (a[1] > p[1]) != (b[1] > p[1])
            && p[0] < (b[0] - a[0]) * (p[1] - a[1]) / (b[1] - a[1]) + a[0]
        {
            inside = !inside;
        }
        j = i;
    }
    inside
}

/// The place `missing` lists at `corners`, if any.
pub fn missing_at<'a>(missing: &'a [MissingCard], corners: &Corners) -> Option<&'a MissingCard> {
    missing
        .iter()
        .find(|m| m.corners.is_some_and(|c| same_place(&c, corners)))
}

/// A piece the player named at a place where the vision saw none: a card (or a city), a
/// module strip, or a token or marker, by what the id names.
fn named_piece(cat: &Catalogue, id: &str, corners: Corners) -> Piece {
    let class = match cat.card(id) {
        Some(card) if card.kind == Kind::Module => PieceClass::Strip,
        Some(_) => PieceClass::Card,
        None if id.starts_with("token_") || id.starts_with("marker_") => PieceClass::Small,
        None => PieceClass::Card,
    };
    Piece::sure(class, corners, id)
}

/// Every correction in force.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Corrections {
    list: Vec<Correction>,
}

impl Corrections {
    /// The corrections in force.
    pub fn all(&self) -> &[Correction] {
        &self.list
    }

    /// The correction at a place, if any.
    pub fn at(&self, corners: &Corners) -> Option<&Correction> {
        self.list.iter().find(|c| same_place(&c.corners, corners))
    }

    /// Sets (or replaces) the correction at its place; an empty one removes it.
    pub fn set(&mut self, c: Correction) {
        self.list.retain(|o| !same_place(&o.corners, &c.corners));
        if c.identity.is_some() || c.tokens.is_some() || c.netted.is_some() || !c.pinned.is_empty()
        {
            self.list.push(c);
        }
    }

    /// Removes the correction at a place.
    pub fn forget(&mut self, corners: &Corners) {
        self.list.retain(|o| !same_place(&o.corners, corners));
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        self.list.clear();
    }

    /// Follows the pieces of a new frame: a correction whose piece is seen moves with it,
    /// one at a place the frame's layout lists as `missing` stays, and one whose piece is
    /// missing for more than [`MISSES_ALLOWED`] frames is dropped.
    pub fn track(&mut self, pieces: &[Piece], missing: &[MissingCard]) {
        for c in &mut self.list {
            match pieces.iter().find(|p| same_place(&p.corners, &c.corners)) {
                Some(p) => {
                    c.corners = p.corners;
                    c.missed = 0;
                }
                None if missing_at(missing, &c.corners).is_some() => c.missed = 0,
                None => c.missed += 1,
            }
        }
        self.list.retain(|c| c.missed <= MISSES_ALLOWED);
    }

    /// The layout with the corrections applied. Identity corrections rebuild the layout from
    /// the corrected pieces (so a piece the vision could not name takes its place, and a
    /// card named at a place `seen` lists as missing is added there); tokens and nets are
    /// then set on the unit at the corrected place, and restored tokens added where the
    /// vision does not see them.
    pub fn apply(&self, cat: &Catalogue, seen: &Layout, pieces: &[Piece]) -> Layout {
        let mut layout = if self.list.iter().any(|c| c.identity.is_some()) {
            let mut fixed: Vec<Piece> = pieces
                .iter()
                .map(|p| {
                    let mut p = p.clone();
                    if let Some(id) = self.at(&p.corners).and_then(|c| c.identity.clone()) {
                        p.id = Some(id);
                    }
                    p
                })
                .collect();
            for c in &self.list {
                let Some(id) = &c.identity else { continue };
                let unseen = !pieces.iter().any(|p| same_place(&p.corners, &c.corners));
                let place = missing_at(&seen.missing, &c.corners).and_then(|m| m.corners);
                if let Some(place) = place.filter(|_| unseen) {
                    fixed.push(named_piece(cat, id, place));
                }
            }
            let (mut l, _) = assemble(cat, &fixed);
            l.emp_assault = seen.emp_assault;
            l
        } else {
            seen.clone()
        };
        for city in &mut layout.cities {
            for unit in city.moloch.iter_mut().chain(city.outpost.iter_mut()) {
                let Some(c) = unit.corners.as_ref().and_then(|k| self.at(k)) else {
                    continue;
                };
                if let Some(t) = &c.tokens {
                    unit.tokens = t.clone();
                }
                if let Some(n) = c.netted {
                    unit.netted = n;
                }
                for t in Token::ALL {
                    let pinned = c.pinned.iter().filter(|&&p| p == t).count();
                    while unit.count(t) < pinned {
                        unit.tokens.push(t);
                    }
                }
            }
        }
        // The player has looked at a corrected piece, and at the tokens on it: neither is in
        // doubt any more.
        layout.doubts.retain(|d| {
            !d.corners.is_some_and(|k| {
                self.list
                    .iter()
                    .any(|c| same_place(&c.corners, &k) || contains(&c.corners, centre(&k)))
            })
        });
        layout
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn quad(x: f32, y: f32) -> Corners {
        [[x, y], [x + 60.0, y], [x + 60.0, y + 90.0], [x, y + 90.0]]
    }

    #[test]
    fn places_match_nearby_outlines_only() {
        assert!(same_place(&quad(0.0, 0.0), &quad(10.0, 5.0)));
        assert!(!same_place(&quad(0.0, 0.0), &quad(70.0, 0.0)));
        assert!(contains(&quad(0.0, 0.0), [30.0, 45.0]));
        assert!(!contains(&quad(0.0, 0.0), [61.0, 45.0]));
    }

    #[test]
    fn a_correction_sticks_while_its_piece_is_in_view() {
        let piece = Piece {
            class: PieceClass::Card,
            corners: quad(100.0, 100.0),
            score: 0.9,
            id: None,
            similarity: 0.3,
            best: "hornet".into(),
            similarities: Vec::new(),
        };
        let mut cs = Corrections::default();
        cs.set(Correction {
            corners: quad(100.0, 100.0),
            netted: Some(true),
            ..Correction::default()
        });
        let mut moved = piece.clone();
        moved.corners = quad(105.0, 102.0);
        cs.track(std::slice::from_ref(&moved), &[]);
        assert_eq!(cs.all().len(), 1);
        assert_eq!(cs.all()[0].corners, quad(105.0, 102.0));
        for _ in 0..=MISSES_ALLOWED {
            cs.track(&[], &[]);
        }
        assert!(cs.all().is_empty());
    }

    #[test]
    fn a_corrected_piece_and_the_tokens_on_it_are_no_longer_in_doubt() {
        let cat = Catalogue::bundled();
        let doubt = |read: &str, corners: Corners| tablelens_engine::layout::Doubt {
            read: read.into(),
            could_be: "kid".into(),
            city: Some(tablelens_engine::CityId::ZiggyOne),
            on: None,
            corners: Some(corners),
        };
        let token_on_first = [[20.0, 20.0], [38.0, 20.0], [38.0, 38.0], [20.0, 38.0]];
        let seen = Layout {
            doubts: vec![
                doubt("scout", quad(0.0, 0.0)),
                doubt("token_plus2", token_on_first),
                doubt("trooper", quad(200.0, 0.0)),
            ],
            ..Layout::default()
        };
        let mut cs = Corrections::default();
        assert_eq!(cs.apply(&cat, &seen, &[]).doubts.len(), 3);
        // The player says what the first card's tokens are: it and its token were looked at.
        cs.set(Correction {
            corners: quad(0.0, 0.0),
            tokens: Some(vec![Token::Plus1]),
            ..Correction::default()
        });
        let left = cs.apply(&cat, &seen, &[]).doubts;
        let reads: Vec<&str> = left.iter().map(|d| d.read.as_str()).collect();
        assert_eq!(reads, ["trooper"]);
    }

    /// Ziggy One upright at (300, 300) and the units of its Outpost column below it, from
    /// the city out: a step of 72 px between their middles but for a double step between
    /// the second and third.
    fn column(units: &[&str]) -> Vec<Piece> {
        let card = |y: f32, id: &str| Piece {
            class: PieceClass::Card,
            corners: quad(270.0, y - 45.0),
            score: 0.9,
            id: Some(id.into()),
            similarity: 0.9,
            best: id.into(),
            similarities: vec![(id.into(), 0.9)],
        };
        let ys = [400.0, 472.0, 616.0, 688.0];
        std::iter::once(card(300.0, "ziggy_one"))
            .chain(units.iter().zip(ys).map(|(id, y)| card(y, id)))
            .collect()
    }

    #[test]
    fn a_place_where_a_card_may_lie_unread_stays_marked_when_a_neighbour_is_renamed() {
        let cat = Catalogue::bundled();
        // Ziggy One's Outpost column, a double step between the second and third unit.
        let pieces = column(&["trooper", "scout", "kid", "runner"]);
        let (seen, _) = assemble(&cat, &pieces);
        let places = |l: &Layout| -> Vec<(Option<String>, Option<String>)> {
            l.missing
                .iter()
                .map(|m| (m.after.clone(), m.before.clone()))
                .collect()
        };
        let scout = Some("scout".to_string());
        assert_eq!(places(&seen), [(scout.clone(), Some("kid".to_string()))]);
        // The player names the Kid a Commando: the layout is built again, and the place
        // between is still marked, now before the Commando.
        let mut cs = Corrections::default();
        cs.set(Correction {
            corners: pieces[3].corners,
            identity: Some("commando".into()),
            ..Correction::default()
        });
        let fixed = cs.apply(&cat, &seen, &pieces);
        assert_eq!(places(&fixed), [(scout, Some("commando".to_string()))]);
    }

    #[test]
    fn a_card_named_where_one_is_missing_joins_its_column_while_the_place_is_listed() {
        let cat = Catalogue::bundled();
        let pieces = column(&["trooper", "scout", "kid"]);
        let (seen, _) = assemble(&cat, &pieces);
        let place = seen.missing[0].corners.expect("where the card would lie");
        // The player says a Commando lies there, with a +1 token on it.
        let mut cs = Corrections::default();
        cs.set(Correction {
            corners: place,
            identity: Some("commando".into()),
            tokens: Some(vec![Token::Plus1]),
            ..Correction::default()
        });
        let fixed = cs.apply(&cat, &seen, &pieces);
        let column: Vec<(&str, &[Token])> = fixed.cities[0]
            .outpost
            .iter()
            .map(|u| (u.card.as_str(), u.tokens.as_slice()))
            .collect();
        assert_eq!(
            column,
            [
                ("trooper", &[][..]),
                ("scout", &[]),
                ("commando", &[Token::Plus1]),
                ("kid", &[])
            ]
        );
        assert!(fixed.missing.is_empty(), "{:?}", fixed.missing);
        // It stays while the vision still lists the place, however many frames.
        for _ in 0..=MISSES_ALLOWED {
            cs.track(&pieces, &seen.missing);
        }
        assert_eq!(cs.all().len(), 1);
        // A name given where nothing is missing adds no card.
        let none = Layout {
            missing: Vec::new(),
            ..seen.clone()
        };
        assert_eq!(cs.apply(&cat, &none, &pieces).cities[0].outpost.len(), 3);
        // Neither seen nor listed: it goes after a few frames.
        for _ in 0..=MISSES_ALLOWED {
            cs.track(&pieces, &[]);
        }
        assert!(cs.all().is_empty());
    }

    #[test]
    fn a_restored_token_is_added_only_when_not_seen() {
        let cat = Catalogue::bundled();
        let mut layout = Layout {
            cities: vec![tablelens_engine::CityLayout::empty(
                tablelens_engine::CityId::ZiggyOne,
            )],
            ..Layout::default()
        };
        let mut hunter = tablelens_engine::Unit::new("hunter");
        hunter.corners = Some(quad(0.0, 0.0));
        layout.cities[0].moloch.push(hunter);
        let mut cs = Corrections::default();
        cs.set(Correction {
            corners: quad(0.0, 0.0),
            pinned: vec![Token::Plus1],
            ..Correction::default()
        });
        assert_eq!(cs.all().len(), 1);
        let fixed = cs.apply(&cat, &layout, &[]);
        assert_eq!(fixed.cities[0].moloch[0].tokens, [Token::Plus1]);
        layout.cities[0].moloch[0].tokens = vec![Token::Plus1];
        let fixed = cs.apply(&cat, &layout, &[]);
        assert_eq!(
            fixed.cities[0].moloch[0].tokens,
            [Token::Plus1],
            "not twice"
        );
    }

    #[test]
    fn an_empty_correction_removes_itself() {
        let mut cs = Corrections::default();
        cs.set(Correction {
            corners: quad(0.0, 0.0),
            netted: Some(false),
            ..Correction::default()
        });
        cs.set(Correction {
            corners: quad(0.0, 0.0),
            ..Correction::default()
        });
        assert!(cs.all().is_empty());
    }
}
