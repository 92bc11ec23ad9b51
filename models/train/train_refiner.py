"""Trains the corner refiner: a window cut around a card's rough corners (48x64, the card
with a quarter of its size as margin on every side) -> where its four true corners lie in
the window, as offsets from where they would be if the rough corners were right
(vision/src/perceive/refine.rs).

Data (written by `cargo run --release -p tablelens-vision --example make_refine_dataset`):
  ref_images.npy   uint8 (N, 64, 48, 3)  windows cut out of rendered scenes
  ref_targets.npy  float32 (N, 8)        the true corners, as the network should output them
  ref_holdout.json how many windows at the end come from held-out face styles (scored only)
"""
from __future__ import annotations

import numpy as np

import nets
from common import corner_net_args, export_with_metrics, fit_corner_net

H, W = 64, 48
INPUT = (3, H, W)
OUTPUT_SCALE = 4.0
MARGIN = 0.25


def spec(width=1.0):
    """The network: five 3x3 convolutions (three of stride 2) and a dense head to the eight
    corner numbers. `width` scales every layer's channels (1.0: 12-24-24-48-48)."""
    a, b, c = (max(4, round(n * width)) for n in (12, 24, 48))
    return [
        nets.conv("r1", 3, a, stride=2),
        nets.conv("r2", a, b, stride=2),
        nets.conv("r3", b, b),
        nets.conv("r4", b, c, stride=2),
        nets.conv("r5", c, c),
        ("flatten_dense", "head", c * (H // 8) * (W // 8), 8),
    ]


def card_side_error(pred, target):
    """Mean corner distance as a share of the card's size (the card spans 1/(1+2*MARGIN) of
    the window; x and y are scaled by the window's own sides)."""
    d = (pred - target).reshape(-1, 4, 2) / OUTPUT_SCALE * (1 + 2 * MARGIN)
    return np.sqrt((d ** 2).sum(axis=2)).mean(axis=1)


def main():
    args = corner_net_args("refiner.onnx", width=1.5)  # the committed model's width
    layers = spec(args.width)
    params, clock, truth, pred = fit_corner_net(args, layers, INPUT, "ref", "refiner")
    n_hold = len(truth)
    before = card_side_error(np.zeros_like(truth), truth)
    after = card_side_error(pred, truth)
    m = {"heldout_windows": int(n_hold),
         "heldout_median_error_before": float(np.median(before)),
         "heldout_median_error_after": float(np.median(after)),
         "heldout_p90_error_after": float(np.percentile(after, 90)),
         "steps": args.steps, "batch": args.batch, "width": args.width,
         "params": nets.param_count(params), "macs": nets.macs(layers, INPUT),
         "train_seconds": round(float(str(clock).strip()[:-1]))}
    print(f"held out: corner error (share of the card) median {m['heldout_median_error_before']:.4f} -> "
          f"{m['heldout_median_error_after']:.4f}, p90 {m['heldout_p90_error_after']:.4f}")
    export_with_metrics(layers, params, INPUT, args.out,
                        f"tablelens corner refiner; held-out median error {m['heldout_median_error_after']:.4f}", m)


if __name__ == "__main__":
    main()
