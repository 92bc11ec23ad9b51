//! Image resampling shared by inference and the training-data exporter, so that both see
//! exactly the same pixels: an area-average resize and a quadrilateral rectifier.

use image::RgbImage;

mod avx2;

/// Resizes by averaging each output pixel's footprint (a box filter), which is the right
/// filter for the large reductions here (1920 to 512 wide). Source pixels the footprint
/// covers in part count by the share covered.
///
/// Rows are reduced first (whole source rows weighted and summed, which vectorises), then
/// columns; a large output is cut into bands of rows, one per core ([`super::par`]).
pub fn area_resize(src: &RgbImage, w: u32, h: u32) -> RgbImage {
    let (sw, sh) = src.dimensions();
    if sw == 0 || sh == 0 || w == 0 || h == 0 {
        return RgbImage::new(w.max(1), h.max(1));
    }
    let cols = spans(sw, w);
    let rows = spans(sh, h);
    let band = |ys: &[usize]| -> Vec<u8> {
        let (sw, w) = (sw as usize, w as usize);
        let raw = src.as_raw();
        let mut line = vec![0f32; sw * 3];
        let mut out = Vec::with_capacity(ys.len() * w * 3);
        for &y in ys {
            line.fill(0.0);
            for &(sy, wt) in &rows[y] {
                for (acc, &p) in line.iter_mut().zip(&raw[sy * sw * 3..(sy + 1) * sw * 3]) {
                    *acc += f32::from(p) * wt;
                }
            }
            for span in &cols {
                let mut acc = [0f32; 3];
                for &(sx, wt) in span {
                    let p = &line[sx * 3..sx * 3 + 3];
                    acc[0] += p[0] * wt;
                    acc[1] += p[1] * wt;
                    acc[2] += p[2] * wt;
                }
                out.extend(acc.map(q));
            }
        }
        out
    };
    let ys: Vec<usize> = (0..h as usize).collect();
    // Bands of fewer output pixels than this are not worth a thread.
    const BAND_PIXELS: usize = 16_384;
    let min_rows = BAND_PIXELS.div_ceil(w as usize);
    let raw = super::par::shares(&ys, min_rows, band).concat();
    RgbImage::from_raw(w, h, raw).unwrap_or_else(|| RgbImage::new(w, h))
}

fn q(v: f32) -> u8 {
    v.round().clamp(0.0, 255.0) as u8
}

/// For each output index, the source indices and weights that cover it.
fn spans(src: u32, dst: u32) -> Vec<Vec<(usize, f32)>> {
    let scale = src as f32 / dst as f32;
    (0..dst)
        .map(|i| {
            let a = i as f32 * scale;
            let b = ((i + 1) as f32 * scale).min(src as f32);
            let mut v = Vec::new();
            let mut s = a.floor() as usize;
            while (s as f32) < b && s < src as usize {
                let lo = a.max(s as f32);
                let hi = b.min(s as f32 + 1.0);
                if hi > lo {
                    v.push((s, (hi - lo) / (b - a)));
                }
                s += 1;
            }
            if v.is_empty() {
                v.push(((a as usize).min(src as usize - 1), 1.0));
            }
            v
        })
        .collect()
}

/// An image's pixels for fast sampling: its bytes, row stride and last column and row.
struct Pixels<'a> {
    raw: &'a [u8],
    stride: usize,
    last_x: u32,
    last_y: u32,
}

impl<'a> Pixels<'a> {
    /// `None` for an empty image.
    fn of(src: &'a RgbImage) -> Option<Pixels<'a>> {
        let (w, h) = src.dimensions();
        (w > 0 && h > 0).then(|| Pixels {
            raw: src.as_raw(),
            stride: w as usize * 3,
            last_x: w - 1,
            last_y: h - 1,
        })
    }

    /// Bilinear interpolation at a real position, edges clamped: the mix of the four
    /// pixels around it.
    #[inline(always)]
    fn bilinear(&self, x: f32, y: f32) -> [f32; 3] {
        let x = x.clamp(0.0, self.last_x as f32);
        let y = y.clamp(0.0, self.last_y as f32);
        // Both are clamped to 0 or more (or NaN, which casts to 0 as its floor would), so
        // the cast is their floor, without a call to `floorf` on baseline x86-64.
        let x0 = x as u32;
        let y0 = y as u32;
        let right = if x0 < self.last_x { 3 } else { 0 };
        let down = if y0 < self.last_y { self.stride } else { 0 };
        let fx = x - x0 as f32;
        let fy = y - y0 as f32;
        let at = y0 as usize * self.stride + x0 as usize * 3;
        let px = |o: usize| -> [u8; 3] {
            let p = &self.raw[o..o + 3];
            [p[0], p[1], p[2]]
        };
        let (a, b, c, d) = (px(at), px(at + right), px(at + down), px(at + down + right));
        let mut out = [0f32; 3];
        for i in 0..3 {
            let top = f32::from(a[i]) * (1.0 - fx) + f32::from(b[i]) * fx;
            let bot = f32::from(c[i]) * (1.0 - fx) + f32::from(d[i]) * fx;
            out[i] = top * (1.0 - fy) + bot * fy;
        }
        out
    }
}

/// Maps the unit square onto a quadrilateral (corners clockwise from the top-left): the
/// projective transform as a 3x3 matrix, or `None` for a degenerate quad.
pub fn unit_square_to_quad(q: &[[f32; 2]; 4]) -> Option<[[f64; 3]; 3]> {
    let [p0, p1, p2, p3] = q.map(|p| [f64::from(p[0]), f64::from(p[1])]);
    let sx = p0[0] - p1[0] + p2[0] - p3[0];
    let sy = p0[1] - p1[1] + p2[1] - p3[1];
    let dx1 = p1[0] - p2[0];
    let dx2 = p3[0] - p2[0];
    let dy1 = p1[1] - p2[1];
    let dy2 = p3[1] - p2[1];
    let det = dx1 * dy2 - dx2 * dy1;
    if det.abs() < 1e-9 || !det.is_finite() {
        return None;
    }
    let g = (sx * dy2 - dx2 * sy) / det;
    let h = (dx1 * sy - sx * dy1) / det;
    Some([
        [p1[0] - p0[0] + g * p1[0], p3[0] - p0[0] + h * p3[0], p0[0]],
        [p1[1] - p0[1] + g * p1[1], p3[1] - p0[1] + h * p3[1], p0[1]],
        [g, h, 1.0],
    ])
}

/// The inverse of a 3x3 transform, if it has one.
pub fn invert(m: &[[f64; 3]; 3]) -> Option<[[f64; 3]; 3]> {
    let [[a, b, c], [d, e, f], [g, h, i]] = *m;
    let det = a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g);
    if det.abs() < 1e-12 || !det.is_finite() {
        return None;
    }
    Some([
        [
            (e * i - f * h) / det,
            (c * h - b * i) / det,
            (b * f - c * e) / det,
        ],
        [
            (f * g - d * i) / det,
            (a * i - c * g) / det,
            (c * d - a * f) / det,
        ],
        [
            (d * h - e * g) / det,
            (b * g - a * h) / det,
            (a * e - b * d) / det,
        ],
    ])
}

/// Applies a 3x3 projective transform to a point.
#[inline]
pub fn apply(m: &[[f64; 3]; 3], u: f64, v: f64) -> (f64, f64) {
    let w = m[2][0] * u + m[2][1] * v + m[2][2];
    let w = if w.abs() < 1e-12 { 1e-12 } else { w };
    (
        (m[0][0] * u + m[0][1] * v + m[0][2]) / w,
        (m[1][0] * u + m[1][1] * v + m[1][2]) / w,
    )
}

/// Cuts the quadrilateral `quad` (image points, clockwise from the piece's top-left) out
/// of `src` into an upright `w` x `h` image, averaging 2x2 samples per output pixel.
///
/// Every sample is [`apply`] of the transform then bilinear interpolation, with the
/// transform's arithmetic in the same order (the products of a row's and a column's
/// coordinate are taken once, not once a sample), so the crop is exactly what those two
/// give. On a processor with AVX2 the samples are taken eight at a time
/// (`resample/avx2.rs`), with the same operations in the same order, so the crop is the
/// same to the bit.
pub fn rectify(src: &RgbImage, quad: &[[f32; 2]; 4], w: u32, h: u32) -> RgbImage {
    rectify_with(src, quad, w, h, avx2::usable(src.as_raw().len()))
}

/// [`rectify`], eight samples at a time if `wide` (which only [`avx2::usable`] may say).
fn rectify_with(src: &RgbImage, quad: &[[f32; 2]; 4], w: u32, h: u32, wide: bool) -> RgbImage {
    let mut out = RgbImage::new(w, h);
    let Some(m) = unit_square_to_quad(quad) else {
        return out;
    };
    let Some(pixels) = Pixels::of(src) else {
        return out;
    };
    let transform = Transform::new(&m, w);
    let n = 2 * w as usize;
    let mut upper = Samples::new(n);
    let mut lower = Samples::new(n);
    for (y, px_row) in out.chunks_exact_mut(w as usize * 3).enumerate() {
        let v = |o: f64| (y as f64 + o) / f64::from(h);
        for (half, v) in [(&mut upper, v(0.25)), (&mut lower, v(0.75))] {
            let row = [m[0][1] * v, m[1][1] * v, m[2][1] * v];
            let done = if wide {
                // SAFETY: `usable` checked that the processor has AVX2 and that every
                // byte offset into the source fits an `i32`.
                unsafe { avx2::sample_row(&pixels, &transform, &row, half) }
            } else {
                0
            };
            half.take_plain(done..n, &pixels, &transform, &row);
        }
        let done = if wide {
            // SAFETY: as above.
            unsafe { avx2::average_row(&upper, &lower, px_row) }
        } else {
            0
        };
        for (x, px) in px_row.chunks_exact_mut(3).enumerate().skip(done) {
            px.copy_from_slice(&average(&upper, &lower, x, w as usize));
        }
    }
    out
}

/// The projective transform of a crop, with each sample column's products taken once.
/// Columns are kept in two runs: first every pixel's left sample (a quarter pixel in),
/// then every pixel's right one, so that a pixel's two samples lie `w` apart.
struct Transform {
    /// The transform's first, second and third rows times each column's `u`.
    columns: [Vec<f64>; 3],
    /// The transform's third column (the translation and the constant of the divisor).
    constant: [f64; 3],
}

impl Transform {
    fn new(m: &[[f64; 3]; 3], w: u32) -> Transform {
        let us: Vec<f64> = [0.25, 0.75]
            .iter()
            .flat_map(|o| (0..w).map(move |x| (f64::from(x) + o) / f64::from(w)))
            .collect();
        Transform {
            columns: [0, 1, 2].map(|k| us.iter().map(|u| m[k][0] * u).collect()),
            constant: [m[0][2], m[1][2], m[2][2]],
        }
    }

    /// Where sample column `i` of a sample row (the transform's second column times the
    /// row's `v`) falls in the source, in pixel centres.
    #[inline(always)]
    fn position(&self, i: usize, row: &[f64; 3]) -> (f32, f32) {
        let [cx, cy, cz] = &self.columns;
        let wz = cz[i] + row[2] + self.constant[2];
        let wz = if wz.abs() < 1e-12 { 1e-12 } else { wz };
        (
            ((cx[i] + row[0] + self.constant[0]) / wz) as f32 - 0.5,
            ((cy[i] + row[1] + self.constant[1]) / wz) as f32 - 0.5,
        )
    }
}

/// One row of samples, a run of values per colour channel.
struct Samples {
    channels: [Vec<f32>; 3],
}

impl Samples {
    fn new(n: usize) -> Samples {
        Samples {
            channels: [vec![0.0; n], vec![0.0; n], vec![0.0; n]],
        }
    }

    /// Takes the samples `columns` of a sample row (the transform's second column times
    /// the row's `v`) one at a time: where each falls, then the bilinear mix there.
    #[inline(always)]
    fn take_plain(
        &mut self,
        columns: std::ops::Range<usize>,
        pixels: &Pixels,
        transform: &Transform,
        row: &[f64; 3],
    ) {
        for i in columns {
            let (x, y) = transform.position(i, row);
            for (c, v) in self.channels.iter_mut().zip(pixels.bilinear(x, y)) {
                c[i] = v;
            }
        }
    }
}

/// Output pixel `x` of `w`: the mean of its four samples, upper left and right, then lower.
#[inline(always)]
fn average(upper: &Samples, lower: &Samples, x: usize, w: usize) -> [u8; 3] {
    [0, 1, 2].map(|c| {
        let (u, l) = (&upper.channels[c], &lower.channels[c]);
        let mut acc = 0f32;
        for p in [u[x], u[w + x], l[x], l[w + x]] {
            acc += p * 0.25;
        }
        q(acc)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::Rgb;

    /// Bilinear interpolation the plain way (edges clamp), pixel by pixel: the reference
    /// that `Pixels` must match to the bit.
    fn bilinear(src: &RgbImage, x: f32, y: f32) -> [f32; 3] {
        let (w, h) = src.dimensions();
        let x = x.clamp(0.0, (w - 1) as f32);
        let y = y.clamp(0.0, (h - 1) as f32);
        let x0 = x.floor() as u32;
        let y0 = y.floor() as u32;
        let x1 = (x0 + 1).min(w - 1);
        let y1 = (y0 + 1).min(h - 1);
        let fx = x - x0 as f32;
        let fy = y - y0 as f32;
        let p = |xx, yy| src.get_pixel(xx, yy).0;
        let (a, b, c, d) = (p(x0, y0), p(x1, y0), p(x0, y1), p(x1, y1));
        let mut out = [0f32; 3];
        for i in 0..3 {
            let top = f32::from(a[i]) * (1.0 - fx) + f32::from(b[i]) * fx;
            let bot = f32::from(c[i]) * (1.0 - fx) + f32::from(d[i]) * fx;
            out[i] = top * (1.0 - fy) + bot * fy;
        }
        out
    }

    /// `rectify` the plain way: each sample through `apply` and the plain `bilinear`.
    fn rectify_by_samples(src: &RgbImage, quad: &[[f32; 2]; 4], w: u32, h: u32) -> RgbImage {
        let mut out = RgbImage::new(w, h);
        let Some(m) = unit_square_to_quad(quad) else {
            return out;
        };
        for y in 0..h {
            for x in 0..w {
                let mut acc = [0f32; 3];
                for (ox, oy) in [(0.25, 0.25), (0.75, 0.25), (0.25, 0.75), (0.75, 0.75)] {
                    let u = (f64::from(x) + ox) / f64::from(w);
                    let v = (f64::from(y) + oy) / f64::from(h);
                    let (sx, sy) = apply(&m, u, v);
                    let p = bilinear(src, sx as f32 - 0.5, sy as f32 - 0.5);
                    for c in 0..3 {
                        acc[c] += p[c] * 0.25;
                    }
                }
                out.put_pixel(x, y, Rgb([q(acc[0]), q(acc[1]), q(acc[2])]));
            }
        }
        out
    }

    #[test]
    fn rectify_is_exactly_apply_then_bilinear() {
        let img = RgbImage::from_fn(211, 157, |x, y| {
            let n = (x.wrapping_mul(2_654_435_761) ^ y.wrapping_mul(40_503)) % 251;
            Rgb([
                ((x * 5 + y * 3) % 256) as u8,
                n as u8,
                ((x ^ y) % 256) as u8,
            ])
        });
        let quads = [
            // Tilted, in perspective, partly off the picture, and a tiny one.
            [[30.5, 20.25], [120.0, 35.0], [110.7, 150.2], [15.0, 131.0]],
            [[-20.0, -10.0], [90.0, 5.0], [80.0, 120.0], [-30.0, 100.0]],
            [
                [200.0, 150.0],
                [260.0, 150.0],
                [260.0, 230.0],
                [200.0, 230.0],
            ],
            [[50.0, 50.0], [52.0, 50.5], [51.5, 53.0], [49.5, 52.5]],
        ];
        for quad in quads {
            for (w, h) in [(40, 56), (48, 64), (7, 3)] {
                assert_eq!(
                    rectify(&img, &quad, w, h),
                    rectify_by_samples(&img, &quad, w, h),
                    "{quad:?} at {w}x{h}"
                );
            }
        }
    }

    #[test]
    fn eight_samples_at_a_time_give_the_same_crop_to_the_bit() {
        if !avx2::usable(0) {
            eprintln!("no AVX2 here: only the plain loops run");
            return;
        }
        // Busy pictures, one a single pixel high and one a single pixel wide, cut by quads
        // inside them, across their edges, over their last pixel, far off them, tiny,
        // turned and in steep perspective, into sizes that leave runs of every length.
        let busy = |w: u32, h: u32| {
            RgbImage::from_fn(w, h, |x, y| {
                let n = (x.wrapping_mul(2_654_435_761) ^ y.wrapping_mul(40_503)) % 251;
                Rgb([
                    ((x * 5 + y * 3) % 256) as u8,
                    n as u8,
                    ((x ^ y) % 256) as u8,
                ])
            })
        };
        let mut seed = 7u64;
        let mut next = move |lo: f32, hi: f32| {
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            lo + (hi - lo) * ((seed >> 40) as f32 / (1u64 << 24) as f32)
        };
        for (iw, ih) in [(211, 157), (1, 9), (9, 1), (2, 2)] {
            let img = busy(iw, ih);
            let (fw, fh) = (iw as f32, ih as f32);
            let mut quads = vec![
                [[0.0, 0.0], [fw, 0.0], [fw, fh], [0.0, fh]],
                [
                    [fw - 1.0, fh - 1.0],
                    [fw + 3.0, fh - 1.0],
                    [fw + 3.0, fh + 3.0],
                    [fw - 1.0, fh + 3.0],
                ],
                [[-1e6, -1e6], [1e6, -1e6], [1e6, 1e6], [-1e6, 1e6]],
                [[1.0, 1.0], [1.0001, 1.0], [1.0001, 1.0001], [1.0, 1.0001]],
                [[10.0, 10.0], [500.0, 30.0], [11.0, 12.0], [9.0, 11.0]],
            ];
            for _ in 0..40 {
                let (cx, cy) = (next(-0.3 * fw, 1.3 * fw), next(-0.3 * fh, 1.3 * fh));
                let (s, a) = (next(1.0, 0.8 * fw.max(fh)), next(0.0, 6.3));
                let tilt = next(0.5, 1.5);
                quads.push([0.0f32, 1.0, 2.0, 3.0].map(|k| {
                    let t = a + k * std::f32::consts::FRAC_PI_2;
                    let r = if k < 2.0 { s } else { s * tilt };
                    [cx + r * t.cos(), cy + r * t.sin()]
                }));
            }
            for quad in &quads {
                for (w, h) in [(40, 56), (48, 64), (7, 3), (1, 1), (12, 5), (64, 64)] {
                    assert_eq!(
                        rectify_with(&img, quad, w, h, true),
                        rectify_with(&img, quad, w, h, false),
                        "{iw}x{ih} picture, {quad:?} at {w}x{h}"
                    );
                }
            }
        }
    }

    #[test]
    fn area_resize_keeps_flat_colour_and_halves_a_checker() {
        let flat = RgbImage::from_pixel(40, 30, Rgb([10, 200, 90]));
        let r = area_resize(&flat, 13, 7);
        assert!(r.pixels().all(|p| p.0 == [10, 200, 90]));
        let checker = RgbImage::from_fn(8, 8, |x, y| {
            if (x + y) % 2 == 0 {
                Rgb([255, 255, 255])
            } else {
                Rgb([0, 0, 0])
            }
        });
        let r = area_resize(&checker, 4, 4);
        assert!(r.pixels().all(|p| (127..=128).contains(&p.0[0])));
    }

    #[test]
    fn area_resize_is_the_average_over_each_footprint() {
        // A busy picture (stripes, gradients, noise) reduced by uneven factors, checked
        // against the footprint average worked out pixel by pixel in two dimensions.
        let img = RgbImage::from_fn(150, 90, |x, y| {
            let n = (x.wrapping_mul(2_654_435_761) ^ y.wrapping_mul(40_503)) % 97;
            Rgb([
                ((x * 7 + y) % 256) as u8,
                if (x / 3 + y / 5) % 2 == 0 { 230 } else { 20 },
                (n * 2) as u8,
            ])
        });
        for (w, h) in [(40, 24), (64, 30), (37, 17), (150, 45)] {
            let r = area_resize(&img, w, h);
            let (fx, fy) = (150.0 / w as f64, 90.0 / h as f64);
            for (x, y, p) in r.enumerate_pixels() {
                let (x0, x1) = (x as f64 * fx, (x + 1) as f64 * fx);
                let (y0, y1) = (y as f64 * fy, (y + 1) as f64 * fy);
                let mut acc = [0f64; 3];
                for sy in y0.floor() as u32..(y1.ceil() as u32).min(90) {
                    let cy = (y1.min(sy as f64 + 1.0) - y0.max(sy as f64)).max(0.0);
                    for sx in x0.floor() as u32..(x1.ceil() as u32).min(150) {
                        let cx = (x1.min(sx as f64 + 1.0) - x0.max(sx as f64)).max(0.0);
                        for (c, a) in acc.iter_mut().enumerate() {
                            *a += f64::from(img.get_pixel(sx, sy).0[c]) * cx * cy;
                        }
                    }
                }
                for (c, sum) in acc.iter().enumerate() {
                    let want = sum / (fx * fy);
                    assert!(
                        (f64::from(p.0[c]) - want).abs() <= 0.51,
                        "{w}x{h} at ({x},{y}) channel {c}: {} against {want}",
                        p.0[c]
                    );
                }
            }
        }
    }

    #[test]
    fn area_resize_of_a_large_frame_in_bands_matches_one_band() {
        // Large enough to be split over the cores; every band must join up seamlessly.
        let img = RgbImage::from_fn(960, 540, |x, y| {
            Rgb([(x % 251) as u8, (y % 241) as u8, ((x ^ y) % 256) as u8])
        });
        let whole = area_resize(&img, 512, 288);
        let top = area_resize(
            &image::imageops::crop_imm(&img, 0, 0, 960, 270).to_image(),
            512,
            144,
        );
        assert_eq!(whole.dimensions(), (512, 288));
        for (a, b) in image::imageops::crop_imm(&whole, 0, 0, 512, 144)
            .to_image()
            .pixels()
            .zip(top.pixels())
        {
            assert_eq!(a, b);
        }
    }

    #[test]
    fn rectify_of_the_whole_image_is_a_resize_and_a_half_turn_reverses_it() {
        let img = RgbImage::from_fn(40, 56, |x, y| Rgb([(x * 6) as u8, (y * 4) as u8, 50]));
        let quad = [[0.0, 0.0], [40.0, 0.0], [40.0, 56.0], [0.0, 56.0]];
        let r = rectify(&img, &quad, 40, 56);
        for (a, b) in r.pixels().zip(img.pixels()) {
            for c in 0..3 {
                assert!((i32::from(a.0[c]) - i32::from(b.0[c])).abs() <= 3);
            }
        }
        let turned = [quad[2], quad[3], quad[0], quad[1]];
        let t = rectify(&img, &turned, 40, 56);
        let p = t.get_pixel(0, 0).0;
        let q = img.get_pixel(39, 55).0;
        assert!(
            (i32::from(p[0]) - i32::from(q[0])).abs() <= 6,
            "{p:?} {q:?}"
        );
    }

    #[test]
    fn degenerate_quads_give_a_blank_crop_not_a_panic() {
        let img = RgbImage::new(10, 10);
        let r = rectify(&img, &[[1.0, 1.0]; 4], 8, 8);
        assert_eq!(r.dimensions(), (8, 8));
        let r = rectify(
            &img,
            &[[f32::NAN, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]],
            8,
            8,
        );
        assert_eq!(r.dimensions(), (8, 8));
    }
}
