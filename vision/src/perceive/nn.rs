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

/// A network loaded for two batch sizes: full runs, and short runs for the few items left
/// over, so that three items do not pay for a whole padded batch.
#[derive(Debug)]
pub struct Batched {
    big: Net,
    small: Net,
}

/// The batch sizes that cover `n` items: full batches of `big`; then a remainder of more
/// than half a batch in one padded `big` run, or a smaller one in runs of `small`.
pub fn runs(n: usize, big: usize, small: usize) -> Vec<usize> {
    let (big, small) = (big.max(1), small.clamp(1, big.max(1)));
    let mut out = vec![big; n / big];
    let rest = n % big;
    if rest > big / 2 {
        out.push(big);
    } else if rest > 0 {
        out.extend(std::iter::repeat_n(small, rest.div_ceil(small)));
    }
    out
}

impl Batched {
    /// Loads ONNX bytes for inputs `[big, c, h, w]` and `[small, c, h, w]`.
    pub fn load(
        name: &str,
        bytes: &[u8],
        big: usize,
        small: usize,
        chw: [usize; 3],
    ) -> Result<Batched, VisionError> {
        let [c, h, w] = chw;
        Ok(Batched {
            big: Net::load(name, bytes, [big, c, h, w])?,
            small: Net::load(name, bytes, [small, c, h, w])?,
        })
    }

    /// Runs the network on `n` items; `push(i, buf)` appends item `i` (`c * h * w` values)
    /// to the batch buffer. Returns each item's output, flat, and the shape of one item's
    /// output.
    pub fn run_items(
        &self,
        n: usize,
        mut push: impl FnMut(usize, &mut Vec<f32>),
    ) -> Result<(Vec<Vec<f32>>, Vec<usize>), VisionError> {
        let mut out = Vec::with_capacity(n);
        let mut item_shape = Vec::new();
        let mut next = 0;
        for size in runs(n, self.big.shape[0], self.small.shape[0]) {
            let net = if size == self.big.shape[0] {
                &self.big
            } else {
                &self.small
            };
            let [b, c, h, w] = net.shape;
            let mut buf = Vec::with_capacity(b * c * h * w);
            let items = size.min(n - next);
            for i in next..next + items {
                push(i, &mut buf);
            }
            if buf.len() != items * c * h * w {
                return Err(VisionError::Model(format!(
                    "batch of {items} items holds {} values",
                    buf.len()
                )));
            }
            // Pad the batch to its fixed size.
            buf.resize(b * c * h * w, 0.0);
            let (values, shape) = net.run(buf)?;
            if shape.first() != Some(&b) || values.is_empty() {
                return Err(VisionError::Model(format!("output shape {shape:?}")));
            }
            let per = values.len() / b;
            item_shape = shape[1..].to_vec();
            out.extend(values.chunks(per).take(items).map(<[f32]>::to_vec));
            next += items;
        }
        Ok((out, item_shape))
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
    use super::runs;

    #[test]
    fn runs_cover_every_item_with_little_padding() {
        assert_eq!(runs(0, 16, 2), Vec::<usize>::new());
        assert_eq!(runs(32, 16, 2), vec![16, 16]);
        assert_eq!(runs(38, 16, 2), vec![16, 16, 2, 2, 2]);
        assert_eq!(runs(27, 16, 2), vec![16, 16]);
        assert_eq!(runs(1, 8, 2), vec![2]);
        for n in 0..100 {
            let r = runs(n, 8, 2);
            let covered: usize = r.iter().sum();
            assert!(covered >= n && covered < n + 8, "{n}: {r:?}");
        }
    }
}
