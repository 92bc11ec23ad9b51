//! Value noise: a small random tile sampled smoothly, summed over octaves (fractal noise).
//! Used for table surfaces, artwork and light.

use super::seeds::FastRng;

const N: usize = 64;
const MASK: usize = N - 1;

/// A tiling grid of random values in [0, 1], sampled with smooth interpolation.
#[derive(Debug, Clone)]
pub struct Noise {
    v: Vec<f32>,
}

impl Noise {
    /// A noise tile from a seed.
    pub fn new(seed: u64) -> Noise {
        let mut r = FastRng::new(seed);
        Noise {
            v: (0..N * N).map(|_| r.unit()).collect(),
        }
    }

    /// Noise at a point, in [0, 1]; one grid cell per unit.
    #[inline]
    pub fn at(&self, x: f32, y: f32) -> f32 {
        let fx = super::draw::ffloor(x);
        let fy = super::draw::ffloor(y);
        let tx = x - fx;
        let ty = y - fy;
        let sx = tx * tx * (3.0 - 2.0 * tx);
        let sy = ty * ty * (3.0 - 2.0 * ty);
        let ix = (fx as i64 as usize) & MASK;
        let iy = (fy as i64 as usize) & MASK;
        let ix1 = (ix + 1) & MASK;
        let iy1 = (iy + 1) & MASK;
        let a = self.v[iy * N + ix];
        let b = self.v[iy * N + ix1];
        let c = self.v[iy1 * N + ix];
        let d = self.v[iy1 * N + ix1];
        let top = a + (b - a) * sx;
        let bot = c + (d - c) * sx;
        top + (bot - top) * sy
    }

    /// Fractal noise: `octaves` layers, each twice the frequency and half the weight; in [0, 1].
    #[inline]
    pub fn fbm(&self, x: f32, y: f32, octaves: u32) -> f32 {
        let mut sum = 0.0;
        let mut amp = 0.5;
        let mut norm = 0.0;
        let (mut x, mut y) = (x, y);
        for i in 0..octaves {
            sum += amp * self.at(x + i as f32 * 17.31, y - i as f32 * 9.71);
            norm += amp;
            amp *= 0.5;
            // Rotate a little between octaves to hide the grid.
            let nx = 1.6 * x + 1.2 * y;
            let ny = -1.2 * x + 1.6 * y;
            x = nx;
            y = ny;
        }
        sum / norm
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn noise_is_bounded_and_continuous() {
        let n = Noise::new(3);
        let mut prev = n.at(0.0, 0.3);
        for i in 1..2000 {
            let x = i as f32 * 0.01;
            let v = n.at(x, 0.3);
            assert!((0.0..=1.0).contains(&v));
            assert!((v - prev).abs() < 0.05);
            prev = v;
        }
        let f = n.fbm(-123.4, 56.7, 4);
        assert!((0.0..=1.0).contains(&f));
    }
}
