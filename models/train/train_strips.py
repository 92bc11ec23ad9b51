"""Trains the strip finder: a window over a unit card's printed right edge and beyond (64x64;
0.72 to 1.48 of the card across, -0.08 to 1.08 down, in the card's own perspective) -> where
the four corners of its module's strip lie in the window, as offsets from where they would be
for a strip 12/63 of a card wide at the card's right edge (vision/src/perceive/strips.rs),
and a ninth number: the logit that a module is there at all (beside a unit with none, the
corners are those of a strip of the nominal width at the card's true edge).

Data (written by `cargo run --release -p tablelens-vision --example make_strip_dataset`):
  strip_images.npy   uint8 (N, 64, 64, 3)  windows cut out of rendered scenes
  strip_targets.npy  float32 (N, 8)        the strip's true corners, as the network should output them
  strip_present.npy  float32 (N, 1)        1 where a module is tucked under the unit, else 0
  strip_holdout.json how many windows at the end come from held-out face styles (scored only)
"""
from __future__ import annotations

import numpy as np

import nets
from common import corner_net_args, export_with_metrics, fit_corner_net

H, W = 64, 64
INPUT = (3, H, W)
OUTPUT_SCALE = 4.0
ACROSS = 1.48 - 0.72  # card widths across the window
DOWN = 1.08 + 0.08  # card heights down the window
SPEC = [
    nets.conv("s1", 3, 16, stride=2),
    nets.conv("s2", 16, 24, stride=2),
    nets.conv("s3", 24, 24),
    nets.conv("s4", 24, 48, stride=2),
    nets.conv("s5", 48, 48),
    ("flatten_dense", "head", 48 * (H // 8) * (W // 8), 9),
]
# Weight of the presence's cross-entropy beside the corners' L1.
PRESENCE_WEIGHT = 0.5


def errors(pred, target):
    """Per window: the worst error across (in card widths) of the strip's two inner corners,
    and of its two outer corners, and the worst error down (in card heights)."""
    d = (pred - target).reshape(-1, 4, 2) / OUTPUT_SCALE
    across = np.abs(d[:, :, 0]) * ACROSS
    down = np.abs(d[:, :, 1]) * DOWN
    inner = across[:, [0, 3]].max(axis=1)
    outer = across[:, [1, 2]].max(axis=1)
    return inner, outer, down.max(axis=1)


def main():
    args = corner_net_args("strips.onnx")
    params, clock, truth, pred = fit_corner_net(args, SPEC, INPUT, "strip", "strip finder",
                                                presence_weight=PRESENCE_WEIGHT)
    n_hold = len(truth)
    present, truth, logit, pred = truth[:, 8] > 0.5, truth[:, :8], pred[:, 8], pred[:, :8]
    b_in, b_out, b_down = errors(np.zeros_like(truth), truth)
    a_in, a_out, a_down = errors(pred, truth)
    m = {"heldout_windows": int(n_hold),
         "heldout_median_inner_error_before": float(np.median(b_in)),
         "heldout_median_inner_error_after": float(np.median(a_in)),
         "heldout_p90_inner_error_after": float(np.percentile(a_in, 90)),
         "heldout_median_outer_error_before": float(np.median(b_out)),
         "heldout_median_outer_error_after": float(np.median(a_out)),
         "heldout_median_down_error_before": float(np.median(b_down)),
         "heldout_median_down_error_after": float(np.median(a_down)),
         "heldout_presence_accuracy": float(np.mean((logit > 0) == present)),
         "heldout_with_module": int(present.sum()),
         "heldout_module_missed_at_half": float(np.mean(logit[present] <= 0)),
         "heldout_module_invented_at_half": float(np.mean(logit[~present] > 0)),
         "steps": args.steps, "params": nets.param_count(params), "macs": nets.macs(SPEC, INPUT),
         "train_seconds": round(float(str(clock).strip()[:-1]))}
    print("held out, worst error as a share of the card (median before -> after):")
    print(f"  inner edge across {m['heldout_median_inner_error_before']:.4f} -> {m['heldout_median_inner_error_after']:.4f}"
          f" (p90 {m['heldout_p90_inner_error_after']:.4f})")
    print(f"  outer edge across {m['heldout_median_outer_error_before']:.4f} -> {m['heldout_median_outer_error_after']:.4f}")
    print(f"  down              {m['heldout_median_down_error_before']:.4f} -> {m['heldout_median_down_error_after']:.4f}")
    print(f"presence right {m['heldout_presence_accuracy']:.4f}: of {m['heldout_with_module']} modules"
          f" {m['heldout_module_missed_at_half']:.4f} missed, of the rest {m['heldout_module_invented_at_half']:.4f} invented")
    export_with_metrics(SPEC, params, INPUT, args.out,
                        f"tablelens strip finder; held-out median inner-edge error {m['heldout_median_inner_error_after']:.4f}", m)


if __name__ == "__main__":
    main()
