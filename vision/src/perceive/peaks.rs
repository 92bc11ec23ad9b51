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

#[cfg(test)]
mod tests {
    use super::*;

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
}
