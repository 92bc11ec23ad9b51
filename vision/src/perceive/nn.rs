//! Networks run by tract: load an ONNX file, optimise it for a fixed input, run it.
//!
//! The models are the ones in `models/` (built into the binary). Inputs are NCHW `f32`
//! in 0..1, RGB, exactly as `models/train/common.py::to_input` makes them.

use super::VisionError;
use image::RgbImage;
use tract_onnx::prelude::*;

type Plan = TypedSimplePlan<TypedModel>;

/// A loaded, optimised network with a fixed input shape.
pub struct Net {
    plan: Plan,
    shape: [usize; 4],
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
        Ok(Net { plan, shape })
    }

    /// The input shape `[n, c, h, w]`.
    pub fn shape(&self) -> [usize; 4] {
        self.shape
    }

    /// Runs the network on a batch laid out as `[n, c, h, w]` and returns the first output
    /// as a flat vector with its shape.
    pub fn run(&self, input: Vec<f32>) -> Result<(Vec<f32>, Vec<usize>), VisionError> {
        let tensor = Tensor::from_shape(&self.shape, &input)
            .map_err(|e| VisionError::Model(format!("input: {e}")))?;
        let out = self
            .plan
            .run(tvec!(tensor.into()))
            .map_err(|e| VisionError::Model(format!("run: {e}")))?;
        let view = out[0]
            .to_array_view::<f32>()
            .map_err(|e| VisionError::Model(format!("output: {e}")))?;
        Ok((view.iter().copied().collect(), view.shape().to_vec()))
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
