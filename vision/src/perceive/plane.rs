//! The table's plane, seen from the city cards, and the true length of a card on it.
//!
//! The camera looks at the table at a slant (up to 35 degrees), so a card's length in the
//! frame is not its width times its printed aspect: where the table runs away from the
//! camera, a card looks shorter, by a fifth and more. The refiner often gets one short edge
//! of a card in a crowded column wrong, and nothing in the card's own quad says which
//! length is right.
//!
//! The city cards say it. They lie in one row on the table, none covered, each a card of
//! the printed aspect (the enrolled faces', [`super::identify::Gallery::card_aspect`]).
//! One homography of the frame makes them all rectangles of that aspect and of one size
//! ([`TablePlane::of_cities`]); in that view every card on the table is such a rectangle
//! too. So from a card's one right short edge its other short edge follows
//! ([`TablePlane::squared`]).
//!
//! The homography is fitted up to a similarity (which changes no shape): a projective part
//! that sends the table's horizon back to infinity and an affine part that undoes the
//! squash, four numbers in all, by Gauss-Newton on how far each city is from such a
//! rectangle. A city unlike the rest (a corner misplaced) is left out. On rendered
//! validation scenes (canonical seed 12 and deck 1, 634 units each), predicting each
//! unit's far short edge from its true near one, in the plane of the cities as found, put
//! the far corners a median 0.048 / 0.044 of a card's width from the truth (90th
//! percentile 0.11 / 0.10), against 0.12 / 0.12 (0.33 / 0.33) with the printed aspect in
//! the frame and 0.11 / 0.11 (0.27 / 0.26) with the nearest city's own homography.

use super::assemble::midpoint;
use super::quad_window::Quad;
use super::resample;

/// A card's length over its width where the enrolled faces do not say: the Convoy's
/// cards, cities and units alike, are of the standard 63 x 88 mm.
pub const CARD_ASPECT: f32 = 88.0 / 63.0;

/// Gauss-Newton steps at most.
const STEPS: usize = 30;

/// The mean squared error per city (over the measures of [`residuals`]) above which the
/// cities are not taken to lie in one plane: the city least like the rest is left out and
/// the others fitted again, down to two. On validation scenes the fitted cities' errors
/// are mostly 0.003 to 0.009; layouts exact were as many at a bar of 0.005 and 0.02.
pub const MOST_FIT_ERROR: f64 = 0.01;

/// How many measures [`residuals`] takes of each city's shape, before the sizes.
const SHAPE_MEASURES: usize = 7;

type M3 = [[f64; 3]; 3];

/// The table's plane, as a homography from the frame to a view of the table from straight
/// above (up to a similarity).
#[derive(Debug, Clone, Copy)]
pub struct TablePlane {
    to_table: M3,
    to_frame: M3,
    aspect: f64,
}

/// Which short edge of a card's quad is kept: the printed top edge (corners 0 and 1) or the
/// printed bottom edge (corners 2 and 3).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Anchor {
    /// The edge through corners 0 and 1.
    Near,
    /// The edge through corners 2 and 3.
    Far,
}

fn mul(a: &M3, b: &M3) -> M3 {
    std::array::from_fn(|i| std::array::from_fn(|j| (0..3).map(|k| a[i][k] * b[k][j]).sum()))
}

/// The homography for the parameters `t` (horizon x, horizon y, shear, log of squash), on
/// frame points scaled by `1 / scale`.
fn homography(t: &[f64; 4], scale: f64) -> M3 {
    let s = [
        [1.0 / scale, 0.0, 0.0],
        [0.0, 1.0 / scale, 0.0],
        [0.0, 0.0, 1.0],
    ];
    let horizon = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [t[0], t[1], 1.0]];
    let b = t[3].exp();
    let affine = [[1.0 / b, -t[2] / b, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]];
    mul(&affine, &mul(&horizon, &s))
}

/// How far the cities, seen through `h`, are from rectangles of the printed `aspect` and one
/// size: per city, the cosines of its four corners, the logs of its opposite sides' ratios
/// and of its aspect over the printed one ([`SHAPE_MEASURES`] in all), then for each city
/// the log of its width over the mean.
fn residuals(h: &M3, cities: &[Quad], aspect: f64, out: &mut Vec<f64>) {
    out.clear();
    let mut widths = Vec::with_capacity(cities.len());
    for c in cities {
        let q = c.map(|p| resample::apply(h, f64::from(p[0]), f64::from(p[1])));
        let e: [(f64, f64); 4] = std::array::from_fn(|i| {
            let (a, b) = (q[i], q[(i + 1) % 4]);
            (b.0 - a.0, b.1 - a.1)
        });
        let len = e.map(|v| v.0.hypot(v.1).max(1e-12));
        for i in 0..4 {
            let j = (i + 1) % 4;
            out.push((e[i].0 * e[j].0 + e[i].1 * e[j].1) / (len[i] * len[j]));
        }
        out.push((len[0] / len[2]).ln());
        out.push((len[1] / len[3]).ln());
        // Corners run clockwise from the printed top-left: sides 0 and 2 are the width.
        let (width, length) = ((len[0] + len[2]) / 2.0, (len[1] + len[3]) / 2.0);
        out.push((length / width / aspect).ln());
        widths.push(width.ln());
    }
    let mean = widths.iter().sum::<f64>() / widths.len().max(1) as f64;
    out.extend(widths.iter().map(|w| w - mean));
}

/// Solves the 4x4 system `a x = b`, if it is not singular.
fn solve(mut a: [[f64; 4]; 4], mut b: [f64; 4]) -> Option<[f64; 4]> {
    for c in 0..4 {
        let pivot = (c..4).max_by(|&x, &y| a[x][c].abs().total_cmp(&a[y][c].abs()))?;
        a.swap(c, pivot);
        b.swap(c, pivot);
        if a[c][c].abs() < 1e-14 {
            return None;
        }
        let (row, rhs) = (a[c], b[c]);
        for r in (0..4).filter(|&r| r != c) {
            let f = a[r][c] / row[c];
            for (x, y) in a[r].iter_mut().zip(row).skip(c) {
                *x -= f * y;
            }
            b[r] -= f * rhs;
        }
    }
    Some(std::array::from_fn(|i| b[i] / a[i][i]))
}

/// The homography that makes the cities most like rectangles of the printed aspect and of
/// one size (Gauss-Newton from a straight view), if the steps stay finite.
fn fit(cities: &[Quad], scale: f64, aspect: f64) -> Option<M3> {
    let mut t = [0.0f64; 4];
    let (mut r, mut r2) = (Vec::new(), Vec::new());
    for _ in 0..STEPS {
        residuals(&homography(&t, scale), cities, aspect, &mut r);
        let mut jac = vec![[0.0f64; 4]; r.len()];
        for k in 0..4 {
            let mut moved = t;
            let h = 1e-6;
            moved[k] += h;
            residuals(&homography(&moved, scale), cities, aspect, &mut r2);
            for (row, (a, b)) in jac.iter_mut().zip(r.iter().zip(&r2)) {
                row[k] = (b - a) / h;
            }
        }
        let mut a = [[0.0f64; 4]; 4];
        let mut g = [0.0f64; 4];
        for (row, ri) in jac.iter().zip(&r) {
            for p in 0..4 {
                g[p] -= row[p] * ri;
                for q in 0..4 {
                    a[p][q] += row[p] * row[q];
                }
            }
        }
        for (p, row) in a.iter_mut().enumerate() {
            row[p] = row[p] * 1.001 + 1e-12;
        }
        let step = solve(a, g)?;
        for (x, d) in t.iter_mut().zip(step) {
            *x += d;
        }
        if !t.iter().all(|x| x.is_finite()) {
            return None;
        }
        if step.iter().map(|d| d.abs()).sum::<f64>() < 1e-10 {
            break;
        }
    }
    Some(homography(&t, scale))
}

/// Each city's squared error (summed over the measures of [`residuals`]) through `h`.
fn city_errors(h: &M3, cities: &[Quad], aspect: f64) -> Vec<f64> {
    let mut r = Vec::new();
    residuals(h, cities, aspect, &mut r);
    let (shapes, sizes) = r.split_at(cities.len() * SHAPE_MEASURES);
    shapes
        .chunks(SHAPE_MEASURES)
        .zip(sizes)
        .map(|(own, size)| own.iter().map(|x| x * x).sum::<f64>() + size * size)
        .collect()
}

impl TablePlane {
    /// The plane in which the given city cards' quads are rectangles of `aspect` (length
    /// over width) and of one size, if at least two of them fit it well
    /// ([`MOST_FIT_ERROR`]). `scale` is about the frame's size (its width), for the numbers'
    /// sake.
    pub fn of_cities(cities: &[Quad], scale: f32, aspect: f32) -> Option<TablePlane> {
        let aspect = f64::from(aspect);
        if !(aspect.is_finite() && aspect > 0.0) {
            return None;
        }
        let mut cities = cities.to_vec();
        loop {
            if cities.len() < 2 {
                return None;
            }
            let to_table = fit(&cities, f64::from(scale.max(1.0)), aspect)?;
            let errors = city_errors(&to_table, &cities, aspect);
            let mean = errors.iter().sum::<f64>() / errors.len() as f64;
            if mean.is_finite() && mean <= MOST_FIT_ERROR {
                return Some(TablePlane {
                    to_table,
                    to_frame: resample::invert(&to_table)?,
                    aspect,
                });
            }
            // One city unlike the rest (a corner misplaced, or not a city at all) is left
            // out, and the rest fitted again.
            if cities.len() < 3 {
                return None;
            }
            let worst = (0..errors.len()).max_by(|&a, &b| errors[a].total_cmp(&errors[b]))?;
            cities.remove(worst);
        }
    }

    fn onto_table(&self, p: [f32; 2]) -> (f64, f64) {
        resample::apply(&self.to_table, f64::from(p[0]), f64::from(p[1]))
    }

    fn onto_frame(&self, p: (f64, f64)) -> [f32; 2] {
        let (x, y) = resample::apply(&self.to_frame, p.0, p.1);
        [x as f32, y as f32]
    }

    /// The card whose one short edge is `quad`'s `anchor` edge, with its other short edge
    /// where a card of the plane's aspect has it on the table (on the side where `quad`'s
    /// other short edge lies). The corners run clockwise from the printed top-left, so the
    /// short edges are 0-1 and 2-3, whatever they look like in the frame: a card foreshortened
    /// at a slant can look wider than long. Corner order is kept. None where the edge is too
    /// short to tell.
    pub fn squared(&self, quad: &Quad, anchor: Anchor) -> Option<Quad> {
        let q = quad;
        let (a, b, other) = match anchor {
            Anchor::Near => (q[0], q[1], midpoint(q[2], q[3])),
            Anchor::Far => (q[2], q[3], midpoint(q[0], q[1])),
        };
        let (pa, pb, po) = (
            self.onto_table(a),
            self.onto_table(b),
            self.onto_table(other),
        );
        let e = sub(pb, pa);
        let width = e.0.hypot(e.1);
        if width.is_nan() || width <= 1e-9 {
            return None;
        }
        let mut n = (-e.1 / width, e.0 / width);
        if dot(sub(po, mid(pa, pb)), n) < 0.0 {
            n = (-n.0, -n.1);
        }
        let l = width * self.aspect;
        let across = |p: (f64, f64)| self.onto_frame((p.0 + n.0 * l, p.1 + n.1 * l));
        let m = match anchor {
            Anchor::Near => [a, b, across(pb), across(pa)],
            Anchor::Far => [across(pb), across(pa), a, b],
        };
        m.iter().flatten().all(|x| x.is_finite()).then_some(m)
    }

    /// How wide a card's quad is on the table (its printed top edge), in the plane's units.
    pub fn width_of(&self, quad: &Quad) -> f64 {
        let (a, b) = (self.onto_table(quad[0]), self.onto_table(quad[1]));
        (b.0 - a.0).hypot(b.1 - a.1)
    }

    /// A card laid on the table: `width` wide (in the plane's units) and of the plane's
    /// aspect, square to the card `axes` (a city: its columns run along its long axis), the
    /// same way up as `way_up` (its printed top on the same side), with its middle where
    /// `centre` lies in the frame, slid by `slide` of its length along its long axis.
    /// Corners clockwise from its printed top-left; None where the axes are degenerate.
    pub fn card_at(
        &self,
        centre: [f32; 2],
        width: f64,
        axes: &Quad,
        way_up: &Quad,
        slide: f64,
    ) -> Option<Quad> {
        let on_table = |q: &Quad| q.map(|c| self.onto_table(c));
        let (a, w) = (on_table(axes), on_table(way_up));
        let down = unit(sub(mid(a[3], a[2]), mid(a[0], a[1])))?;
        let right = unit(sub(mid(a[1], a[2]), mid(a[0], a[3])))?;
        let own = sub(mid(w[3], w[2]), mid(w[0], w[1]));
        let k = if dot(own, down) < 0.0 { -1.0 } else { 1.0 };
        let (down, right) = ((down.0 * k, down.1 * k), (right.0 * k, right.1 * k));
        let (half_w, half_l) = (width / 2.0, width * self.aspect / 2.0);
        let c = self.onto_table(centre);
        let c = (
            c.0 + down.0 * slide * 2.0 * half_l,
            c.1 + down.1 * slide * 2.0 * half_l,
        );
        let corner = |r: f64, d: f64| {
            self.onto_frame((
                c.0 + right.0 * r * half_w + down.0 * d * half_l,
                c.1 + right.1 * r * half_w + down.1 * d * half_l,
            ))
        };
        let q = [
            corner(-1.0, -1.0),
            corner(1.0, -1.0),
            corner(1.0, 1.0),
            corner(-1.0, 1.0),
        ];
        q.iter().flatten().all(|x| x.is_finite()).then_some(q)
    }
}

fn mid(a: (f64, f64), b: (f64, f64)) -> (f64, f64) {
    ((a.0 + b.0) / 2.0, (a.1 + b.1) / 2.0)
}

fn sub(a: (f64, f64), b: (f64, f64)) -> (f64, f64) {
    (a.0 - b.0, a.1 - b.1)
}

fn dot(a: (f64, f64), b: (f64, f64)) -> f64 {
    a.0 * b.0 + a.1 * b.1
}

/// The vector scaled to length one, unless it is too short to have a direction.
fn unit(v: (f64, f64)) -> Option<(f64, f64)> {
    let n = v.0.hypot(v.1);
    (n > 1e-12).then(|| (v.0 / n, v.1 / n))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::perceive::assemble::dist;

    /// A frame homography of a table seen at a slant: table mm to pixels.
    fn camera() -> M3 {
        [[2.0, 0.3, 400.0], [0.1, 1.6, 300.0], [0.0, 0.0011, 1.0]]
    }

    /// A card of 63 x 88 mm with its top-left corner at (x, y) mm on the table, turned by
    /// `turn` radians, in the frame.
    fn card(x: f64, y: f64, turn: f64) -> Quad {
        let (s, c) = turn.sin_cos();
        let corners = [(0.0, 0.0), (63.0, 0.0), (63.0, 88.0), (0.0, 88.0)];
        corners.map(|(u, v)| {
            let (tx, ty) = (x + u * c - v * s, y + u * s + v * c);
            let (px, py) = resample::apply(&camera(), tx, ty);
            [px as f32, py as f32]
        })
    }

    fn cities() -> Vec<Quad> {
        (0..5)
            .map(|i| card(f64::from(i) * 75.0, 0.0, 0.0))
            .collect()
    }

    fn far(a: &Quad, b: &Quad) -> f32 {
        (0..4).map(|i| dist(a[i], b[i])).fold(0.0, f32::max)
    }

    #[test]
    fn a_card_squared_on_the_cities_plane_gets_its_true_length() {
        let plane = TablePlane::of_cities(&cities(), 1920.0, CARD_ASPECT).expect("a plane");
        for (x, y, turn) in [
            (20.0, 120.0, 0.0),
            (160.0, -250.0, 0.1),
            (300.0, 200.0, -1.4),
        ] {
            let truth = card(x, y, turn);
            // The far edge run a third of a card too far, and too short.
            for wrong in [1.35f32, 0.7] {
                let mut q = truth;
                let (d0, d1) = (
                    [q[3][0] - q[0][0], q[3][1] - q[0][1]],
                    [q[2][0] - q[1][0], q[2][1] - q[1][1]],
                );
                q[3] = [q[0][0] + d0[0] * wrong, q[0][1] + d0[1] * wrong];
                q[2] = [q[1][0] + d1[0] * wrong, q[1][1] + d1[1] * wrong];
                let fixed = plane.squared(&q, Anchor::Near).expect("squared");
                assert!(far(&fixed, &truth) < 0.5, "{fixed:?} against {truth:?}");
            }
            // Kept from the far edge, the near one comes back.
            let mut q = truth;
            q[0] = midpoint(q[0], q[3]);
            q[1] = midpoint(q[1], q[2]);
            let fixed = plane.squared(&q, Anchor::Far).expect("squared");
            assert!(far(&fixed, &truth) < 0.5, "{fixed:?} against {truth:?}");
        }
    }

    #[test]
    fn a_card_looking_wider_than_long_keeps_its_short_edges() {
        let plane = TablePlane::of_cities(&cities(), 1920.0, CARD_ASPECT).expect("a plane");
        let t = card(20.0, 120.0, 0.0);
        // So strongly foreshortened that its printed width is its longer side in the frame.
        assert!(dist(t[0], t[1]) > dist(t[1], t[2]));
        let fixed = plane.squared(&t, Anchor::Far).expect("squared");
        assert!(far(&fixed, &t) < 0.5, "{fixed:?}");
    }

    #[test]
    fn a_card_laid_along_a_city_is_the_card_there() {
        let plane = TablePlane::of_cities(&cities(), 1920.0, CARD_ASPECT).expect("a plane");
        let city = cities()[1];
        let width = plane.width_of(&city);
        for (x, y) in [(75.0, 150.0), (75.0, -120.0), (300.0, 240.0)] {
            let truth = card(x, y, 0.0);
            // A quad of the wrong size and turn about the card's middle: only its middle
            // and its way up are kept.
            let rough = card(x + 6.0, y - 4.0, 0.2);
            // The card's middle, as the camera sees it.
            let (mx, my) = resample::apply(&camera(), x + 31.5, y + 44.0);
            let middle = [mx as f32, my as f32];
            let laid = plane
                .card_at(middle, width, &city, &rough, 0.0)
                .expect("laid");
            assert!(far(&laid, &truth) < 0.5, "{laid:?} against {truth:?}");
            // Slid by a tenth of its length: the card a tenth further along.
            let slid = plane
                .card_at(middle, width, &city, &rough, 0.1)
                .expect("laid");
            let further = card(x, y + 8.8, 0.0);
            assert!(far(&slid, &further) < 0.5, "{slid:?} against {further:?}");
            // Upside down, the same card from its other corner.
            let turned = [rough[2], rough[3], rough[0], rough[1]];
            let laid = plane
                .card_at(middle, width, &city, &turned, 0.0)
                .expect("laid");
            assert!(far(&laid, &[truth[2], truth[3], truth[0], truth[1]]) < 0.5);
        }
    }

    #[test]
    fn a_city_unlike_the_rest_is_left_out() {
        let mut bad = cities();
        // One city's far edge a card too far: no plane makes it a card like the others.
        bad[2][2][1] += 150.0;
        bad[2][3][1] += 150.0;
        let plane = TablePlane::of_cities(&bad, 1920.0, CARD_ASPECT).expect("a plane");
        let truth = card(20.0, 120.0, 0.0);
        let fixed = plane.squared(&truth, Anchor::Near).expect("squared");
        assert!(far(&fixed, &truth) < 0.5, "{fixed:?}");
        // Of two cities unlike each other, neither can be left out.
        assert!(TablePlane::of_cities(&bad[1..3], 1920.0, CARD_ASPECT).is_none());
    }

    #[test]
    fn no_plane_from_one_city_or_a_senseless_aspect() {
        assert!(TablePlane::of_cities(&cities()[..1], 1920.0, CARD_ASPECT).is_none());
        assert!(TablePlane::of_cities(&cities(), 1920.0, 0.0).is_none());
        assert!(TablePlane::of_cities(&cities(), 1920.0, f32::NAN).is_none());
    }
}
