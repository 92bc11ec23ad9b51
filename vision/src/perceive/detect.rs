//! Detection: every card in a frame, with its four corners.
//!
//! The frame is letterboxed into the detector's input (512x288 for a wide frame; one of
//! [`INPUT_SHAPES`] nearer its own aspect for another, turned a quarter where it is taller
//! than wide: [`letterbox`]); the network gives a centre
//! heat map per class and eight corner offsets at stride 4 (see
//! `models/train/train_detector.py`). Peaks become detections, mapped back to frame pixels.
//! Today's detector has one class, cards; module strips and small pieces are then read on
//! each card ([`super::tokens`], [`super::assemble`]), where they are large.
//!
//! The network is fully convolutional, so on two cores it runs on the input's two halves at
//! once, each reaching [`TILE_MARGIN`] columns past the middle, and the two output maps are
//! stitched into one ([`DetectorRun::Tiled`]). On one core it runs on the same two halves
//! one after the other: until session 59 it ran there on the whole input, whose corners
//! differ from the tiles' by a few hundredths of a pixel, and later stages sometimes carried
//! that to another reading (on one core against two, a unit lost in a column of deck 15's
//! scene 3). Read the same way on either, the 31 rendered sets of `models/README.md` (at one
//! core, as they are evaluated) came out as before within their noise: validation 657 -> 656
//! of 720 layouts exact, unseen 925 -> 927 of 1,050, recast 791 -> 797 of 930. On two cores
//! nothing changed; on one the detector takes 27 ms instead of 19 (the tiles are half as
//! wide again as the input), the benchmark frames about 1.05 times as long (`stage_times`).

use super::nn::{push_chw, Net};
use super::par;
use super::peaks::{is_peak, sigmoid};
use super::resample::area_resize;
use super::VisionError;
use image::{Rgb, RgbImage};
use serde::{Deserialize, Serialize};
use std::sync::{Arc, Mutex, OnceLock};

/// Detector input width.
pub const NET_W: u32 = 512;
/// Detector input height.
pub const NET_H: u32 = 288;
/// Output stride of the heat maps.
pub const STRIDE: u32 = 4;
/// Corner offsets are predicted in units of this many input pixels.
const OFFSET_SCALE: f32 = 32.0;
const CLASSES: usize = 3;
/// Heat-map peak from which a detection is kept at all.
pub const MAYBE_SCORE: f32 = 0.06;
/// Heat-map peak from which a detection stands on its own; below it, a card stands only
/// if identification names it, by its face or by its place ([`super::Analyzer::analyze`]).
pub const SURE_SCORE: f32 = 0.35;

/// What a detection looks like.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PieceClass {
    /// A card seen whole (a city or a unit).
    Card,
    /// The strip of a module tucked under a unit.
    Strip,
    /// A token on a unit or a marker on a city.
    Small,
}

impl PieceClass {
    /// All classes in the detector's channel order.
    pub const ALL: [PieceClass; 3] = [PieceClass::Card, PieceClass::Strip, PieceClass::Small];

    /// Channel index in the detector's output.
    pub fn index(self) -> usize {
        self as usize
    }
}

/// One piece found in a frame.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Detection {
    /// What it looks like.
    pub class: PieceClass,
    /// Heat-map peak, 0..1.
    pub score: f32,
    /// Corners in frame pixels. For cards and strips: clockwise, starting at the printed
    /// top-left up to a half turn; for small pieces: an image-aligned square.
    pub corners: [[f32; 2]; 4],
}

impl Detection {
    /// A card at `corners`, as a later stage proposes one to crop (with the detector's
    /// `score` of the card it stands for, or 0 for a place no peak marked).
    pub fn card(corners: [[f32; 2]; 4], score: f32) -> Detection {
        Detection {
            class: PieceClass::Card,
            score,
            corners,
        }
    }

    /// Centre of the corners.
    pub fn center(&self) -> [f32; 2] {
        let mut c = [0.0; 2];
        for p in &self.corners {
            c[0] += p[0] / 4.0;
            c[1] += p[1] / 4.0;
        }
        c
    }
}

/// How a frame was fitted into the detector input.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Letterbox {
    /// Input pixels per frame pixel.
    pub scale: f32,
    /// Left padding in input pixels.
    pub pad_x: f32,
    /// Top padding in input pixels.
    pub pad_y: f32,
    /// For a frame taller than wide, turned a quarter clockwise to fill the wide input: its
    /// height in frame pixels; `None` for a frame fitted as it is.
    pub turned: Option<f32>,
}

impl Letterbox {
    /// Maps an input point back to the frame.
    pub fn to_frame(&self, p: [f32; 2]) -> [f32; 2] {
        let u = (p[0] - self.pad_x) / self.scale;
        let v = (p[1] - self.pad_y) / self.scale;
        match self.turned {
            Some(h) => [v, h - u],
            None => [u, v],
        }
    }

    /// Maps a frame point into the input.
    pub fn to_input(&self, p: [f32; 2]) -> [f32; 2] {
        let [u, v] = match self.turned {
            Some(h) => [h - p[1], p[0]],
            None => p,
        };
        [u * self.scale + self.pad_x, v * self.scale + self.pad_y]
    }
}

/// The detector's input shapes, widest first: the frame is fitted into the one whose
/// aspect is nearest its own ([`input_shape`]). The network is fully convolutional and was
/// trained on 16:9 frames fitted to the first; the others hold about as many pixels, so
/// that a 4:3 or square photo's cards are as large in the input as a wide photo's of the
/// same size, not shrunk between grey bars. Widths are multiples of 32 and heights of 16,
/// so that the two tiles' output grids line up ([`TILE_MARGIN`]). Each shape's network is
/// optimised when a frame first asks for it (about 40 ms, once).
///
/// On 60 scenes each (`--seed 12`), layouts exact fitted to 512x288 -> to the nearest
/// shape: 1440x1440 canonical deck 44 -> 56 (card recall 95.5 -> 99.8%), 1080x1080 deck 14
/// 39 -> 44 (92.8 -> 98.9%), 1600x1200 canonical 55 -> 56, 2016x1512 deck 15 49 -> 51,
/// 1536x2048 deck 16 51 -> 56, 1620x1080 deck 1 49 -> 52; 287 -> 315 of 360, pieces named
/// wrong 32 -> 31. The same decks drawn 1920x1080 read 58, 51, 58, 50, 55 and 51. A wide
/// frame's input is as before, and so is every figure of the 16:9 sets.
pub const INPUT_SHAPES: [(u32, u32); 4] = [(NET_W, NET_H), (480, 320), (448, 336), (384, 384)];

/// The input shape ([`INPUT_SHAPES`]) whose aspect is nearest that of a frame of `w` x `h`
/// laid wide (turned a quarter where it is taller than wide, as [`letterbox`] turns it).
pub fn input_shape(w: u32, h: u32) -> (u32, u32) {
    let (across, down) = (w.max(h).max(1) as f32, w.min(h).max(1) as f32);
    let aspect = (across / down).ln();
    let off = |&(iw, ih): &(u32, u32)| (aspect - (iw as f32 / ih as f32).ln()).abs();
    INPUT_SHAPES
        .into_iter()
        .min_by(|a, b| off(a).total_cmp(&off(b)))
        .unwrap_or((NET_W, NET_H))
}

/// Fits a frame into the detector input of the shape [`input_shape`] picks for it, keeping
/// its aspect (grey bars where needed). A frame taller than wide (a phone held upright) is
/// turned a quarter clockwise first, so that its cards are as large in the wide input as in
/// a wide frame of its size: fitted upright, a 1080x1920 frame's cards came out 0.56 times
/// as wide, and of 30 such scenes (`tablelens render --size 1080x1920 --seed 7`) 66% of the
/// cards were found and 10 layouts read exactly; turned, 99.5% and 29 (`models/detector.md`
/// has more sizes).
pub fn letterbox(frame: &RgbImage) -> (RgbImage, Letterbox) {
    let (w, h) = frame.dimensions();
    letterbox_to(frame, input_shape(w, h))
}

/// Fits a frame into a detector input of `shape` (width, height) as [`letterbox`] does.
fn letterbox_to(frame: &RgbImage, shape: (u32, u32)) -> (RgbImage, Letterbox) {
    let (net_w, net_h) = shape;
    let (w, h) = frame.dimensions();
    let turn = h > w;
    // The sides the input sees: the frame's, or its turned ones.
    let (across, down) = if turn { (h, w) } else { (w, h) };
    let scale = (net_w as f32 / across.max(1) as f32).min(net_h as f32 / down.max(1) as f32);
    let rw = ((across as f32 * scale).round() as u32).clamp(1, net_w);
    let rh = ((down as f32 * scale).round() as u32).clamp(1, net_h);
    let resized = if turn {
        image::imageops::rotate90(&area_resize(frame, rh, rw))
    } else {
        area_resize(frame, rw, rh)
    };
    let turned = turn.then_some(h as f32);
    if (rw, rh) == (net_w, net_h) {
        return (
            resized,
            Letterbox {
                scale,
                pad_x: 0.0,
                pad_y: 0.0,
                turned,
            },
        );
    }
    let pad_x = (net_w - rw) / 2;
    let pad_y = (net_h - rh) / 2;
    let mut canvas = RgbImage::from_pixel(net_w, net_h, Rgb([128, 128, 128]));
    image::imageops::replace(&mut canvas, &resized, i64::from(pad_x), i64::from(pad_y));
    (
        canvas,
        Letterbox {
            scale,
            pad_x: pad_x as f32,
            pad_y: pad_y as f32,
            turned,
        },
    )
}

/// Input columns each half-frame tile reaches past the middle, so that what lies near the
/// middle is seen with its surroundings. A multiple of 16, the detector's coarsest stride,
/// so that the tiles' output grids line up. With 128 the tiled detector reads 90 validation
/// scenes as the whole one does, to within a card or two (with 64, 1 to 2% fewer units were
/// placed), at the same speed as 96; `tests/detect.rs` holds it to the whole run's cards.
pub const TILE_MARGIN: u32 = 128;

/// How the detector network is run on a frame.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DetectorRun {
    /// The whole input in one run, on one core (what the tiles are held to by
    /// `vision/tests/detect.rs`).
    Whole,
    /// The left and right halves (each with [`TILE_MARGIN`] more), on two cores at once
    /// where there are two ([`Detector::detect`]).
    Tiled,
}

/// The detector network.
pub struct Detector {
    /// The ONNX bytes, for the input shapes met later.
    bytes: Vec<u8>,
    /// The network loaded for each input shape met so far ([`INPUT_SHAPES`]; the first at
    /// load).
    nets: Mutex<Vec<Arc<ShapedNets>>>,
    /// Minimum heat-map peak per class.
    pub thresholds: [f32; CLASSES],
}

impl std::fmt::Debug for Detector {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Detector")
            .field("nets", &self.nets)
            .field("thresholds", &self.thresholds)
            .finish()
    }
}

/// The network optimised for one input shape: for one half of it plus [`TILE_MARGIN`]
/// (run on both halves), and for the whole of it, which only [`DetectorRun::Whole`] asks
/// for (loaded then).
#[derive(Debug)]
struct ShapedNets {
    shape: (u32, u32),
    tile: Net,
    whole: OnceLock<Net>,
}

impl ShapedNets {
    fn load(bytes: &[u8], (w, h): (u32, u32)) -> Result<ShapedNets, VisionError> {
        let tile_w = w / 2 + TILE_MARGIN;
        Ok(ShapedNets {
            shape: (w, h),
            tile: Net::load("detector", bytes, [1, 3, h as usize, tile_w as usize])?,
            whole: OnceLock::new(),
        })
    }

    /// The network for the whole input, loaded the first time it is asked for.
    fn whole(&self, bytes: &[u8]) -> Result<&Net, VisionError> {
        if let Some(net) = self.whole.get() {
            return Ok(net);
        }
        let (w, h) = self.shape;
        let net = Net::load("detector", bytes, [1, 3, h as usize, w as usize])?;
        Ok(self.whole.get_or_init(|| net))
    }
}

impl Detector {
    /// Loads the detector from ONNX bytes (for the widest input shape; the others when a
    /// frame first asks for them).
    pub fn load(bytes: &[u8]) -> Result<Detector, VisionError> {
        let first = ShapedNets::load(bytes, INPUT_SHAPES[0])?;
        Ok(Detector {
            bytes: bytes.to_vec(),
            nets: Mutex::new(vec![Arc::new(first)]),
            thresholds: [MAYBE_SCORE; CLASSES],
        })
    }

    /// The network for input `shape`, loaded the first time it is asked for.
    fn nets_for(&self, shape: (u32, u32)) -> Result<Arc<ShapedNets>, VisionError> {
        let mut nets = self
            .nets
            .lock()
            .map_err(|_| VisionError::Model("detector: a run panicked".into()))?;
        if let Some(n) = nets.iter().find(|n| n.shape == shape) {
            return Ok(Arc::clone(n));
        }
        let n = Arc::new(ShapedNets::load(&self.bytes, shape)?);
        nets.push(Arc::clone(&n));
        Ok(n)
    }

    /// How many times the network ran since it was loaded, at any input shape, a tile
    /// counting as one run ([`Net::runs`]).
    pub fn runs(&self) -> usize {
        self.nets.lock().map_or(0, |nets| {
            nets.iter()
                .map(|n| n.tile.runs() + n.whole.get().map_or(0, Net::runs))
                .sum()
        })
    }

    /// Finds the pieces in a frame, always in two tiles (at once on a machine of two cores
    /// or more, one after the other on one), so that a frame is read the same on any machine.
    pub fn detect(&self, frame: &RgbImage) -> Result<Vec<Detection>, VisionError> {
        self.detect_as(frame, DetectorRun::Tiled)
    }

    /// Finds the pieces in a frame, running the network as told.
    pub fn detect_as(
        &self,
        frame: &RgbImage,
        run: DetectorRun,
    ) -> Result<Vec<Detection>, VisionError> {
        let (input, lb) = letterbox(frame);
        let nets = self.nets_for(input.dimensions())?;
        let (out, shape) = match run {
            DetectorRun::Tiled => run_tiled(&nets, &input)?,
            DetectorRun::Whole => {
                let mut buf = Vec::with_capacity(input.len());
                push_chw(&mut buf, &input);
                nets.whole(&self.bytes)?.run(&buf)?
            }
        };
        if shape.len() != 4 || shape[1] < 9 || shape[1] > CLASSES + 8 {
            return Err(VisionError::Model(format!(
                "detector output shape {shape:?}"
            )));
        }
        Ok(
            decode(&out, shape[1] - 8, shape[2], shape[3], &self.thresholds)
                .into_iter()
                .map(|mut d| {
                    for c in d.corners.iter_mut() {
                        *c = lb.to_frame(*c);
                    }
                    d
                })
                .collect(),
        )
    }
}

/// Runs the network on the input's left and right halves at once, each tile reaching
/// [`TILE_MARGIN`] past the middle, and stitches the two outputs into the whole input's.
fn run_tiled(nets: &ShapedNets, input: &RgbImage) -> Result<(Vec<f32>, Vec<usize>), VisionError> {
    let (net_w, net_h) = nets.shape;
    let w = net_w / 2 + TILE_MARGIN;
    let tile = |x: u32| {
        let img = image::imageops::crop_imm(input, x, 0, w, net_h).to_image();
        let mut buf = Vec::with_capacity((3 * w * net_h) as usize);
        push_chw(&mut buf, &img);
        nets.tile.run(&buf)
    };
    let mut tiles = par::map(&[0, net_w - w], |&x| tile(x)).into_iter();
    let (Some(left), Some(right)) = (tiles.next(), tiles.next()) else {
        return Err(VisionError::Model("detector: a tile did not run".into()));
    };
    let ((left, ls), (right, rs)) = (left?, right?);
    if ls.len() != 4 || ls != rs {
        return Err(VisionError::Model(format!("detector tile shape {ls:?}")));
    }
    Ok(stitch(
        &left,
        &right,
        ls[1],
        ls[2],
        ls[3],
        (net_w / STRIDE) as usize,
    ))
}

/// Joins the outputs of a left and a right tile (`channels` x `gh` x `tw` each) into one
/// `gw` wide: the left half of the columns from the left tile, the rest from the right,
/// whose first column lies at `gw - tw`.
fn stitch(
    left: &[f32],
    right: &[f32],
    channels: usize,
    gh: usize,
    tw: usize,
    gw: usize,
) -> (Vec<f32>, Vec<usize>) {
    let (mid, off) = (gw / 2, gw - tw);
    let mut out = Vec::with_capacity(channels * gh * gw);
    for row in 0..channels * gh {
        let (l, r) = (&left[row * tw..][..tw], &right[row * tw..][..tw]);
        out.extend_from_slice(&l[..mid]);
        out.extend_from_slice(&r[mid - off..]);
    }
    (out, vec![1, channels, gh, gw])
}

/// Turns the raw output (`classes` heat maps then 8 corner offsets, each gh x gw) into
/// detections in input pixels. A detector of one class finds cards only.
pub fn decode(
    out: &[f32],
    classes: usize,
    gh: usize,
    gw: usize,
    thresholds: &[f32; CLASSES],
) -> Vec<Detection> {
    let plane = gh * gw;
    let at = |c: usize, y: usize, x: usize| out[c * plane + y * gw + x];
    let mut found = Vec::new();
    for class in PieceClass::ALL.into_iter().take(classes) {
        let c = class.index();
        let thr = thresholds[c];
        // A logit threshold avoids the exp on every cell.
        let logit_thr = (thr / (1.0 - thr)).ln();
        for y in 0..gh {
            for x in 0..gw {
                let v = at(c, y, x);
                if v < logit_thr {
                    continue;
                }
                if !is_peak(&out[c * plane..(c + 1) * plane], gw, gh, x, y, 1) {
                    continue;
                }
                let cx = (x as f32 + 0.5) * STRIDE as f32;
                let cy = (y as f32 + 0.5) * STRIDE as f32;
                let mut corners = [[0f32; 2]; 4];
                for (k, corner) in corners.iter_mut().enumerate() {
                    corner[0] = cx + at(classes + 2 * k, y, x) * OFFSET_SCALE;
                    corner[1] = cy + at(classes + 2 * k + 1, y, x) * OFFSET_SCALE;
                }
                found.push(Detection {
                    class,
                    score: sigmoid(v),
                    corners,
                });
            }
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decode_finds_a_peak_and_its_corners() {
        let (gh, gw) = (10, 12);
        let mut out = vec![-5.0f32; (CLASSES + 8) * gh * gw];
        let plane = gh * gw;
        out[plane + 4 * gw + 6] = 3.0; // a strip at cell (6, 4)
        for k in 0..8 {
            out[(CLASSES + k) * plane + 4 * gw + 6] = if k % 2 == 0 { -0.5 } else { 1.0 };
        }
        let d = decode(&out, CLASSES, gh, gw, &[0.35; 3]);
        assert_eq!(d.len(), 1);
        assert_eq!(d[0].class, PieceClass::Strip);
        assert!((d[0].corners[0][0] - (26.0 - 16.0)).abs() < 1e-4);
        assert!((d[0].corners[0][1] - (18.0 + 32.0)).abs() < 1e-4);
    }

    #[test]
    fn stitch_takes_each_half_of_the_columns_from_its_own_tile() {
        // A whole map of 2 channels x 3 rows x 8 columns; tiles of 6 columns each.
        let (channels, gh, gw, tw) = (2, 3, 8, 6);
        let whole: Vec<f32> = (0..channels * gh * gw).map(|v| v as f32).collect();
        let tile = |x0: usize| -> Vec<f32> {
            let mut t = Vec::new();
            for row in 0..channels * gh {
                t.extend_from_slice(&whole[row * gw + x0..row * gw + x0 + tw]);
            }
            t
        };
        let (mut left, mut right) = (tile(0), tile(gw - tw));
        // What each tile sees past the middle is the other tile's business.
        for row in 0..channels * gh {
            left[row * tw + 5] = -1.0;
            right[row * tw] = -1.0;
        }
        let (out, shape) = stitch(&left, &right, channels, gh, tw, gw);
        assert_eq!(shape, vec![1, channels, gh, gw]);
        assert_eq!(out, whole);
    }

    #[test]
    fn letterbox_maps_points_both_ways() {
        let frame = RgbImage::new(1000, 1000);
        let (img, lb) = letterbox(&frame);
        assert_eq!(img.dimensions(), (384, 384));
        let p = lb.to_frame(lb.to_input([123.0, 456.0]));
        assert!((p[0] - 123.0).abs() < 1e-3 && (p[1] - 456.0).abs() < 1e-3);
        let wide = RgbImage::new(1920, 1080);
        let (_, lb) = letterbox(&wide);
        assert_eq!((lb.pad_x, lb.pad_y, lb.turned), (0.0, 0.0, None));
    }

    #[test]
    fn each_frame_shape_gets_the_input_of_the_nearest_aspect() {
        for ((w, h), shape) in [
            ((1920, 1080), (NET_W, NET_H)),
            ((2560, 1080), (NET_W, NET_H)),
            ((1680, 1050), (480, 320)),
            ((1620, 1080), (480, 320)),
            ((1600, 1200), (448, 336)),
            ((4032, 3024), (448, 336)),
            ((1440, 1440), (384, 384)),
            ((1100, 1000), (384, 384)),
            // Taller than wide: as if turned.
            ((1080, 1920), (NET_W, NET_H)),
            ((3024, 4032), (448, 336)),
            ((1, 1), (384, 384)),
        ] {
            assert_eq!(input_shape(w, h), shape, "{w}x{h}");
            let (img, _) = letterbox(&RgbImage::new(w, h));
            assert_eq!(img.dimensions(), shape, "{w}x{h}");
        }
        // Every shape holds about as many pixels as the widest, and splits into two tiles
        // whose output grids line up at the coarsest stride.
        for (w, h) in INPUT_SHAPES {
            let share = f64::from(w * h) / f64::from(NET_W * NET_H);
            assert!((0.95..1.1).contains(&share), "{w}x{h}: {share}");
            assert_eq!((w % 32, h % 16, (w / 2 + TILE_MARGIN) % 16), (0, 0, 0));
        }
    }

    #[test]
    fn a_frame_taller_than_wide_is_turned_to_fill_the_input() {
        // An upright 1080x1920 frame, white but for a red block near its top-left corner.
        let mut frame = RgbImage::from_pixel(1080, 1920, Rgb([255, 255, 255]));
        for y in 100..300 {
            for x in 150..350 {
                frame.put_pixel(x, y, Rgb([255, 0, 0]));
            }
        }
        let (img, lb) = letterbox(&frame);
        assert_eq!(img.dimensions(), (NET_W, NET_H));
        // Turned, it fills the input as a 1920x1080 frame would: no bars, the same scale.
        assert_eq!((lb.pad_x, lb.pad_y, lb.turned), (0.0, 0.0, Some(1920.0)));
        assert!((lb.scale - NET_W as f32 / 1920.0).abs() < 1e-6);
        // The block's centre is red where the input shows it, and maps back to the frame.
        let [u, v] = lb.to_input([250.0, 200.0]);
        assert_eq!(img.get_pixel(u as u32, v as u32).0, [255, 0, 0]);
        let [x, y] = lb.to_frame([u, v]);
        assert!(
            (x - 250.0).abs() < 1e-3 && (y - 200.0).abs() < 1e-3,
            "{x}, {y}"
        );
        // A quarter turn clockwise: the frame's top edge is the input's right edge.
        assert!((lb.to_input([540.0, 0.0])[0] - NET_W as f32).abs() < 1e-3);
        assert!(img.get_pixel(NET_W - 1, 0).0 == [255, 255, 255]);
    }
}
