//! The camera: a pinhole looking down at the table from any rotation, tilted up to 35
//! degrees off vertical, framed so that every piece of the layout is in the picture.
//!
//! World frame: the table plane is z = 0 with x to the right and y towards the Outpost
//! player; z points into the table, so a point `h` mm above the table has z = -h. Image
//! coordinates are pixels with the centre of the top-left pixel at (0, 0).

use super::geom::Mat3;
use rand::Rng;
use rand_chacha::ChaCha8Rng;

/// A pinhole camera: the 3x4 projection from world to image.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Camera {
    /// The projection matrix `K [R | -R C]`.
    pub p: [[f64; 4]; 3],
    /// Camera centre in the world.
    pub centre: [f64; 3],
    /// Image width (pixels).
    pub width: u32,
    /// Image height (pixels).
    pub height: u32,
    /// Tilt off vertical (degrees).
    pub tilt_deg: f64,
}

/// The random part of a camera.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Shot {
    /// Rotation about the optical axis (radians).
    pub yaw: f64,
    /// Tilt off vertical (radians).
    pub tilt: f64,
    /// Direction of the tilt on the table (radians).
    pub tilt_dir: f64,
    /// Horizontal field of view (radians).
    pub fov: f64,
    /// Share of the limiting image side the layout fills.
    pub fill: f64,
    /// Where the layout sits in the free margin, 0..1 each way.
    pub place: (f64, f64),
}

impl Shot {
    /// Draws a random shot.
    pub fn random(r: &mut ChaCha8Rng) -> Shot {
        let tilt_max = 35f64.to_radians();
        Shot {
            yaw: r.gen_range(0.0..std::f64::consts::TAU),
            // More shots near vertical than at the limit, as people hold phones.
            tilt: tilt_max * r.gen_range(0.0f64..1.0).powf(0.8),
            tilt_dir: r.gen_range(0.0..std::f64::consts::TAU),
            fov: r.gen_range(45f64..78.0).to_radians(),
            fill: r.gen_range(0.68..0.97),
            place: (r.gen_range(0.0..1.0), r.gen_range(0.0..1.0)),
        }
    }
}

impl Camera {
    fn build(
        shot: &Shot,
        target: (f64, f64),
        dist: f64,
        w: u32,
        h: u32,
        principal: (f64, f64),
    ) -> Camera {
        let (st, ct) = shot.tilt.sin_cos();
        let (sd, cd) = shot.tilt_dir.sin_cos();
        let u = [st * cd, st * sd, -ct];
        let c = [target.0 + dist * u[0], target.1 + dist * u[1], dist * u[2]];
        let f = [-u[0], -u[1], -u[2]];
        let a = [shot.yaw.cos(), shot.yaw.sin(), 0.0];
        let ad = a[0] * f[0] + a[1] * f[1] + a[2] * f[2];
        let mut x = [a[0] - ad * f[0], a[1] - ad * f[1], a[2] - ad * f[2]];
        let n = (x[0] * x[0] + x[1] * x[1] + x[2] * x[2]).sqrt().max(1e-12);
        x = [x[0] / n, x[1] / n, x[2] / n];
        let y = [
            f[1] * x[2] - f[2] * x[1],
            f[2] * x[0] - f[0] * x[2],
            f[0] * x[1] - f[1] * x[0],
        ];
        let rot = [x, y, f];
        let focal = f64::from(w) * 0.5 / (shot.fov * 0.5).tan();
        let k = [
            [focal, 0.0, principal.0],
            [0.0, focal, principal.1],
            [0.0, 0.0, 1.0],
        ];
        let mut p = [[0.0; 4]; 3];
        for i in 0..3 {
            for j in 0..3 {
                p[i][j] = (0..3).map(|m| k[i][m] * rot[m][j]).sum();
            }
            p[i][3] = -(0..3).map(|j| p[i][j] * c[j]).sum::<f64>();
        }
        Camera {
            p,
            centre: c,
            width: w,
            height: h,
            tilt_deg: shot.tilt.to_degrees(),
        }
    }

    /// Frames a set of table points (mm): every one lands inside the image with a margin.
    pub fn fit(shot: &Shot, points: &[(f64, f64)], w: u32, h: u32) -> Camera {
        let (wf, hf) = (f64::from(w), f64::from(h));
        let mut lo = (f64::MAX, f64::MAX);
        let mut hi = (f64::MIN, f64::MIN);
        for &(x, y) in points {
            lo = (lo.0.min(x), lo.1.min(y));
            hi = (hi.0.max(x), hi.1.max(y));
        }
        if points.is_empty() {
            lo = (-100.0, -100.0);
            hi = (100.0, 100.0);
        }
        let target = ((lo.0 + hi.0) * 0.5, (lo.1 + hi.1) * 0.5);
        let size = (hi.0 - lo.0).hypot(hi.1 - lo.1).max(50.0);
        let centre = (wf * 0.5, hf * 0.5);
        let mut dist = size * 2.0;
        let mut cam = Camera::build(shot, target, dist, w, h, centre);
        let margin = (wf.min(hf) * 0.015).max(2.0);
        for _ in 0..8 {
            let Some((bl, bh)) = cam.bounds(points) else {
                dist *= 1.5;
                cam = Camera::build(shot, target, dist, w, h, centre);
                continue;
            };
            let (bw, bhh) = (bh.0 - bl.0, bh.1 - bl.1);
            let s = (shot.fill * (wf - 2.0 * margin) / bw.max(1e-6))
                .min(shot.fill * (hf - 2.0 * margin) / bhh.max(1e-6));
            dist /= s.clamp(0.2, 5.0);
            cam = Camera::build(shot, target, dist, w, h, centre);
        }
        // Shift the principal point to place the layout in the frame, shrinking if needed.
        for _ in 0..30 {
            if let Some((bl, bh)) = cam.bounds(points) {
                let (bw, bhh) = (bh.0 - bl.0, bh.1 - bl.1);
                let free = (wf - 2.0 * margin - bw, hf - 2.0 * margin - bhh);
                if free.0 >= 0.0 && free.1 >= 0.0 {
                    let want = (
                        margin + free.0 * shot.place.0,
                        margin + free.1 * shot.place.1,
                    );
                    let shift = (want.0 - bl.0, want.1 - bl.1);
                    let moved = Camera::build(
                        shot,
                        target,
                        dist,
                        w,
                        h,
                        (centre.0 + shift.0, centre.1 + shift.1),
                    );
                    if moved.contains_all(points, margin * 0.5) {
                        return moved;
                    }
                }
            }
            dist *= 1.06;
            cam = Camera::build(shot, target, dist, w, h, centre);
        }
        cam
    }

    fn bounds(&self, points: &[(f64, f64)]) -> Option<((f64, f64), (f64, f64))> {
        let t = self.table();
        let mut lo = (f64::MAX, f64::MAX);
        let mut hi = (f64::MIN, f64::MIN);
        for &(x, y) in points {
            let (u, v) = t.apply(x, y)?;
            lo = (lo.0.min(u), lo.1.min(v));
            hi = (hi.0.max(u), hi.1.max(v));
        }
        Some((lo, hi))
    }

    /// Whether every point lands at least `margin` pixels inside the image.
    pub fn contains_all(&self, points: &[(f64, f64)], margin: f64) -> bool {
        let t = self.table();
        let (w, h) = (f64::from(self.width), f64::from(self.height));
        points.iter().all(|&(x, y)| {
            t.apply(x, y).is_some_and(|(u, v)| {
                u >= margin - 0.5
                    && v >= margin - 0.5
                    && u <= w - 0.5 - margin
                    && v <= h - 0.5 - margin
            })
        })
    }

    /// The homography from the plane `height` mm above the table to the image.
    pub fn plane(&self, height: f64) -> Mat3 {
        let p = &self.p;
        let z = -height;
        Mat3([
            [p[0][0], p[0][1], p[0][2] * z + p[0][3]],
            [p[1][0], p[1][1], p[1][2] * z + p[1][3]],
            [p[2][0], p[2][1], p[2][2] * z + p[2][3]],
        ])
    }

    /// The homography from the table plane to the image.
    pub fn table(&self) -> Mat3 {
        self.plane(0.0)
    }

    /// Projects a world point `height` mm above the table.
    pub fn project(&self, x: f64, y: f64, height: f64) -> Option<(f64, f64)> {
        self.plane(height).apply(x, y)
    }

    /// Distance (mm) from the camera centre to a table point.
    pub fn distance(&self, x: f64, y: f64) -> f64 {
        let c = self.centre;
        ((x - c[0]).powi(2) + (y - c[1]).powi(2) + c[2].powi(2)).sqrt()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::seeds;

    #[test]
    fn fitted_cameras_keep_every_point_in_frame() {
        let pts: Vec<(f64, f64)> = vec![
            (-40.0, -400.0),
            (420.0, -400.0),
            (420.0, 400.0),
            (-40.0, 400.0),
        ];
        for i in 0..200 {
            let shot = Shot::random(&mut seeds::stream(1, i, "camera"));
            let cam = Camera::fit(&shot, &pts, 640, 360);
            assert!(cam.contains_all(&pts, 1.0), "shot {i}: {shot:?}");
            assert!(cam.tilt_deg <= 35.0 + 1e-9);
        }
    }

    #[test]
    fn a_vertical_camera_with_no_yaw_keeps_the_table_upright() {
        let shot = Shot {
            yaw: 0.0,
            tilt: 0.0,
            tilt_dir: 0.0,
            fov: 1.0,
            fill: 0.8,
            place: (0.5, 0.5),
        };
        let cam = Camera::fit(&shot, &[(0.0, 0.0), (100.0, 50.0)], 400, 300);
        let (a, b) = (
            cam.project(0.0, 0.0, 0.0).unwrap(),
            cam.project(100.0, 0.0, 0.0).unwrap(),
        );
        assert!(b.0 > a.0 && (b.1 - a.1).abs() < 1e-6);
        let c = cam.project(0.0, 50.0, 0.0).unwrap();
        assert!(c.1 > a.1);
        // A point above the table is larger: farther from the centre of projection's foot.
        let top = cam.project(100.0, 50.0, 20.0).unwrap();
        let base = cam.project(100.0, 50.0, 0.0).unwrap();
        let centre = cam.project(50.0, 25.0, 0.0).unwrap();
        assert!((top.0 - centre.0).abs() > (base.0 - centre.0).abs());
    }
}
