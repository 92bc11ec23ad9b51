//! JPEG artefacts without a codec: the image goes to YCbCr, chroma is subsampled, every
//! 8x8 block is transformed (DCT), quantised with the standard tables scaled to a quality,
//! and transformed back. Plain `f32` arithmetic, so the result is the same on every machine.

use super::raster::Canvas;

/// The standard luminance quantisation table (ITU T.81, K.1), row by row.
const LUMA: [f32; 64] = [
    16., 11., 10., 16., 24., 40., 51., 61., 12., 12., 14., 19., 26., 58., 60., 55., 14., 13., 16.,
    24., 40., 57., 69., 56., 14., 17., 22., 29., 51., 87., 80., 62., 18., 22., 37., 56., 68., 109.,
    103., 77., 24., 35., 55., 64., 81., 104., 113., 92., 49., 64., 78., 87., 103., 121., 120.,
    101., 72., 92., 95., 98., 112., 100., 103., 99.,
];

/// The standard chrominance quantisation table (ITU T.81, K.2).
const CHROMA: [f32; 64] = [
    17., 18., 24., 47., 99., 99., 99., 99., 18., 21., 26., 66., 99., 99., 99., 99., 24., 26., 56.,
    99., 99., 99., 99., 99., 47., 66., 99., 99., 99., 99., 99., 99., 99., 99., 99., 99., 99., 99.,
    99., 99., 99., 99., 99., 99., 99., 99., 99., 99., 99., 99., 99., 99., 99., 99., 99., 99., 99.,
    99., 99., 99., 99., 99., 99., 99.,
];

fn table(base: &[f32; 64], quality: u32) -> [f32; 64] {
    let q = quality.clamp(1, 100) as f32;
    let s = if q < 50.0 {
        5000.0 / q
    } else {
        200.0 - 2.0 * q
    };
    base.map(|v| ((v * s + 50.0) / 100.0).floor().clamp(1.0, 255.0))
}

fn cos_table() -> [[f32; 8]; 8] {
    let mut c = [[0.0; 8]; 8];
    for (k, row) in c.iter_mut().enumerate() {
        let a = if k == 0 {
            (1.0f32 / 8.0).sqrt()
        } else {
            (2.0f32 / 8.0).sqrt()
        };
        for (n, v) in row.iter_mut().enumerate() {
            *v = a * ((std::f32::consts::PI * (2 * n + 1) as f32 * k as f32) / 16.0).cos();
        }
    }
    c
}

/// One plane of samples.
struct Plane {
    w: usize,
    h: usize,
    v: Vec<f32>,
}

#[allow(clippy::needless_range_loop)] // DCT index arithmetic reads best as loops.
fn quantise_plane(p: &mut Plane, q: &[f32; 64], c: &[[f32; 8]; 8]) {
    let mut blk = [0.0f32; 64];
    let mut tmp = [0.0f32; 64];
    for by in (0..p.h).step_by(8) {
        for bx in (0..p.w).step_by(8) {
            for y in 0..8 {
                let sy = (by + y).min(p.h - 1);
                for x in 0..8 {
                    let sx = (bx + x).min(p.w - 1);
                    blk[y * 8 + x] = p.v[sy * p.w + sx] - 128.0;
                }
            }
            // Forward: rows, then columns.
            for y in 0..8 {
                for k in 0..8 {
                    let mut s = 0.0;
                    for n in 0..8 {
                        s += c[k][n] * blk[y * 8 + n];
                    }
                    tmp[y * 8 + k] = s;
                }
            }
            for x in 0..8 {
                for k in 0..8 {
                    let mut s = 0.0;
                    for n in 0..8 {
                        s += c[k][n] * tmp[n * 8 + x];
                    }
                    blk[k * 8 + x] = s;
                }
            }
            for i in 0..64 {
                blk[i] = super::draw::ffloor(blk[i] / q[i] + 0.5) * q[i];
            }
            // Inverse: columns, then rows.
            for x in 0..8 {
                for n in 0..8 {
                    let mut s = 0.0;
                    for k in 0..8 {
                        s += c[k][n] * blk[k * 8 + x];
                    }
                    tmp[n * 8 + x] = s;
                }
            }
            for y in 0..8 {
                let sy = by + y;
                if sy >= p.h {
                    break;
                }
                for n in 0..8 {
                    let sx = bx + n;
                    if sx >= p.w {
                        break;
                    }
                    let mut s = 0.0;
                    for k in 0..8 {
                        s += c[k][n] * tmp[y * 8 + k];
                    }
                    p.v[sy * p.w + sx] = s + 128.0;
                }
            }
        }
    }
}

/// Applies JPEG-like compression at `quality` (1-100), with 4:2:0 chroma when `subsample`.
pub fn compress(canvas: &mut Canvas, quality: u32, subsample: bool) {
    let (w, h) = (canvas.w, canvas.h);
    if w == 0 || h == 0 {
        return;
    }
    let mut y = Plane {
        w,
        h,
        v: vec![0.0; w * h],
    };
    let (cw, ch) = if subsample {
        (w.div_ceil(2), h.div_ceil(2))
    } else {
        (w, h)
    };
    let mut cb = Plane {
        w: cw,
        h: ch,
        v: vec![0.0; cw * ch],
    };
    let mut cr = Plane {
        w: cw,
        h: ch,
        v: vec![0.0; cw * ch],
    };
    let f = if subsample { 0.25 } else { 1.0 };
    for py in 0..h {
        for px in 0..w {
            let p = canvas.px[py * w + px];
            let (r, g, b) = (
                super::draw::ffloor(p[0].clamp(0.0, 1.0) * 255.0 + 0.5),
                super::draw::ffloor(p[1].clamp(0.0, 1.0) * 255.0 + 0.5),
                super::draw::ffloor(p[2].clamp(0.0, 1.0) * 255.0 + 0.5),
            );
            y.v[py * w + px] = 0.299 * r + 0.587 * g + 0.114 * b;
            let ci = if subsample {
                (py / 2) * cw + px / 2
            } else {
                py * w + px
            };
            cb.v[ci] += f * (128.0 - 0.168_736 * r - 0.331_264 * g + 0.5 * b);
            cr.v[ci] += f * (128.0 + 0.5 * r - 0.418_688 * g - 0.081_312 * b);
        }
    }
    if subsample {
        // Edge cells of odd sizes received fewer than four samples.
        for cy in 0..ch {
            for cx in 0..cw {
                let nx = if 2 * cx + 1 < w { 2 } else { 1 };
                let ny = if 2 * cy + 1 < h { 2 } else { 1 };
                let k = 4.0 / (nx * ny) as f32;
                cb.v[cy * cw + cx] *= k;
                cr.v[cy * cw + cx] *= k;
            }
        }
    }
    let c = cos_table();
    quantise_plane(&mut y, &table(&LUMA, quality), &c);
    let cq = table(&CHROMA, quality);
    quantise_plane(&mut cb, &cq, &c);
    quantise_plane(&mut cr, &cq, &c);
    for py in 0..h {
        for px in 0..w {
            let ci = if subsample {
                (py / 2) * cw + px / 2
            } else {
                py * w + px
            };
            let yy = y.v[py * w + px];
            let b = cb.v[ci] - 128.0;
            let r = cr.v[ci] - 128.0;
            let out = [
                yy + 1.402 * r,
                yy - 0.344_136 * b - 0.714_136 * r,
                yy + 1.772 * b,
            ];
            canvas.px[py * w + px] = out.map(|v| (v / 255.0).clamp(0.0, 1.0));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn high_quality_keeps_the_image_and_low_quality_blocks_it() {
        let mut c = Canvas::new(33, 17);
        for (i, p) in c.px.iter_mut().enumerate() {
            let v = ((i * 37) % 255) as f32 / 255.0;
            *p = [v, 1.0 - v, 0.5];
        }
        let orig = c.clone();
        let mut hi = c.clone();
        compress(&mut hi, 98, false);
        let err = |a: &Canvas| -> f32 {
            a.px.iter()
                .zip(&orig.px)
                .map(|(x, y)| (x[0] - y[0]).abs() + (x[1] - y[1]).abs())
                .sum::<f32>()
                / a.px.len() as f32
        };
        assert!(err(&hi) < 0.03, "{}", err(&hi));
        compress(&mut c, 10, true);
        assert!(err(&c) > err(&hi));
    }
}
