//! Plane geometry: 3x3 homogeneous matrices (homographies and affine poses) and rectangles.

/// A 3x3 matrix acting on homogeneous 2-D points `(x, y, 1)`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Mat3(pub [[f64; 3]; 3]);

impl Mat3 {
    /// The identity.
    pub const IDENTITY: Mat3 = Mat3([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]);

    /// A translation.
    pub fn translate(x: f64, y: f64) -> Mat3 {
        Mat3([[1.0, 0.0, x], [0.0, 1.0, y], [0.0, 0.0, 1.0]])
    }

    /// A rotation by `angle` radians (clockwise on screen, where y points down).
    pub fn rotate(angle: f64) -> Mat3 {
        let (s, c) = angle.sin_cos();
        Mat3([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]])
    }

    /// A scaling.
    pub fn scale(sx: f64, sy: f64) -> Mat3 {
        Mat3([[sx, 0.0, 0.0], [0.0, sy, 0.0], [0.0, 0.0, 1.0]])
    }

    /// The product `self * rhs` (apply `rhs` first).
    pub fn mul(&self, rhs: &Mat3) -> Mat3 {
        let a = &self.0;
        let b = &rhs.0;
        let mut m = [[0.0; 3]; 3];
        for (i, row) in m.iter_mut().enumerate() {
            for (j, v) in row.iter_mut().enumerate() {
                *v = a[i][0] * b[0][j] + a[i][1] * b[1][j] + a[i][2] * b[2][j];
            }
        }
        Mat3(m)
    }

    /// The inverse, or `None` when the matrix is (nearly) singular.
    pub fn inverse(&self) -> Option<Mat3> {
        let m = &self.0;
        let c00 = m[1][1] * m[2][2] - m[1][2] * m[2][1];
        let c01 = m[1][2] * m[2][0] - m[1][0] * m[2][2];
        let c02 = m[1][0] * m[2][1] - m[1][1] * m[2][0];
        let det = m[0][0] * c00 + m[0][1] * c01 + m[0][2] * c02;
        let scale = self.0.iter().flatten().fold(0.0f64, |a, v| a.max(v.abs()));
        if !det.is_finite() || det.abs() <= 1e-12 * scale.powi(3).max(1e-300) {
            return None;
        }
        let inv = 1.0 / det;
        Some(Mat3([
            [
                c00 * inv,
                (m[0][2] * m[2][1] - m[0][1] * m[2][2]) * inv,
                (m[0][1] * m[1][2] - m[0][2] * m[1][1]) * inv,
            ],
            [
                c01 * inv,
                (m[0][0] * m[2][2] - m[0][2] * m[2][0]) * inv,
                (m[0][2] * m[1][0] - m[0][0] * m[1][2]) * inv,
            ],
            [
                c02 * inv,
                (m[0][1] * m[2][0] - m[0][0] * m[2][1]) * inv,
                (m[0][0] * m[1][1] - m[0][1] * m[1][0]) * inv,
            ],
        ]))
    }

    /// Maps a point; `None` when it maps to infinity or behind the projection centre.
    pub fn apply(&self, x: f64, y: f64) -> Option<(f64, f64)> {
        let m = &self.0;
        let w = m[2][0] * x + m[2][1] * y + m[2][2];
        if w <= 1e-9 || !w.is_finite() {
            return None;
        }
        Some((
            (m[0][0] * x + m[0][1] * y + m[0][2]) / w,
            (m[1][0] * x + m[1][1] * y + m[1][2]) / w,
        ))
    }

    /// The homography taking the unit square corners (0,0), (1,0), (1,1), (0,1) to `q`.
    pub fn from_unit_square(q: &[[f64; 2]; 4]) -> Option<Mat3> {
        let [x0, y0] = q[0];
        let [x1, y1] = q[1];
        let [x2, y2] = q[2];
        let [x3, y3] = q[3];
        let sx = x0 - x1 + x2 - x3;
        let sy = y0 - y1 + y2 - y3;
        let (dx1, dx2, dy1, dy2) = (x1 - x2, x3 - x2, y1 - y2, y3 - y2);
        let den = dx1 * dy2 - dx2 * dy1;
        if den.abs() < 1e-12 {
            return None;
        }
        let g = (sx * dy2 - dx2 * sy) / den;
        let h = (dx1 * sy - sx * dy1) / den;
        Some(Mat3([
            [x1 - x0 + g * x1, x3 - x0 + h * x3, x0],
            [y1 - y0 + g * y1, y3 - y0 + h * y3, y0],
            [g, h, 1.0],
        ]))
    }

    /// Local scale at a point: the square root of the Jacobian determinant (pixels per unit).
    pub fn local_scale(&self, x: f64, y: f64) -> f64 {
        let e = 0.5;
        match (self.apply(x, y), self.apply(x + e, y), self.apply(x, y + e)) {
            (Some(p), Some(px), Some(py)) => {
                let (ax, ay) = ((px.0 - p.0) / e, (px.1 - p.1) / e);
                let (bx, by) = ((py.0 - p.0) / e, (py.1 - p.1) / e);
                (ax * by - ay * bx).abs().sqrt()
            }
            _ => 0.0,
        }
    }
}

/// An axis-aligned rectangle `x, y, w, h` (millimetres on a face, or pixels).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rect {
    /// Left.
    pub x: f32,
    /// Top.
    pub y: f32,
    /// Width.
    pub w: f32,
    /// Height.
    pub h: f32,
}

impl Rect {
    /// A rectangle from its top-left corner and size.
    pub const fn new(x: f32, y: f32, w: f32, h: f32) -> Rect {
        Rect { x, y, w, h }
    }

    /// The centre.
    pub fn center(&self) -> (f32, f32) {
        (self.x + self.w * 0.5, self.y + self.h * 0.5)
    }

    /// The rectangle shrunk by `d` on every side.
    pub fn inset(&self, d: f32) -> Rect {
        Rect::new(
            self.x + d,
            self.y + d,
            (self.w - 2.0 * d).max(0.0),
            (self.h - 2.0 * d).max(0.0),
        )
    }

    /// Right edge.
    pub fn right(&self) -> f32 {
        self.x + self.w
    }

    /// Bottom edge.
    pub fn bottom(&self) -> f32 {
        self.y + self.h
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inverse_undoes_a_homography() {
        let h = Mat3([[1.2, 0.1, 5.0], [-0.2, 0.9, 3.0], [0.001, 0.0005, 1.0]]);
        let inv = h.inverse().unwrap();
        let (x, y) = h.apply(10.0, 20.0).unwrap();
        let (bx, by) = inv.apply(x, y).unwrap();
        assert!((bx - 10.0).abs() < 1e-9 && (by - 20.0).abs() < 1e-9);
    }

    #[test]
    fn unit_square_maps_to_its_quad() {
        let q = [[10.0, 5.0], [50.0, 8.0], [47.0, 60.0], [12.0, 55.0]];
        let h = Mat3::from_unit_square(&q).unwrap();
        for (i, (u, v)) in [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)]
            .iter()
            .enumerate()
        {
            let (x, y) = h.apply(*u, *v).unwrap();
            assert!((x - q[i][0]).abs() < 1e-9 && (y - q[i][1]).abs() < 1e-9);
        }
    }

    #[test]
    fn singular_matrices_have_no_inverse() {
        assert!(Mat3([[0.0; 3]; 3]).inverse().is_none());
    }
}
