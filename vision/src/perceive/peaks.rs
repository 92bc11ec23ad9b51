//! Local maxima of heat maps, shared by the detector and the token finder.

/// Whether cell `(x, y)` of a `gw`-wide, `gh`-high plane is a peak: no cell within `radius`
/// (a square window) is higher, and of equal cells the first in scan order wins, so a flat
/// top gives one peak.
pub fn is_peak(plane: &[f32], gw: usize, gh: usize, x: usize, y: usize, radius: i32) -> bool {
    let v = plane[y * gw + x];
    for dy in -radius..=radius {
        for dx in -radius..=radius {
            let (ny, nx) = (y as i32 + dy, x as i32 + dx);
            if (dy, dx) == (0, 0) || ny < 0 || nx < 0 || ny >= gh as i32 || nx >= gw as i32 {
                continue;
            }
            let n = plane[ny as usize * gw + nx as usize];
            if n > v || (n == v && (dy < 0 || (dy == 0 && dx < 0))) {
                return false;
            }
        }
    }
    true
}

/// Where a peak's top really lies, as an offset of -0.5..0.5 cells from cell `(x, y)`: the
/// vertex of the parabola through the cell and its two neighbours, on each axis.
pub fn subcell(plane: &[f32], gw: usize, gh: usize, x: usize, y: usize) -> (f32, f32) {
    let at = |x: usize, y: usize| plane[y * gw + x];
    let vertex = |before: f32, here: f32, after: f32| {
        let curve = before - 2.0 * here + after;
        if curve < -1e-6 {
            (0.5 * (before - after) / curve).clamp(-0.5, 0.5)
        } else {
            0.0
        }
    };
    let dx = if x > 0 && x + 1 < gw {
        vertex(at(x - 1, y), at(x, y), at(x + 1, y))
    } else {
        0.0
    };
    let dy = if y > 0 && y + 1 < gh {
        vertex(at(x, y - 1), at(x, y), at(x, y + 1))
    } else {
        0.0
    };
    (dx, dy)
}

/// The logistic function: a heat map's raw value as a probability.
pub fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sigmoid_maps_logits_to_probabilities() {
        assert!((sigmoid(0.0) - 0.5).abs() < 1e-6);
        assert!(sigmoid(8.0) > 0.999 && sigmoid(-8.0) < 0.001);
        assert!(sigmoid(-200.0) >= 0.0 && sigmoid(200.0) <= 1.0);
    }

    #[test]
    fn one_peak_per_hill_and_per_flat_top() {
        #[rustfmt::skip]
        let plane = [
            0.0, 1.0, 0.0, 0.0,
            0.0, 0.5, 0.0, 2.0,
            3.0, 3.0, 0.0, 0.0,
        ];
        let peaks: Vec<(usize, usize)> = (0..3)
            .flat_map(|y| (0..4).map(move |x| (x, y)))
            .filter(|&(x, y)| is_peak(&plane, 4, 3, x, y, 1))
            .collect();
        assert_eq!(peaks, vec![(1, 0), (3, 1), (0, 2)]);
        // A wider window lets the higher hill swallow the lower one.
        assert!(!is_peak(&plane, 4, 3, 1, 0, 2));
    }

    #[test]
    fn subcell_finds_the_top_between_cells() {
        // Samples of -(x - 2.3)^2 at x = 0..5: the top is 0.3 cells right of cell 2.
        let plane: Vec<f32> = (0..5).map(|x| -((x as f32 - 2.3).powi(2))).collect();
        let (dx, dy) = subcell(&plane, 5, 1, 2, 0);
        assert!((dx - 0.3).abs() < 1e-4, "{dx}");
        assert_eq!(dy, 0.0);
        // A flat neighbourhood stays at the cell.
        assert_eq!(subcell(&[1.0; 9], 3, 3, 1, 1), (0.0, 0.0));
    }
}
