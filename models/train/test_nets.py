"""Checks that the ONNX export computes what the JAX network computes."""
import sys
import jax
import numpy as np
import onnx
from onnx.reference import ReferenceEvaluator

import nets

spec = [
    nets.conv("a", 3, 8, stride=2), ("save", "s"), nets.conv("b", 8, 8, stride=2, dilation=2),
    ("up2",), ("concat", "s"), nets.conv("c", 16, 4, k=1, relu=False),
]
params = nets.init_params(spec, jax.random.PRNGKey(0))
x = np.random.default_rng(0).random((2, 3, 16, 12), dtype=np.float32)
want = np.asarray(nets.forward(spec, params, x))
nets.export_onnx(spec, params, (3, 16, 12), "/tmp/t.onnx", "test")
got = ReferenceEvaluator(onnx.load("/tmp/t.onnx")).run(None, {"input": x})[0]
assert np.allclose(want, got, atol=1e-4), np.abs(want - got).max()
spec2 = [nets.conv("a", 3, 4, stride=2), ("flatten_dense", "d", 4 * 8 * 6, 5), ("l2norm",)]
p2 = nets.init_params(spec2, jax.random.PRNGKey(1))
nets.export_onnx(spec2, p2, (3, 16, 12), "/tmp/t2.onnx", "test")
want = np.asarray(nets.forward(spec2, p2, x))
got = ReferenceEvaluator(onnx.load("/tmp/t2.onnx")).run(None, {"input": x})[0]
got = got / np.linalg.norm(got, axis=1, keepdims=True)  # the normalisation left to the caller
assert np.allclose(want, got, atol=1e-4), np.abs(want - got).max()
print("onnx export matches jax")
# Reference sums for the Rust/tract check: same deterministic input as tractcheck.
xx = np.fromfunction(lambda a, b, c, d: ((a * 7 + b * 5 + c * 3 + d) % 11) / 11.0, (2, 3, 16, 12)).astype(np.float32)
for path in ["/tmp/t.onnx", "/tmp/t2.onnx"]:
    got = ReferenceEvaluator(onnx.load(path)).run(None, {"input": xx})[0]
    print(path, got.shape, got.sum())
