//! The conditions of a rendered scene, read off its truth (how large its cards and tokens
//! are in the frame, how steeply the camera sees the table), and the layouts read exactly
//! in each band of them: where the vision fails, as `tablelens eval` reports it.
//!
//! Only what the truth layout's corners show is read, so that any set of scenes with
//! corners can be broken down, and a frame's own looks (blur, light) are left out.

use super::assemble::median;
use super::refine::area;
use serde::Serialize;
use tablelens_engine::{Corners, Layout};

/// How one scene was seen, from its truth's corners.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct SceneConditions {
    /// The median width of its cards (cities and units), in pixels: each card's
    /// narrowest side. Small where the camera is far off or coarse.
    pub card_width_px: f32,
    /// The largest card's area in the frame over the smallest's: 1 seen straight from
    /// above, more where the camera looks at the table at a slant (or a card lies far
    /// from the rest).
    pub perspective: f32,
    /// The median width of the tokens on its units, in pixels; `None` with no token.
    pub token_width_px: Option<f32>,
}

/// One of the conditions [`SceneConditions`] holds, with the edges of the bands it is
/// reported in (each band from one edge up to the next; the last open-ended).
struct Condition {
    name: &'static str,
    edges: &'static [f32],
    of: fn(&SceneConditions) -> Option<f32>,
}

/// The conditions reported, in order. The edges split the rendered sets of
/// `models/README.md` into bands of a few hundred scenes each.
const CONDITIONS: [Condition; 3] = [
    Condition {
        name: "card_width_px",
        edges: &[0.0, 100.0, 120.0, 140.0],
        of: |c| Some(c.card_width_px),
    },
    Condition {
        name: "perspective",
        edges: &[1.0, 1.5, 2.0],
        of: |c| Some(c.perspective),
    },
    Condition {
        name: "token_width_px",
        edges: &[0.0, 28.0, 34.0, 40.0],
        of: |c| c.token_width_px,
    },
];

/// The scenes of one band of a condition, and how many of them were read exactly.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Band {
    /// The band's lower edge (included).
    pub from: f32,
    /// Its upper edge (left out); `None` for the last band.
    pub to: Option<f32>,
    /// Scenes in the band.
    pub scenes: usize,
    /// Of those, the scenes whose whole layout was read exactly.
    pub exact: usize,
}

/// The bands of one condition.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ConditionBands {
    /// The condition, as [`SceneConditions`] names it.
    pub condition: &'static str,
    /// Its bands, lowest first.
    pub bands: Vec<Band>,
}

/// The conditions of a scene from its truth; `None` where no card has corners.
pub fn of(truth: &Layout) -> Option<SceneConditions> {
    let mut widths = Vec::new();
    let mut areas = Vec::new();
    let mut tokens = Vec::new();
    for city in &truth.cities {
        let units = city.moloch.iter().chain(&city.outpost);
        for card in city
            .corners
            .iter()
            .chain(units.clone().filter_map(|u| u.corners.as_ref()))
        {
            widths.push(narrowest_side(card));
            areas.push(area(card));
        }
        tokens.extend(units.flat_map(|u| &u.token_corners).map(narrowest_side));
    }
    let largest = areas.iter().copied().fold(0.0, f32::max);
    let smallest = areas.iter().copied().fold(f32::INFINITY, f32::min);
    Some(SceneConditions {
        card_width_px: median(widths.into_iter())?,
        perspective: if smallest > 0.0 {
            largest / smallest
        } else {
            1.0
        },
        token_width_px: median(tokens.into_iter()),
    })
}

/// Layouts exact by band of each condition, over scenes given as their conditions (`None`:
/// counted in no band) and whether each was read exactly.
pub fn bands(scenes: &[(Option<SceneConditions>, bool)]) -> Vec<ConditionBands> {
    CONDITIONS
        .iter()
        .map(|c| {
            let mut bands: Vec<Band> = c
                .edges
                .iter()
                .enumerate()
                .map(|(i, &from)| Band {
                    from,
                    to: c.edges.get(i + 1).copied(),
                    scenes: 0,
                    exact: 0,
                })
                .collect();
            for (conditions, exact) in scenes {
                let Some(value) = conditions.as_ref().and_then(c.of) else {
                    continue;
                };
                // A value under the first edge counts in the first band.
                let k = c.edges.iter().rposition(|&e| value >= e).unwrap_or(0);
                bands[k].scenes += 1;
                bands[k].exact += usize::from(*exact);
            }
            ConditionBands {
                condition: c.name,
                bands,
            }
        })
        .collect()
}

/// The length of a quad's shortest side (also what [`super::eval`] measures a truth
/// piece by).
pub(crate) fn narrowest_side(c: &Corners) -> f32 {
    (0..4)
        .map(|i| {
            let (a, b) = (c[i], c[(i + 1) % 4]);
            ((a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2)).sqrt()
        })
        .fold(f32::INFINITY, f32::min)
}

#[cfg(test)]
mod tests {
    use super::*;
    use tablelens_engine::{CityId, CityLayout, Token, Unit};

    /// An upright rectangle `w` x `h` with its top-left corner at (`x`, `y`).
    fn rect(x: f32, y: f32, w: f32, h: f32) -> Corners {
        [[x, y], [x + w, y], [x + w, y + h], [x, y + h]]
    }

    fn unit(corners: Corners, tokens: &[(Token, Corners)]) -> Unit {
        Unit {
            corners: Some(corners),
            tokens: tokens.iter().map(|t| t.0).collect(),
            token_corners: tokens.iter().map(|t| t.1).collect(),
            ..Unit::new("trooper")
        }
    }

    /// A city 100 x 150 px at the origin with the given Outpost units.
    fn table(units: Vec<Unit>) -> Layout {
        Layout {
            cities: vec![CityLayout {
                corners: Some(rect(0.0, 0.0, 100.0, 150.0)),
                outpost: units,
                ..CityLayout::empty(CityId::NewYork)
            }],
            ..Layout::default()
        }
    }

    #[test]
    fn card_and_token_widths_are_medians_and_perspective_is_the_area_ratio() {
        let truth = table(vec![
            unit(
                rect(0.0, 200.0, 80.0, 120.0),
                &[(Token::Plus1, rect(10.0, 210.0, 30.0, 30.0))],
            ),
            unit(
                rect(0.0, 400.0, 120.0, 180.0),
                &[
                    (Token::Plus2, rect(10.0, 410.0, 20.0, 20.0)),
                    (Token::Shield, rect(40.0, 410.0, 40.0, 40.0)),
                ],
            ),
        ]);
        let c = of(&truth).unwrap();
        assert_eq!(c.card_width_px, 100.0);
        assert!((c.perspective - (120.0 * 180.0) / (80.0 * 120.0)).abs() < 1e-4);
        assert_eq!(c.token_width_px, Some(30.0));
        // A tilted quad's width is its shortest side, whichever way round it runs.
        let turned = [[0.0, 0.0], [0.0, 50.0], [-30.0, 50.0], [-30.0, 0.0]];
        assert_eq!(narrowest_side(&turned), 30.0);
        assert_eq!(area(&turned), 1500.0);
    }

    #[test]
    fn a_truth_without_corners_has_no_conditions_and_no_tokens_no_token_width() {
        assert_eq!(of(&Layout::default()), None);
        let bare = table(vec![unit(rect(0.0, 200.0, 100.0, 150.0), &[])]);
        let c = of(&bare).unwrap();
        assert_eq!((c.perspective, c.token_width_px), (1.0, None));
    }

    #[test]
    fn scenes_fall_into_bands_by_each_condition() {
        let seen = |width: f32, perspective: f32, token: Option<f32>| SceneConditions {
            card_width_px: width,
            perspective,
            token_width_px: token,
        };
        let scenes = [
            (Some(seen(90.0, 1.2, Some(25.0))), false),
            (Some(seen(100.0, 1.6, None)), true),
            (Some(seen(150.0, 2.5, Some(45.0))), true),
            (Some(seen(150.0, 0.9, Some(33.9))), false),
            (None, false),
        ];
        let all = bands(&scenes);
        let names: Vec<&str> = all.iter().map(|b| b.condition).collect();
        assert_eq!(names, ["card_width_px", "perspective", "token_width_px"]);
        let counts = |b: &ConditionBands| -> Vec<(usize, usize)> {
            b.bands.iter().map(|b| (b.scenes, b.exact)).collect()
        };
        assert_eq!(counts(&all[0]), [(1, 0), (1, 1), (0, 0), (2, 1)]);
        // Under the first edge counts in the first band.
        assert_eq!(counts(&all[1]), [(2, 0), (1, 1), (1, 1)]);
        // A scene without tokens is in no token band.
        assert_eq!(counts(&all[2]), [(1, 0), (1, 0), (0, 0), (1, 1)]);
        assert_eq!(
            (all[0].bands[0].from, all[0].bands[0].to),
            (0.0, Some(100.0))
        );
        assert_eq!(all[0].bands[3].to, None);
    }
}
