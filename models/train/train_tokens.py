"""Trains the token finder: a rectified card (48x68) -> a heat map (stride 2) of the centres
of the tokens and markers lying on it.

Data (written by `cargo run --release -p tablelens-vision --example make_token_dataset`):
  tok_images.npy  uint8 (N, 68, 48, 3)  cards cut out of rendered scenes
  tok_points.json per card, the [x, y] centres of the pieces on it, in crop pixels
  tok_holdout.json how many scenes at the end are on held-out face styles (scored only)
"""
from __future__ import annotations

import argparse
import json
import os

import jax
import numpy as np

import nets
from common import fit, load_json, load_npy, to_input
from train_detector import focal

H, W, STRIDE = 68, 48, 2
GH, GW = H // STRIDE, W // STRIDE
INPUT = (3, H, W)
WIDTH = 16


def spec(width=WIDTH):
    """Four 3x3 convolutions of `width` channels (the first of stride 2, two dilated) and a
    1x1 head."""
    return [
        nets.conv("t1", 3, width, stride=2),
        nets.conv("t2", width, width),
        nets.conv("t3", width, width, dilation=2),
        nets.conv("t4", width, width, dilation=4),
        nets.conv("head", width, 1, k=1, relu=False),
    ]


def targets(points):
    heat = np.zeros((1, GH, GW), np.float32)
    ys, xs = np.mgrid[0:GH, 0:GW]
    for x, y in points:
        cx, cy = x / STRIDE - 0.5, y / STRIDE - 0.5
        g = np.exp(-((xs - cx) ** 2 + (ys - cy) ** 2) / (2 * 1.2 ** 2))
        heat[0] = np.maximum(heat[0], g)
        ix, iy = int(round(cx)), int(round(cy))
        if 0 <= ix < GW and 0 <= iy < GH:
            heat[0, iy, ix] = 1.0
    return heat


def half_turn(p):
    """`augment` for `common.fit`: each card of a batch turned half round with chance `p`,
    its heat map with it. A card lies on the table either way up and a token on it is the
    same token turned, so the finder should see it either way (`models/tokens.md`, "The
    other way up"). The map's cells turn exactly onto cells: cell j of GW lies over crop
    pixels 2j and 2j + 1, which turn onto 2(GW - 1 - j) + 1 and 2(GW - 1 - j)."""
    def augment(rng, images, heat):
        turn = rng.random(len(images)) < p
        images, heat = images.copy(), heat.copy()
        images[turn] = images[turn][:, ::-1, ::-1]
        heat[turn] = heat[turn][:, :, ::-1, ::-1]
        return images, heat
    return augment


def peaks(h, thr):
    from numpy.lib.stride_tricks import sliding_window_view
    pad = np.pad(h, 2, constant_values=-1)
    win = sliding_window_view(pad, (5, 5)).max(axis=(2, 3))
    ys, xs = np.where((h >= win) & (h > thr))
    return [((x + 0.5) * STRIDE, (y + 0.5) * STRIDE) for y, x in zip(ys, xs)]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", required=True, nargs="+", help="one or more folders made by make_token_dataset")
    ap.add_argument("--width", type=int, default=WIDTH, help="channels of each convolution")
    ap.add_argument("--out", default=os.path.join(os.path.dirname(__file__), "..", "tokens.onnx"))
    ap.add_argument("--steps", type=int, default=3000)
    ap.add_argument("--batch", type=int, default=64)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--init", help="start from the weights of this ONNX file (same width)")
    ap.add_argument("--peak-lr", type=float, default=3e-3)
    ap.add_argument("--turn", type=float, default=0.0,
                    help="chance that a training card is turned half round (0: none drawn)")
    args = ap.parse_args()
    SPEC = spec(args.width)
    # The last tenth of each folder's cards (its held-out scenes) is scored, never trained on.
    images, points, train_idx, hold = [], [], [], []
    for d in args.data:
        im, pt = load_npy(d, "tok_images.npy"), load_json(d, "tok_points.json")
        start, n_hold = sum(len(i) for i in images), max(1, len(im) // 10)
        train_idx.extend(range(start, start + len(im) - n_hold))
        hold.extend(range(start + len(im) - n_hold, start + len(im)))
        images.append(im)
        points.extend(pt)
    images = np.concatenate(images)
    n, n_hold = len(images), len(hold)
    train_idx, hold = np.array(train_idx), np.array(hold)
    heat = np.stack([targets(p) for p in points])
    print(f"{n} cards, {sum(len(p) for p in points)} pieces on them; {n_hold} held out")
    params = nets.init_params(SPEC, jax.random.PRNGKey(args.seed))
    params["head.b"] = params["head.b"].at[:].set(-2.2)
    if args.init:
        params = nets.load_onnx_params(args.init, params)
        print(f"started from {args.init}")
    print(f"token finder: {nets.param_count(params)} parameters, {nets.macs(SPEC, INPUT) / 1e6:.1f} M MACs per card")
    params, clock = fit(SPEC, params, focal, images, heat, train_idx, steps=args.steps,
                        batch=args.batch, seed=args.seed, peak_lr=args.peak_lr, warmup=100, end_lr=3e-5,
                        gain=0.2, bias=15, augment=half_turn(args.turn) if args.turn > 0 else None)

    fwd = jax.jit(lambda p, x: jax.nn.sigmoid(nets.forward(SPEC, p, x)))
    tp = fp = fn = 0
    for start in range(0, len(hold), 256):
        idx = hold[start:start + 256]
        h = np.asarray(fwd(params, to_input(images[idx])))
        for k, i in enumerate(idx):
            found = peaks(h[k, 0], 0.4)
            truth = list(points[i])
            for fx, fy in found:
                d = [((fx - tx) ** 2 + (fy - ty) ** 2) ** 0.5 for tx, ty in truth]
                if d and min(d) < 5:
                    truth.pop(int(np.argmin(d)))
                    tp += 1
                else:
                    fp += 1
            fn += len(truth)
    recall, precision = tp / max(tp + fn, 1), tp / max(tp + fp, 1)
    print(f"held out: recall {recall:.4f} precision {precision:.4f} ({tp + fn} pieces)")
    nets.export_onnx(SPEC, params, INPUT, args.out, f"tablelens token finder; held-out recall {recall:.4f}")
    with open(os.path.splitext(args.out)[0] + ".metrics.json", "w") as f:
        json.dump({"heldout_recall": recall, "heldout_precision": precision, "heldout_pieces": tp + fn,
                   "steps": args.steps, "params": nets.param_count(params), "macs": nets.macs(SPEC, INPUT),
                   "train_seconds": round(float(str(clock).strip()[:-1]))}, f, indent=1)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
