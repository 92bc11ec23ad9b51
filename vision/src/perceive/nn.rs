//! Networks run by tract: load an ONNX file, optimise it for a fixed input, run it.
//!
//! The models are the ones in `models/` (built into the binary). Inputs are NCHW `f32`
//! in 0..1, RGB, exactly as `models/train/common.py::to_input` makes them.

use super::VisionError;
use image::RgbImage;
use std::sync::atomic::{AtomicUsize, Ordering};
use tract_onnx::prelude::*;

type Plan = Arc<TypedSimplePlan>;

/// A loaded, optimised network with a fixed input shape.
pub struct Net {
    plan: Plan,
    shape: [usize; 4],
    /// Runs since loading, on every thread ([`Net::runs`]).
    runs: AtomicUsize,
}

impl std::fmt::Debug for Net {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Net{:?}", self.shape)
    }
}

impl Net {
    /// Loads ONNX bytes and optimises the graph for input `[n, c, h, w]`.
    pub fn load(name: &str, bytes: &[u8], shape: [usize; 4]) -> Result<Net, VisionError> {
        let fail = |e: TractError| VisionError::Model(format!("{name}: {e}"));
        let plan = tract_onnx::onnx()
            .model_for_read(&mut std::io::Cursor::new(bytes))
            .map_err(fail)?
            .with_input_fact(0, f32::fact(shape).into())
            .map_err(fail)?
            .into_optimized()
            .map_err(fail)?
            .into_runnable()
            .map_err(fail)?;
        Ok(Net {
            plan,
            shape,
            runs: AtomicUsize::new(0),
        })
    }

    /// The input shape `[n, c, h, w]`.
    pub fn shape(&self) -> [usize; 4] {
        self.shape
    }

    /// Runs the network on a batch laid out as `[n, c, h, w]` and returns the first output
    /// as a flat vector with its shape.
    pub fn run(&self, input: &[f32]) -> Result<(Vec<f32>, Vec<usize>), VisionError> {
        let tensor = Tensor::from_shape(&self.shape, input)
            .map_err(|e| VisionError::Model(format!("input: {e}")))?;
        let out = self
            .plan
            .run(tvec!(tensor.into()))
            .map_err(|e| VisionError::Model(format!("run: {e}")))?;
        self.runs.fetch_add(1, Ordering::Relaxed);
        let view = out[0]
            .to_plain_array_view::<f32>()
            .map_err(|e| VisionError::Model(format!("output: {e}")))?;
        Ok((view.iter().copied().collect(), view.shape().to_vec()))
    }

    /// How many times the network ran since it was loaded, on every thread (an input it
    /// refused is not counted): the work an analysis asks of it, which unlike its time does
    /// not depend on what else the machine is doing ([`super::Analyzer::network_runs`]).
    pub fn runs(&self) -> usize {
        self.runs.load(Ordering::Relaxed)
    }
}

/// The fewest items a core is given to run ([`super::par::split`]): an item takes 0.2 to
/// 0.7 ms, starting a thread a few hundredths of that.
pub const LEAST_SHARE: usize = 2;

/// A network run on one item at a time. tract runs these small networks faster item by
/// item than in batches: its im2col for a batch costs more per item than a run of one. With
/// tract 0.23, per item on one core, a run of one against batches of 4 and 8: embedder 0.39
/// against 0.63 and 0.79 ms, token finder 0.54 against 0.87 and 1.57, corner refiner 0.41
/// against 0.51 and 0.72, strip finder 0.39 against 0.48 and 0.52 (with tract 0.21 it was
/// the same: token finder 0.56 against 1.07 and 1.44).
#[derive(Debug)]
pub struct ItemNet {
    net: Net,
}

impl ItemNet {
    /// Loads ONNX bytes for one input of `[c, h, w]`.
    pub fn load(name: &str, bytes: &[u8], chw: [usize; 3]) -> Result<ItemNet, VisionError> {
        let [c, h, w] = chw;
        Ok(ItemNet {
            net: Net::load(name, bytes, [1, c, h, w])?,
        })
    }

    /// Runs the network on `n` items; `push(i, buf)` appends item `i` (`c * h * w` values)
    /// to an empty input buffer. Returns each item's output, flat, and the shape of one
    /// item's output.
    pub fn run_items(
        &self,
        n: usize,
        mut push: impl FnMut(usize, &mut Vec<f32>),
    ) -> Result<(Vec<Vec<f32>>, Vec<usize>), VisionError> {
        let [_, c, h, w] = self.net.shape;
        let mut out = Vec::with_capacity(n);
        let mut item_shape = Vec::new();
        let mut buf = Vec::with_capacity(c * h * w);
        for i in 0..n {
            buf.clear();
            push(i, &mut buf);
            if buf.len() != c * h * w {
                return Err(VisionError::Model(format!(
                    "an item of {} values for an input of {}",
                    buf.len(),
                    c * h * w
                )));
            }
            let (values, shape) = self.net.run(&buf)?;
            if shape.first() != Some(&1) || values.is_empty() {
                return Err(VisionError::Model(format!("output shape {shape:?}")));
            }
            item_shape = shape[1..].to_vec();
            out.push(values);
        }
        Ok((out, item_shape))
    }

    /// How many items the network ran on since it was loaded ([`Net::runs`]).
    pub fn runs(&self) -> usize {
        self.net.runs()
    }
}

/// Appends an RGB image to a NCHW batch buffer as values in 0..1.
pub fn push_chw(buf: &mut Vec<f32>, img: &RgbImage) {
    let (w, h) = img.dimensions();
    let plane = (w * h) as usize;
    let start = buf.len();
    buf.resize(start + 3 * plane, 0.0);
    for (i, p) in img.pixels().enumerate() {
        for c in 0..3 {
            buf[start + c * plane + i] = f32::from(p.0[c]) / 255.0;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn items_run_one_by_one_and_a_wrong_sized_item_is_an_error() {
        let net =
            ItemNet::load("refiner", crate::perceive::REFINER_ONNX, [3, 64, 48]).expect("refiner");
        let (out, shape) = net
            .run_items(3, |i, buf| buf.resize(3 * 64 * 48, i as f32 / 3.0))
            .expect("run");
        assert_eq!((out.len(), shape), (3, vec![8]));
        assert!(out.iter().all(|o| o.len() == 8));
        // The same item gives the same output whatever runs beside it.
        let (again, _) = net
            .run_items(1, |_, buf| buf.resize(3 * 64 * 48, 2.0 / 3.0))
            .expect("run");
        assert_eq!(again[0], out[2]);
        let short = net.run_items(1, |_, buf| buf.resize(10, 0.0));
        assert!(matches!(short, Err(VisionError::Model(_))), "{short:?}");
        // Four items ran; the wrong-sized one never reached the network, and an input the
        // network itself refuses is not counted either.
        assert_eq!(net.runs(), 4);
        let refused = net.net.run(&[0.0; 10]);
        assert!(matches!(refused, Err(VisionError::Model(_))), "{refused:?}");
        assert_eq!(net.runs(), 4);
    }
}
