//! A small vector painter for faces: shapes given by signed distance functions in
//! millimetres, filled with anti-aliased edges onto an RGB raster of a chosen density.

use super::geom::Rect;
use super::text::{self, Font};
use image::RgbImage;

/// A colour, each channel in [0, 1].
pub type Rgb = [f32; 3];

/// Mixes two colours: `t = 0` gives `a`, `t = 1` gives `b`.
#[inline]
pub fn lerp(a: Rgb, b: Rgb, t: f32) -> Rgb {
    [
        a[0] + (b[0] - a[0]) * t,
        a[1] + (b[1] - a[1]) * t,
        a[2] + (b[2] - a[2]) * t,
    ]
}

/// `x.floor()` for values well inside the `i32` range, without a library call.
#[inline]
pub fn ffloor(x: f32) -> f32 {
    let i = x as i32 as f32;
    if i > x {
        i - 1.0
    } else {
        i
    }
}

/// Scales a colour's brightness.
#[inline]
pub fn shade(c: Rgb, k: f32) -> Rgb {
    [
        (c[0] * k).clamp(0.0, 1.0),
        (c[1] * k).clamp(0.0, 1.0),
        (c[2] * k).clamp(0.0, 1.0),
    ]
}

/// Perceived brightness.
#[inline]
pub fn luma(c: Rgb) -> f32 {
    0.299 * c[0] + 0.587 * c[1] + 0.114 * c[2]
}

/// A colour from hue (degrees), saturation and value.
pub fn hsv(h: f32, s: f32, v: f32) -> Rgb {
    let h = h.rem_euclid(360.0) / 60.0;
    let c = v * s;
    let x = c * (1.0 - ((h % 2.0) - 1.0).abs());
    let (r, g, b) = match h as u32 {
        0 => (c, x, 0.0),
        1 => (x, c, 0.0),
        2 => (0.0, c, x),
        3 => (0.0, x, c),
        4 => (x, 0.0, c),
        _ => (c, 0.0, x),
    };
    let m = v - c;
    [r + m, g + m, b + m]
}

/// Black or white, whichever reads better on `bg`.
pub fn contrast_ink(bg: Rgb) -> Rgb {
    if luma(bg) > 0.55 {
        [0.08, 0.08, 0.1]
    } else {
        [0.97, 0.96, 0.92]
    }
}

/// Signed distance functions (negative inside), in millimetres.
pub mod sdf {
    use super::Rect;

    /// A rectangle with rounded corners of radius `r`.
    #[inline]
    pub fn round_rect(x: f32, y: f32, rect: &Rect, r: f32) -> f32 {
        let (cx, cy) = rect.center();
        let r = r.min(rect.w * 0.5).min(rect.h * 0.5).max(0.0);
        let qx = (x - cx).abs() - (rect.w * 0.5 - r);
        let qy = (y - cy).abs() - (rect.h * 0.5 - r);
        let ox = qx.max(0.0);
        let oy = qy.max(0.0);
        (ox * ox + oy * oy).sqrt() + qx.max(qy).min(0.0) - r
    }

    /// A disc.
    #[inline]
    pub fn circle(x: f32, y: f32, cx: f32, cy: f32, r: f32) -> f32 {
        ((x - cx) * (x - cx) + (y - cy) * (y - cy)).sqrt() - r
    }

    /// A segment of width `w` with round caps.
    #[inline]
    pub fn segment(x: f32, y: f32, a: (f32, f32), b: (f32, f32), w: f32) -> f32 {
        let (px, py) = (x - a.0, y - a.1);
        let (bx, by) = (b.0 - a.0, b.1 - a.1);
        let len2 = (bx * bx + by * by).max(1e-9);
        let t = ((px * bx + py * by) / len2).clamp(0.0, 1.0);
        let (dx, dy) = (px - bx * t, py - by * t);
        (dx * dx + dy * dy).sqrt() - w * 0.5
    }

    /// Any simple polygon (even-odd inside test).
    pub fn polygon(x: f32, y: f32, pts: &[(f32, f32)]) -> f32 {
        let n = pts.len();
        if n < 3 {
            return f32::MAX;
        }
        let mut d = f32::MAX;
        let mut inside = false;
        let mut j = n - 1;
        for i in 0..n {
            let (xi, yi) = pts[i];
            let (xj, yj) = pts[j];
            let (ex, ey) = (xj - xi, yj - yi);
            let (wx, wy) = (x - xi, y - yi);
            let t = ((wx * ex + wy * ey) / (ex * ex + ey * ey).max(1e-9)).clamp(0.0, 1.0);
            let (bx, by) = (wx - ex * t, wy - ey * t);
            d = d.min(bx * bx + by * by);
            if (yi > y) != (yj > y) && x < (xj - xi) * (y - yi) / (yj - yi) + xi {
                inside = !inside;
            }
            j = i;
        }
        if inside {
            -d.sqrt()
        } else {
            d.sqrt()
        }
    }
}

/// The bounding rectangle of points.
pub fn bounds(pts: &[(f32, f32)]) -> Rect {
    let mut x0 = f32::MAX;
    let mut y0 = f32::MAX;
    let mut x1 = f32::MIN;
    let mut y1 = f32::MIN;
    for &(x, y) in pts {
        x0 = x0.min(x);
        y0 = y0.min(y);
        x1 = x1.max(x);
        y1 = y1.max(y);
    }
    Rect::new(x0, y0, (x1 - x0).max(0.0), (y1 - y0).max(0.0))
}

/// Where a line of text sits relative to its anchor point.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Align {
    /// The anchor is the left end.
    Left,
    /// The anchor is the middle.
    Center,
    /// The anchor is the right end.
    Right,
}

/// An RGB raster addressed in millimetres.
#[derive(Debug, Clone)]
pub struct Painter {
    /// Width in pixels.
    pub w: usize,
    /// Height in pixels.
    pub h: usize,
    /// Pixels per millimetre.
    pub scale: f32,
    /// Pixels, row by row.
    pub px: Vec<Rgb>,
    /// Drawing is limited to this rectangle (mm), when set.
    pub clip: Option<Rect>,
}

impl Painter {
    /// A painter for a `w_mm` by `h_mm` face at `scale` pixels per millimetre.
    pub fn new(w_mm: f32, h_mm: f32, scale: f32, bg: Rgb) -> Painter {
        let w = ((w_mm * scale).round() as usize).max(1);
        let h = ((h_mm * scale).round() as usize).max(1);
        Painter {
            w,
            h,
            scale,
            px: vec![bg; w * h],
            clip: None,
        }
    }

    /// The raster as an 8-bit image.
    pub fn to_image(&self) -> RgbImage {
        quantised(self.w, self.h, &self.px)
    }

    /// Pixel index range covering a rectangle in mm (with a one-pixel margin for edge
    /// anti-aliasing), limited to the raster and to the pixels whose centres lie in the clip.
    fn span(&self, r: Rect) -> Option<(usize, usize, usize, usize)> {
        let s = self.scale;
        let mut x0 = (r.x * s - 1.0).floor().max(0.0) as usize;
        let mut y0 = (r.y * s - 1.0).floor().max(0.0) as usize;
        let mut x1 = ((r.right() * s + 1.0).ceil().max(0.0) as usize).min(self.w);
        let mut y1 = ((r.bottom() * s + 1.0).ceil().max(0.0) as usize).min(self.h);
        if let Some(c) = self.clip {
            let cx0 = (c.x * s - 0.5).ceil().max(0.0) as usize;
            let cy0 = (c.y * s - 0.5).ceil().max(0.0) as usize;
            let cx1 = (c.right() * s - 0.5).ceil().max(0.0) as usize;
            let cy1 = (c.bottom() * s - 0.5).ceil().max(0.0) as usize;
            x0 = x0.max(cx0);
            y0 = y0.max(cy0);
            x1 = x1.min(cx1);
            y1 = y1.min(cy1);
        }
        (x1 > x0 && y1 > y0).then_some((x0, y0, x1, y1))
    }

    /// Blends a colour into one pixel.
    #[inline]
    fn blend(&mut self, px: usize, py: usize, c: Rgb, cov: f32) {
        let p = &mut self.px[py * self.w + px];
        *p = lerp(*p, c, cov);
    }

    /// Paints over `bbox` where `sd` (mm, negative inside) says, with colour `paint(x, y)`.
    pub fn shade<S, P>(&mut self, bbox: Rect, sd: S, paint: P, alpha: f32)
    where
        S: Fn(f32, f32) -> f32,
        P: Fn(f32, f32) -> Rgb,
    {
        let Some((x0, y0, x1, y1)) = self.span(bbox) else {
            return;
        };
        let inv = 1.0 / self.scale;
        for py in y0..y1 {
            let y = (py as f32 + 0.5) * inv;
            for px in x0..x1 {
                let x = (px as f32 + 0.5) * inv;
                let cov = (0.5 - sd(x, y) * self.scale).clamp(0.0, 1.0) * alpha;
                if cov <= 0.0 {
                    continue;
                }
                let c = paint(x, y);
                self.blend(px, py, c, cov);
            }
        }
    }

    /// Fills a shape with one colour.
    pub fn fill<S: Fn(f32, f32) -> f32>(&mut self, bbox: Rect, sd: S, color: Rgb, alpha: f32) {
        self.shade(bbox, sd, |_, _| color, alpha);
    }

    /// A rectangle with rounded corners.
    pub fn rect(&mut self, r: Rect, radius: f32, color: Rgb) {
        self.rect_alpha(r, radius, color, 1.0);
    }

    /// A translucent rectangle with rounded corners. Rows clear of the corners are filled
    /// with exact box-filtered edges; only the corner rows use the distance function.
    pub fn rect_alpha(&mut self, r: Rect, radius: f32, color: Rgb, alpha: f32) {
        let Some((x0, y0, x1, y1)) = self.span(r) else {
            return;
        };
        let s = self.scale;
        let radius = radius.min(r.w * 0.5).min(r.h * 0.5).max(0.0);
        let (ex0, ex1) = (r.x * s, r.right() * s);
        let (ey0, ey1) = (r.y * s, r.bottom() * s);
        let overlap = |a: f32, b: f32, lo: f32, hi: f32| (b.min(hi) - a.max(lo)).clamp(0.0, 1.0);
        let inv = 1.0 / s;
        for py in y0..y1 {
            let fy = py as f32;
            let cy = overlap(fy, fy + 1.0, ey0, ey1);
            if cy <= 0.0 {
                continue;
            }
            let y = (fy + 0.5) * inv;
            let straight = y >= r.y + radius && y <= r.bottom() - radius;
            for px in x0..x1 {
                let fx = px as f32;
                let cov = if straight {
                    overlap(fx, fx + 1.0, ex0, ex1) * cy
                } else {
                    let x = (fx + 0.5) * inv;
                    (0.5 - sdf::round_rect(x, y, &r, radius) * s).clamp(0.0, 1.0)
                };
                if cov > 0.0 {
                    self.blend(px, py, color, cov * alpha);
                }
            }
        }
    }

    /// The outline of a rounded rectangle, `width` wide, inside `r`.
    pub fn rect_outline(&mut self, r: Rect, radius: f32, width: f32, color: Rgb) {
        let inner = r.inset(width);
        let ir = (radius - width).max(0.0);
        self.fill(
            r,
            |x, y| sdf::round_rect(x, y, &r, radius).max(-sdf::round_rect(x, y, &inner, ir)),
            color,
            1.0,
        );
    }

    /// A disc.
    pub fn circle(&mut self, cx: f32, cy: f32, r: f32, color: Rgb) {
        let b = Rect::new(cx - r, cy - r, 2.0 * r, 2.0 * r);
        self.fill(b, |x, y| sdf::circle(x, y, cx, cy, r), color, 1.0);
    }

    /// A ring of outer radius `r` and width `w`.
    pub fn ring(&mut self, cx: f32, cy: f32, r: f32, w: f32, color: Rgb) {
        let b = Rect::new(cx - r, cy - r, 2.0 * r, 2.0 * r);
        self.fill(
            b,
            |x, y| {
                let d = sdf::circle(x, y, cx, cy, r - w * 0.5);
                d.abs() - w * 0.5
            },
            color,
            1.0,
        );
    }

    /// A filled polygon.
    pub fn polygon(&mut self, pts: &[(f32, f32)], color: Rgb) {
        self.polygon_alpha(pts, color, 1.0);
    }

    /// A translucent filled polygon (even-odd rule), anti-aliased by four sub-scanlines per
    /// pixel row with fractional span ends.
    pub fn polygon_alpha(&mut self, pts: &[(f32, f32)], color: Rgb, alpha: f32) {
        if pts.len() < 3 {
            return;
        }
        let Some((x0, y0, x1, y1)) = self.span(bounds(pts)) else {
            return;
        };
        let s = self.scale;
        let w = x1 - x0;
        let mut cov = vec![0.0f32; w];
        let mut xs: Vec<f32> = Vec::with_capacity(pts.len());
        for py in y0..y1 {
            cov.iter_mut().for_each(|c| *c = 0.0);
            let mut any = false;
            for sub in 0..4 {
                let y = (py as f32 + 0.125 + 0.25 * sub as f32) / s;
                xs.clear();
                let mut j = pts.len() - 1;
                for i in 0..pts.len() {
                    let (xi, yi) = pts[i];
                    let (xj, yj) = pts[j];
                    if (yi > y) != (yj > y) {
                        xs.push(((xj - xi) * (y - yi) / (yj - yi) + xi) * s);
                    }
                    j = i;
                }
                if xs.len() < 2 {
                    continue;
                }
                xs.sort_by(|a, b| a.total_cmp(b));
                for pair in xs.chunks_exact(2) {
                    let (a, b) = (pair[0] - x0 as f32, pair[1] - x0 as f32);
                    let ia = a.floor().max(0.0) as usize;
                    let ib = (b.ceil().max(0.0) as usize).min(w);
                    for (k, c) in cov.iter_mut().enumerate().take(ib).skip(ia) {
                        let f = k as f32;
                        let o = (b.min(f + 1.0) - a.max(f)).clamp(0.0, 1.0);
                        *c += o * 0.25;
                        any = true;
                    }
                }
            }
            if !any {
                continue;
            }
            for (k, &c) in cov.iter().enumerate() {
                if c > 0.0 {
                    self.blend(x0 + k, py, color, c.min(1.0) * alpha);
                }
            }
        }
    }

    /// A straight stroke with round caps.
    pub fn line(&mut self, a: (f32, f32), b: (f32, f32), width: f32, color: Rgb) {
        let bb = bounds(&[a, b]).inset(-width);
        self.fill(bb, |x, y| sdf::segment(x, y, a, b, width), color, 1.0);
    }

    /// A rectangle shaded from `c0` to `c1` (top to bottom, or left to right).
    pub fn gradient(&mut self, r: Rect, radius: f32, c0: Rgb, c1: Rgb, vertical: bool) {
        self.shade(
            r,
            |x, y| sdf::round_rect(x, y, &r, radius),
            |x, y| {
                let t = if vertical {
                    (y - r.y) / r.h.max(1e-3)
                } else {
                    (x - r.x) / r.w.max(1e-3)
                };
                lerp(c0, c1, t.clamp(0.0, 1.0))
            },
            1.0,
        );
    }

    /// Width in mm of a line of text at glyph height `h`.
    pub fn text_width(s: &str, h: f32, font: &Font) -> f32 {
        s.chars().count() as f32 * h * font.width
    }

    /// The largest glyph height (up to `max_h`) at which `s` fits in `max_w`.
    pub fn fit_height(s: &str, max_w: f32, max_h: f32, font: &Font) -> f32 {
        let n = s.chars().count().max(1) as f32;
        (max_w / (n * font.width)).min(max_h).max(0.1)
    }

    /// Draws one line of text. `(x, y)` is the anchor on the top line of the glyph cells,
    /// `h` the glyph cell height in mm, `angle` the direction of writing (radians; 0 to the
    /// right, pi/2 downwards).
    #[allow(clippy::too_many_arguments)]
    pub fn text(
        &mut self,
        s: &str,
        x: f32,
        y: f32,
        h: f32,
        font: &Font,
        align: Align,
        angle: f32,
        color: Rgb,
    ) {
        let gl = text::glyphs(s, font);
        if gl.is_empty() || h <= 0.0 {
            return;
        }
        let cw = h * font.width;
        let total = cw * gl.len() as f32;
        let shift = match align {
            Align::Left => 0.0,
            Align::Center => total * 0.5,
            Align::Right => total,
        };
        let (sa, ca) = angle.sin_cos();
        // Text frame: u along the line, v down the glyphs.
        let ox = x - ca * shift;
        let oy = y - sa * shift;
        let corners = [
            (ox, oy),
            (ox + ca * total, oy + sa * total),
            (ox - sa * h, oy + ca * h),
            (ox + ca * total - sa * h, oy + sa * total + ca * h),
        ];
        let bb = bounds(&corners).inset(-h * 0.3);
        // Supersample small text so it stays legible rather than aliased.
        let texels_per_px = 8.0 / (h * self.scale);
        let ss: &[(f32, f32)] = if texels_per_px > 0.6 {
            &[(-0.25, -0.25), (0.25, -0.25), (-0.25, 0.25), (0.25, 0.25)]
        } else {
            &[(0.0, 0.0)]
        };
        let Some((x0, y0, x1, y1)) = self.span(bb) else {
            return;
        };
        let inv = 1.0 / self.scale;
        for py in y0..y1 {
            for px in x0..x1 {
                let mut cov = 0.0;
                for &(dx, dy) in ss {
                    let mx = (px as f32 + 0.5 + dx) * inv;
                    let my = (py as f32 + 0.5 + dy) * inv;
                    let (rx, ry) = (mx - ox, my - oy);
                    let u = rx * ca + ry * sa;
                    let v = -rx * sa + ry * ca;
                    if u < 0.0 || v < 0.0 || u >= total || v >= h {
                        continue;
                    }
                    let i = (u / cw) as usize;
                    if i >= gl.len() {
                        continue;
                    }
                    let gx = (u - i as f32 * cw) / cw * 8.0;
                    let gy = v / h * 8.0;
                    cov += text::ink(&gl[i], gx, gy, font);
                }
                cov /= ss.len() as f32;
                if cov > 0.0 {
                    self.blend(px, py, color, cov.min(1.0));
                }
            }
        }
    }
}

/// `w` x `h` pixels of colour in [0, 1], row by row, as an 8-bit image (each channel
/// clamped and rounded); pixels past the end of `px` stay black.
pub fn quantised(w: usize, h: usize, px: &[Rgb]) -> RgbImage {
    let mut buf = vec![0u8; w * h * 3];
    for (o, p) in buf.chunks_exact_mut(3).zip(px) {
        o[0] = (p[0].clamp(0.0, 1.0) * 255.0 + 0.5) as u8;
        o[1] = (p[1].clamp(0.0, 1.0) * 255.0 + 0.5) as u8;
        o[2] = (p[2].clamp(0.0, 1.0) * 255.0 + 0.5) as u8;
    }
    RgbImage::from_raw(w as u32, h as u32, buf).unwrap_or_else(|| RgbImage::new(w as u32, h as u32))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes_cover_their_inside_only() {
        let mut p = Painter::new(20.0, 10.0, 4.0, [1.0; 3]);
        p.rect(Rect::new(2.0, 2.0, 6.0, 6.0), 1.0, [0.0; 3]);
        assert_eq!(p.px[5 * 4 * p.w + 5 * 4], [0.0; 3]);
        assert_eq!(p.px[5 * 4 * p.w + 15 * 4], [1.0; 3]);
        p.circle(15.0, 5.0, 3.0, [0.0, 1.0, 0.0]);
        assert_eq!(p.px[5 * 4 * p.w + 15 * 4], [0.0, 1.0, 0.0]);
    }

    #[test]
    fn text_leaves_ink() {
        let mut p = Painter::new(40.0, 10.0, 6.0, [1.0; 3]);
        p.text(
            "HORNET",
            20.0,
            2.0,
            5.0,
            &Font::PLAIN,
            Align::Center,
            0.0,
            [0.0; 3],
        );
        let dark = p.px.iter().filter(|c| c[0] < 0.5).count();
        assert!(dark > 100, "{dark}");
    }

    #[test]
    fn polygon_sdf_sign() {
        let tri = [(0.0, 0.0), (10.0, 0.0), (0.0, 10.0)];
        assert!(sdf::polygon(2.0, 2.0, &tri) < 0.0);
        assert!(sdf::polygon(8.0, 8.0, &tri) > 0.0);
    }
}
