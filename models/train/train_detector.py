"""Trains the card detector: a table photo (resized to 512x288) -> for every card (city or
unit), its centre and its four corners. Module strips, tokens and markers are read on each
card afterwards (vision/src/perceive/tokens.rs and assemble.rs), where they are large.

CenterNet-style, at stride 4 (a 128x72 grid): a centre heat map
and, at each centre, eight numbers: the four corners relative to the centre, in units of
32 input pixels. A card's corners are learnt in printed order up to a half turn (the loss
takes the better of the two orders), since which end is the top is decided later, by the
identification. A small piece's corners are the image-axis-aligned square of its size.

Data (written by `make_dataset`): det_images.npy uint8 (N, 288, 512, 3) and
det_pieces.json: per image, [{"class": 0|1|2, "corners": [[x, y] x4]}] in input pixels.
The last `--holdout` images are only scored.
"""
from __future__ import annotations

import argparse
import json
import os

import jax
import jax.numpy as jnp
import numpy as np
import optax

import nets
from common import Clock, load_json, load_npy, recolour, to_input

H, W, STRIDE = 288, 512, 4
GH, GW = H // STRIDE, W // STRIDE
CLASSES = 1  # cards only: tokens, markers and module strips are read on each card
OFFSET_SCALE = 32.0
INPUT = (3, H, W)
# Features at strides 4, 8 and 16 (the last sees a whole card and its neighbours), joined
# back at stride 4, where the heat map and the corners are read.
SPEC = [
    nets.conv("s1", 3, 16, stride=2),
    nets.conv("s2", 16, 24, stride=2),
    ("save", "stride4"),
    nets.conv("d1", 24, 48, stride=2),
    nets.conv("d2", 48, 48),
    nets.conv("d3", 48, 48, dilation=2),
    ("save", "stride8"),
    nets.conv("e1", 48, 64, stride=2),
    nets.conv("e2", 64, 64, dilation=2),
    nets.conv("e3", 64, 64, dilation=4),
    ("up2",),
    ("concat", "stride8"),
    nets.conv("u1", 112, 48, k=1),
    ("up2",),
    ("concat", "stride4"),
    nets.conv("m1", 72, 24, k=1),
    nets.conv("m2", 24, 24),
    nets.conv("head", 24, CLASSES + 8, k=1, relu=False),
]


def targets(pieces):
    """Heat maps (C, GH, GW), offsets (8, GH, GW), offset mask (GH, GW), and for cards the
    alternative (half-turned) offsets."""
    heat = np.zeros((CLASSES, GH, GW), np.float32)
    off = np.zeros((8, GH, GW), np.float32)
    alt = np.zeros((8, GH, GW), np.float32)
    mask = np.zeros((GH, GW), np.float32)
    ys, xs = np.mgrid[0:GH, 0:GW]
    for p in pieces:
        c = np.array(p["corners"], np.float32)
        cls = p["class"]
        if cls >= CLASSES:
            continue
        center = c.mean(axis=0)
        side = np.mean(np.linalg.norm(c - np.roll(c, 1, axis=0), axis=1))
        if cls == 2:
            h = side / 2
            c = np.array([[-h, -h], [h, -h], [h, h], [-h, h]], np.float32) + center
        cx, cy = center / STRIDE
        if not (0 <= cx < GW and 0 <= cy < GH):
            continue
        sigma = max(0.7, 0.12 * side / STRIDE)
        g = np.exp(-((xs - cx) ** 2 + (ys - cy) ** 2) / (2 * sigma * sigma))
        heat[cls] = np.maximum(heat[cls], g)
        rel = (c - center) / OFFSET_SCALE
        rel_alt = np.roll(rel, 2, axis=0) if cls != 2 else rel
        ix, iy = int(cx), int(cy)
        for dy in (-1, 0, 1):
            for dx in (-1, 0, 1):
                x, y = ix + dx, iy + dy
                if 0 <= x < GW and 0 <= y < GH and (dx == 0 and dy == 0 or mask[y, x] == 0):
                    # cell centre in input pixels; offsets are relative to the cell, not the true centre
                    cell = np.array([(x + 0.5) * STRIDE, (y + 0.5) * STRIDE], np.float32)
                    shift = (center - cell) / OFFSET_SCALE
                    off[:, y, x] = (rel + shift).reshape(-1)
                    alt[:, y, x] = (rel_alt + shift).reshape(-1)
                    mask[y, x] = 1.0 if (dx == 0 and dy == 0) else 0.5
    return heat, off, alt, mask


def flip(x, heat, off, alt, mask, horizontal):
    """Mirrors a batch and its targets (jnp arrays, x in NCHW). Offsets are relative to
    their cell, so mirroring negates one coordinate; the corners, still clockwise from a
    top-left, change places."""
    axis, coord, order = (3, 0, [1, 0, 3, 2]) if horizontal else (2, 1, [3, 2, 1, 0])

    def corners(o):
        o = jnp.flip(o, axis=axis).reshape(o.shape[0], 4, 2, GH, GW)
        o = o.at[:, :, coord].multiply(-1)
        return o[:, jnp.array(order)].reshape(o.shape[0], 8, GH, GW)

    return (jnp.flip(x, axis=axis), jnp.flip(heat, axis=axis), corners(off), corners(alt),
            jnp.flip(mask, axis=axis - 1))


def augment(x_u8, heat, off, alt, mask, gain, bias, flip_h, flip_v):
    """The photometric jitter of `common.jitter` (a gain per channel, one brightness shift
    per image, rounded down to whole levels as uint8 would be) and the random mirrorings,
    done inside the compiled step so that a fast device is not kept waiting by the host.
    uint8 NHWC in; the network's float NCHW input and the mirrored targets out."""
    x = jnp.floor(jnp.clip(x_u8.astype(jnp.float32) * gain + bias, 0, 255)) / 255.0
    batch = (jnp.transpose(x, (0, 3, 1, 2)), heat, off, alt, mask)
    batch = jax.lax.cond(flip_h, lambda b: flip(*b, horizontal=True), lambda b: b, batch)
    return jax.lax.cond(flip_v, lambda b: flip(*b, horizontal=False), lambda b: b, batch)


def focal(pred_logits, gt):
    p = jax.nn.sigmoid(pred_logits)
    p = jnp.clip(p, 1e-4, 1 - 1e-4)
    pos = (gt > 0.99).astype(jnp.float32)
    neg = 1.0 - pos
    pos_loss = -jnp.log(p) * (1 - p) ** 2 * pos
    neg_loss = -jnp.log(1 - p) * p ** 2 * (1 - gt) ** 4 * neg
    n = jnp.maximum(pos.sum(), 1.0)
    return (pos_loss.sum() + neg_loss.sum()) / n


def score(fwd, params, images, pieces, idx):
    """Card recall and precision at the two thresholds tablelens uses (a peak within 2.5
    cells of a card's centre finds it), and the median corner error as a share of the card."""
    from numpy.lib.stride_tricks import sliding_window_view
    out = {}
    found = {0.35: [0, 0, 0], 0.15: [0, 0, 0]}  # hits, cards, peaks
    errors = []
    for start in range(0, len(idx), 16):
        b = idx[start:start + 16]
        pred = np.asarray(fwd(params, to_input(images[b])))
        for k, i in enumerate(b):
            h = 1 / (1 + np.exp(-pred[k, 0]))
            win = sliding_window_view(np.pad(h, 1, constant_values=-1), (3, 3)).max(axis=(2, 3))
            cards = [np.array(p["corners"], np.float32) for p in pieces[i] if p["class"] == 0]
            for thr, f in found.items():
                peaks = np.argwhere((h >= win) & (h > thr))
                f[1] += len(cards)
                f[2] += len(peaks)
                for c in cards:
                    cy, cx = c.mean(axis=0)[::-1] / STRIDE
                    d = np.hypot(peaks[:, 0] - cy, peaks[:, 1] - cx) if len(peaks) else np.array([])
                    if len(d) and d.min() < 2.5:
                        f[0] += 1
                        if thr == 0.15:
                            y, x = peaks[d.argmin()]
                            cell = np.array([(x + 0.5) * STRIDE, (y + 0.5) * STRIDE])
                            got = pred[k, CLASSES:, y, x].reshape(4, 2) * OFFSET_SCALE + cell
                            side = np.mean(np.linalg.norm(c - np.roll(c, 1, axis=0), axis=1))
                            e = min(np.linalg.norm(got - c, axis=1).mean(),
                                    np.linalg.norm(got - np.roll(c, 2, axis=0), axis=1).mean())
                            errors.append(e / side)
    for thr, (hits, cards, peaks) in found.items():
        out[f"recall_at_{thr}"] = hits / max(cards, 1)
        out[f"precision_at_{thr}"] = min(hits, peaks) / max(peaks, 1)
    out["median_corner_error"] = float(np.median(errors)) if errors else None
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", required=True, nargs="+", help="one or more folders made by make_dataset")
    ap.add_argument("--out", default=os.path.join(os.path.dirname(__file__), "..", "detector.onnx"))
    ap.add_argument("--steps", type=int, default=4000)
    ap.add_argument("--batch", type=int, default=8)
    ap.add_argument("--holdout", type=int, default=100)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--init", help="start from the weights of this ONNX file (same architecture)")
    ap.add_argument("--peak-lr", type=float, default=2e-3)
    ap.add_argument("--recolour", type=float, default=0.0,
                    help="probability of shuffling an image's colour channels (a third of it: grey)")
    ap.add_argument("--checkpoint-every", type=int, default=0, help="also write the ONNX every N steps")
    args = ap.parse_args()

    # Each folder's last `--holdout` frames are on held-out face styles: scored, never trained on.
    images, pieces, train_idx, hold_idx = [], [], [], []
    for d in args.data:
        im = load_npy(d, "det_images.npy")
        start = sum(len(i) for i in images)
        train_idx += range(start, start + len(im) - args.holdout)
        hold_idx += range(start + len(im) - args.holdout, start + len(im))
        images.append(im)
        pieces += load_json(d, "det_pieces.json")
    images = np.concatenate(images)
    n = len(images)
    train_idx, hold_idx = np.array(train_idx), np.array(hold_idx)
    print(f"{n} images, {len(train_idx)} for training")
    clock = Clock()
    tg = [targets(p) for p in pieces]
    heat = np.stack([t[0] for t in tg]); off = np.stack([t[1] for t in tg])
    alt = np.stack([t[2] for t in tg]); mask = np.stack([t[3] for t in tg])
    print(f"{clock} targets built")

    params = nets.init_params(SPEC, jax.random.PRNGKey(args.seed))
    # Start the heat maps at a low prior, as CenterNet does.
    params["head.b"] = params["head.b"].at[:CLASSES].set(-2.2)
    if args.init:
        params = nets.load_onnx_params(args.init, params)
        print(f"started from {args.init}")
    print(f"detector: {nets.param_count(params)} parameters, {nets.macs(SPEC, INPUT) / 1e6:.0f} M MACs per frame")
    sched = optax.warmup_cosine_decay_schedule(1e-4, args.peak_lr, min(200, args.steps // 4), args.steps, 2e-5)
    opt = optax.adamw(sched, weight_decay=1e-4)
    state = opt.init(params)

    def loss_fn(p, x, h, o, a, m):
        out = nets.forward(SPEC, p, x)
        lh = focal(out[:, :CLASSES], h)
        po = out[:, CLASSES:]
        d1 = jnp.abs(po - o).sum(axis=1)
        d2 = jnp.abs(po - a).sum(axis=1)
        lo = (jnp.minimum(d1, d2) * m).sum() / jnp.maximum(m.sum(), 1.0)
        return lh + 2.0 * lo, (lh, lo)

    @jax.jit
    def step(p, s, x_u8, h, o, a, m, gain, bias, flip_h, flip_v):
        batch = augment(x_u8, h, o, a, m, gain, bias, flip_h, flip_v)
        (loss, parts), grads = jax.value_and_grad(loss_fn, has_aux=True)(p, *batch)
        updates, s = opt.update(grads, s, p)
        return optax.apply_updates(p, updates), s, loss, parts

    rng = np.random.default_rng(args.seed)
    n_b = args.batch
    for it in range(args.steps):
        b = rng.choice(train_idx, n_b, replace=False)
        x = recolour(rng, images[b], args.recolour)
        # Drawn in the order `common.jitter` and the mirrorings drew them before.
        gain = rng.uniform(1 - 0.2, 1 + 0.2, (n_b, 1, 1, 3)).astype(np.float32)
        bias = rng.uniform(-15, 15, (n_b, 1, 1, 1)).astype(np.float32)
        flip_h, flip_v = rng.random() < 0.5, rng.random() < 0.5
        params, state, loss, (lh, lo) = step(params, state, x, heat[b], off[b], alt[b], mask[b],
                                             gain, bias, flip_h, flip_v)
        if it % 100 == 0 or it == args.steps - 1:
            print(f"{clock} step {it:5d} loss {float(loss):.3f} heat {float(lh):.3f} corners {float(lo):.3f}", flush=True)
        if args.checkpoint_every and it and it % args.checkpoint_every == 0:
            nets.export_onnx(SPEC, params, INPUT, args.out, f"tablelens card detector; checkpoint at step {it}")
            print(f"{clock} checkpoint written at step {it}", flush=True)

    nets.export_onnx(SPEC, params, INPUT, args.out, f"tablelens piece detector; {args.steps} steps")
    fwd = jax.jit(lambda p, x: nets.forward(SPEC, p, x))
    scores = {f"heldout_{k}": v for k, v in score(fwd, params, images, pieces, hold_idx).items()}
    print("held out:", scores)
    with open(os.path.splitext(args.out)[0] + ".metrics.json", "w") as f:
        json.dump({**scores, "heldout_frames": int(len(hold_idx)),
                   "steps": args.steps, "params": nets.param_count(params), "macs": nets.macs(SPEC, INPUT),
                   "train_images": int(len(train_idx)), "final_loss": float(loss),
                   "train_seconds": round(float(str(clock).strip()[:-1]))}, f, indent=1)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
