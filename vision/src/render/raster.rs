//! Compositing onto the photo: a floating-point canvas, face textures with a mip pyramid,
//! and inverse warping of a piece through its homography with bilinear sampling and
//! anti-aliased outlines; soft shadows and flat polygons.

use super::draw::Rgb;
use super::faces::PieceShape;
use super::geom::Mat3;
use image::RgbImage;

/// The photo being composed: RGB in [0, 1], row by row.
#[derive(Debug, Clone)]
pub struct Canvas {
    /// Width in pixels.
    pub w: usize,
    /// Height in pixels.
    pub h: usize,
    /// Pixels.
    pub px: Vec<Rgb>,
}

impl Canvas {
    /// A black canvas.
    pub fn new(w: usize, h: usize) -> Canvas {
        Canvas {
            w,
            h,
            px: vec![[0.0; 3]; w * h],
        }
    }

    /// Quantises to an 8-bit image.
    pub fn to_image(&self) -> RgbImage {
        super::draw::quantised(self.w, self.h, &self.px)
    }

    /// The pixel box (x0, y0, x1, y1), exclusive ends, covering image points, grown by
    /// `pad` pixels and clipped to the canvas.
    pub fn span(&self, pts: &[(f64, f64)], pad: f64) -> Option<(usize, usize, usize, usize)> {
        let mut lo = (f64::MAX, f64::MAX);
        let mut hi = (f64::MIN, f64::MIN);
        for &(x, y) in pts {
            if !x.is_finite() || !y.is_finite() {
                return None;
            }
            lo = (lo.0.min(x), lo.1.min(y));
            hi = (hi.0.max(x), hi.1.max(y));
        }
        let x0 = (lo.0 - pad).floor().max(0.0);
        let y0 = (lo.1 - pad).floor().max(0.0);
        let x1 = ((hi.0 + pad).ceil() + 1.0).min(self.w as f64);
        let y1 = ((hi.1 + pad).ceil() + 1.0).min(self.h as f64);
        (x1 > x0 && y1 > y0).then_some((x0 as usize, y0 as usize, x1 as usize, y1 as usize))
    }
}

/// One level of a texture.
#[derive(Debug, Clone)]
pub struct Level {
    w: usize,
    h: usize,
    /// Texels per face millimetre.
    density: f32,
    data: Vec<[u8; 3]>,
}

impl Level {
    /// Bilinear sample at face millimetres `(u, v)`, clamped at the edges.
    #[inline]
    pub fn sample(&self, u: f32, v: f32) -> Rgb {
        let x = (u * self.density - 0.5).clamp(0.0, (self.w - 1) as f32);
        let y = (v * self.density - 0.5).clamp(0.0, (self.h - 1) as f32);
        let x0 = x as usize;
        let y0 = y as usize;
        let x1 = (x0 + 1).min(self.w - 1);
        let y1 = (y0 + 1).min(self.h - 1);
        let tx = x - x0 as f32;
        let ty = y - y0 as f32;
        let a = self.data[y0 * self.w + x0];
        let b = self.data[y0 * self.w + x1];
        let c = self.data[y1 * self.w + x0];
        let d = self.data[y1 * self.w + x1];
        let mut out = [0.0; 3];
        for i in 0..3 {
            let (a, b, c, d) = (
                f32::from(a[i]),
                f32::from(b[i]),
                f32::from(c[i]),
                f32::from(d[i]),
            );
            let top = a + (b - a) * tx;
            let bot = c + (d - c) * tx;
            out[i] = (top + (bot - top) * ty) * (1.0 / 255.0);
        }
        out
    }
}

/// A face image with its mip pyramid, addressed in face millimetres.
#[derive(Debug, Clone)]
pub struct Texture {
    levels: Vec<Level>,
}

impl Texture {
    /// A texture from a face image painted at `density` pixels per millimetre.
    pub fn new(img: &RgbImage, density: f32) -> Texture {
        let (w, h) = (img.width() as usize, img.height() as usize);
        let data: Vec<[u8; 3]> = img.pixels().map(|p| p.0).collect();
        let mut levels = vec![Level {
            w: w.max(1),
            h: h.max(1),
            density,
            data: if data.is_empty() {
                vec![[128; 3]]
            } else {
                data
            },
        }];
        while let Some(last) = levels.last() {
            if last.w < 16 || last.h < 16 {
                break;
            }
            let (nw, nh) = (last.w / 2, last.h / 2);
            let mut d = Vec::with_capacity(nw * nh);
            for y in 0..nh {
                for x in 0..nw {
                    let mut s = [2u16; 3];
                    for (dx, dy) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
                        let p = last.data[(2 * y + dy) * last.w + 2 * x + dx];
                        for i in 0..3 {
                            s[i] += u16::from(p[i]);
                        }
                    }
                    d.push(s.map(|v| (v / 4) as u8));
                }
            }
            let density = last.density * nw as f32 / last.w as f32;
            levels.push(Level {
                w: nw,
                h: nh,
                density,
                data: d,
            });
        }
        Texture { levels }
    }

    /// The coarsest level that still has at least one texel per image pixel.
    pub fn level(&self, px_per_mm: f32) -> &Level {
        let mut best = &self.levels[0];
        for l in &self.levels {
            if l.density >= px_per_mm * 0.9 {
                best = l;
            }
        }
        best
    }

    /// Texels per millimetre of the finest level.
    pub fn density(&self) -> f32 {
        self.levels[0].density
    }

    /// Memory held by all levels, in bytes.
    pub fn bytes(&self) -> usize {
        self.levels.iter().map(|l| l.data.len() * 3).sum()
    }
}

/// Per-pixel map from image to face coordinates, stepped along rows.
struct Inverse {
    m: [[f64; 3]; 3],
}

impl Inverse {
    #[inline]
    fn row(&self, x0: f64, y: f64) -> (f64, f64, f64) {
        let m = &self.m;
        (
            m[0][0] * x0 + m[0][1] * y + m[0][2],
            m[1][0] * x0 + m[1][1] * y + m[1][2],
            m[2][0] * x0 + m[2][1] * y + m[2][2],
        )
    }
}

/// Calls `paint(pixel, u, v)` on each pixel of the canvas box `(x0, y0, x1, y1)` (exclusive
/// ends) that the inverse homography `inv` takes to a point in front of the camera, with
/// that point of the face (`u`, `v`, millimetres), stepping along each row.
fn for_each_face_point(
    canvas: &mut Canvas,
    inv: &Inverse,
    (x0, y0, x1, y1): (usize, usize, usize, usize),
    mut paint: impl FnMut(&mut Rgb, f32, f32),
) {
    let w = canvas.w;
    for py in y0..y1 {
        let (mut xn, mut yn, mut wn) = inv.row(x0 as f64, py as f64);
        let row = &mut canvas.px[py * w..(py + 1) * w];
        for p in row.iter_mut().take(x1).skip(x0) {
            if wn > 1e-12 {
                paint(p, (xn / wn) as f32, (yn / wn) as f32);
            }
            xn += inv.m[0][0];
            yn += inv.m[1][0];
            wn += inv.m[2][0];
        }
    }
}

fn image_corners(h: &Mat3, shape: &PieceShape, grow: f64) -> Option<[(f64, f64); 4]> {
    let (w, hh) = (f64::from(shape.w), f64::from(shape.h));
    Some([
        h.apply(-grow, -grow)?,
        h.apply(w + grow, -grow)?,
        h.apply(w + grow, hh + grow)?,
        h.apply(-grow, hh + grow)?,
    ])
}

/// Draws a face through `h` (face mm to image pixels), clipped to its outline with
/// anti-aliased edges, each colour multiplied by `tint`.
pub fn draw_piece(
    canvas: &mut Canvas,
    h: &Mat3,
    shape: &PieceShape,
    tex: &Texture,
    tint: Rgb,
    alpha: f32,
) {
    draw_with(
        canvas,
        h,
        shape,
        alpha,
        |lvl, u, v| {
            let c = lvl.map_or([0.5; 3], |l| l.sample(u, v));
            [c[0] * tint[0], c[1] * tint[1], c[2] * tint[2]]
        },
        Some(tex),
    );
}

/// Draws a piece whose colour comes from a function of face millimetres.
pub fn draw_fn<F: Fn(f32, f32) -> Rgb>(
    canvas: &mut Canvas,
    h: &Mat3,
    shape: &PieceShape,
    alpha: f32,
    color: F,
) {
    draw_with(canvas, h, shape, alpha, |_, u, v| color(u, v), None);
}

fn draw_with<F>(
    canvas: &mut Canvas,
    h: &Mat3,
    shape: &PieceShape,
    alpha: f32,
    color: F,
    tex: Option<&Texture>,
) where
    F: Fn(Option<&Level>, f32, f32) -> Rgb,
{
    let Some(corners) = image_corners(h, shape, 0.0) else {
        return;
    };
    let Some((x0, y0, x1, y1)) = canvas.span(&corners, 1.5) else {
        return;
    };
    let Some(inv) = h.inverse() else {
        return;
    };
    let (cx, cy) = (f64::from(shape.w) * 0.5, f64::from(shape.h) * 0.5);
    let k = h.local_scale(cx, cy).max(1e-3) as f32;
    let level = tex.map(|t| t.level(k));
    let inv = Inverse { m: inv.0 };
    for_each_face_point(canvas, &inv, (x0, y0, x1, y1), |p, u, v| {
        let cov = (0.5 - shape.sd(u, v) * k).clamp(0.0, 1.0) * alpha;
        if cov > 0.0 {
            let c = color(level, u, v);
            for i in 0..3 {
                p[i] += (c[i] - p[i]) * cov;
            }
        }
    });
}

/// Darkens a soft-edged copy of a piece's outline: its shadow, `soft` pixels wide at the
/// edge, `depth` dark at the core.
pub fn draw_shadow(canvas: &mut Canvas, h: &Mat3, shape: &PieceShape, soft: f32, depth: f32) {
    let soft = soft.max(0.5);
    let (cx, cy) = (f64::from(shape.w) * 0.5, f64::from(shape.h) * 0.5);
    let k = h.local_scale(cx, cy).max(1e-3) as f32;
    let grow = f64::from(soft / k) * 1.2;
    let Some(corners) = image_corners(h, shape, grow) else {
        return;
    };
    let Some((x0, y0, x1, y1)) = canvas.span(&corners, 1.0) else {
        return;
    };
    let Some(inv) = h.inverse() else {
        return;
    };
    let inv = Inverse { m: inv.0 };
    for_each_face_point(canvas, &inv, (x0, y0, x1, y1), |p, u, v| {
        let d = shape.sd(u, v) * k;
        let t = (0.5 - d / soft).clamp(0.0, 1.0);
        let a = t * t * (3.0 - 2.0 * t) * depth;
        if a > 0.0 {
            let m = 1.0 - a;
            p[0] *= m;
            p[1] *= m;
            p[2] *= m;
        }
    });
}

/// Fills a polygon given in image pixels (even-odd rule), anti-aliased by sub-scanlines.
pub fn fill_polygon(canvas: &mut Canvas, pts: &[(f64, f64)], color: Rgb, alpha: f32) {
    if pts.len() < 3 {
        return;
    }
    let Some((x0, y0, x1, y1)) = canvas.span(pts, 1.0) else {
        return;
    };
    let width = x1 - x0;
    let mut cov = vec![0.0f32; width];
    let mut xs: Vec<f64> = Vec::with_capacity(pts.len());
    for py in y0..y1 {
        cov.iter_mut().for_each(|c| *c = 0.0);
        for sub in 0..4 {
            // Pixel centres sit at integers: the pixel spans [py - 0.5, py + 0.5).
            let y = py as f64 - 0.375 + 0.25 * f64::from(sub);
            xs.clear();
            let mut j = pts.len() - 1;
            for i in 0..pts.len() {
                let (xi, yi) = pts[i];
                let (xj, yj) = pts[j];
                if (yi > y) != (yj > y) {
                    xs.push((xj - xi) * (y - yi) / (yj - yi) + xi);
                }
                j = i;
            }
            xs.sort_by(|a, b| a.total_cmp(b));
            for pair in xs.chunks_exact(2) {
                let a = pair[0] + 0.5 - x0 as f64;
                let b = pair[1] + 0.5 - x0 as f64;
                let ia = a.floor().max(0.0) as usize;
                let ib = (b.ceil().max(0.0) as usize).min(width);
                for (k, c) in cov.iter_mut().enumerate().take(ib).skip(ia) {
                    let f = k as f64;
                    *c += ((b.min(f + 1.0) - a.max(f)).clamp(0.0, 1.0) * 0.25) as f32;
                }
            }
        }
        let row = &mut canvas.px[py * canvas.w..(py + 1) * canvas.w];
        for (k, &c) in cov.iter().enumerate() {
            if c > 0.0 {
                let p = &mut row[x0 + k];
                let a = c.min(1.0) * alpha;
                for i in 0..3 {
                    p[i] += (color[i] - p[i]) * a;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::faces::Outline;

    #[test]
    fn a_piece_lands_where_its_homography_says() {
        let mut c = Canvas::new(100, 100);
        let img = RgbImage::from_pixel(60, 60, image::Rgb([255, 0, 0]));
        let tex = Texture::new(&img, 6.0);
        let shape = PieceShape {
            w: 10.0,
            h: 10.0,
            outline: Outline::RoundRect(0.0),
        };
        // 10 mm square scaled by 4 px/mm at (20, 30).
        let h = Mat3::translate(20.0, 30.0).mul(&Mat3::scale(4.0, 4.0));
        draw_piece(&mut c, &h, &shape, &tex, [1.0; 3], 1.0);
        let at = |x: usize, y: usize| c.px[y * 100 + x];
        assert!(at(40, 50)[0] > 0.99);
        assert!(at(21, 31)[0] > 0.99);
        assert!(at(18, 50)[0] < 0.01 && at(40, 71)[0] < 0.01);
    }

    #[test]
    fn mip_levels_halve() {
        let img = RgbImage::from_pixel(64, 32, image::Rgb([10, 20, 30]));
        let tex = Texture::new(&img, 4.0);
        assert_eq!(tex.density(), 4.0);
        assert!((tex.level(1.0).density - 1.0).abs() < 1e-6);
        assert!((tex.level(100.0).density - 4.0).abs() < 1e-6);
    }

    #[test]
    fn polygons_fill_their_inside() {
        let mut c = Canvas::new(50, 50);
        fill_polygon(
            &mut c,
            &[(10.0, 10.0), (40.0, 10.0), (40.0, 40.0), (10.0, 40.0)],
            [1.0; 3],
            1.0,
        );
        assert!(c.px[25 * 50 + 25][0] > 0.99);
        assert!(c.px[5 * 50 + 5][0] < 0.01);
        assert!((c.px[25 * 50 + 10][0] - 0.5).abs() < 0.1);
    }
}
