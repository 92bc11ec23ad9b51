"""Averages the weights of two ONNX files of the same network, weight by weight:
(1 - w) * FIRST + w * SECOND, and writes the result as a third.

Two networks of which one was trained further from the other lie in the same valley of the
loss, and their average often does better than either at the table (detector.md tells where
this was done and what it gave). Both files must come from the layer list `SPEC` of the
named training script (or its `spec()` at the default width), which also exports the result.

    python average_weights.py --net train_detector FIRST.onnx SECOND.onnx --weight 0.5 --out OUT.onnx
"""
from __future__ import annotations

import argparse
import importlib

import jax

import nets


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--net", required=True, help="training script whose SPEC and INPUT the files follow, e.g. train_detector")
    ap.add_argument("first")
    ap.add_argument("second")
    ap.add_argument("--weight", type=float, default=0.5, help="share of the second file's weights")
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    if not 0.0 <= args.weight <= 1.0:
        ap.error("--weight must lie between 0 and 1")
    net = importlib.import_module(args.net)
    # A script whose network has a width option gives it as `spec()` at its default width.
    spec = net.SPEC if hasattr(net, "SPEC") else net.spec()
    shape = nets.init_params(spec, jax.random.PRNGKey(0))
    first = nets.load_onnx_params(args.first, shape)
    second = nets.load_onnx_params(args.second, shape)
    w = args.weight
    mixed = {k: (1 - w) * first[k] + w * second[k] for k in shape}
    nets.export_onnx(spec, mixed, net.INPUT, args.out,
                     f"{args.net}: {1 - w:g} x {args.first} + {w:g} x {args.second}")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
