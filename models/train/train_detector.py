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
from common import Clock, load_json, load_npy, to_input

H, W, STRIDE = 288, 512, 4
GH, GW = H // STRIDE, W // STRIDE
CLASSES = 1  # cards only: tokens, markers and module strips are read on each card
OFFSET_SCALE = 32.0
INPUT = (3, H, W)
SPEC = [
    nets.conv("s1", 3, 8, stride=2),
    nets.conv("s2", 8, 16, stride=2),
    nets.conv("s3", 16, 16),
    ("save", "stride4"),
    nets.conv("d1", 16, 32, stride=2),
    nets.conv("d2", 32, 32),
    nets.conv("d3", 32, 32, dilation=2),
    nets.conv("d4", 32, 32, dilation=4),
    ("up2",),
    ("concat", "stride4"),
    nets.conv("m1", 48, 16, k=1),
    nets.conv("m2", 16, 16),
    nets.conv("head", 16, CLASSES + 8, k=1, relu=False),
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


def focal(pred_logits, gt):
    p = jax.nn.sigmoid(pred_logits)
    p = jnp.clip(p, 1e-4, 1 - 1e-4)
    pos = (gt > 0.99).astype(jnp.float32)
    neg = 1.0 - pos
    pos_loss = -jnp.log(p) * (1 - p) ** 2 * pos
    neg_loss = -jnp.log(1 - p) * p ** 2 * (1 - gt) ** 4 * neg
    n = jnp.maximum(pos.sum(), 1.0)
    return (pos_loss.sum() + neg_loss.sum()) / n


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", required=True)
    ap.add_argument("--out", default=os.path.join(os.path.dirname(__file__), "..", "detector.onnx"))
    ap.add_argument("--steps", type=int, default=4000)
    ap.add_argument("--batch", type=int, default=8)
    ap.add_argument("--holdout", type=int, default=100)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--init", help="start from the weights of this ONNX file (same architecture)")
    ap.add_argument("--peak-lr", type=float, default=2e-3)
    ap.add_argument("--checkpoint-every", type=int, default=0, help="also write the ONNX every N steps")
    args = ap.parse_args()

    images = load_npy(args.data, "det_images.npy")
    pieces = load_json(args.data, "det_pieces.json")
    n = len(images)
    train_idx = np.arange(n - args.holdout)
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
    sched = optax.warmup_cosine_decay_schedule(1e-4, args.peak_lr, 200, args.steps, 2e-5)
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
    def step(p, s, x, h, o, a, m):
        (loss, parts), grads = jax.value_and_grad(loss_fn, has_aux=True)(p, x, h, o, a, m)
        updates, s = opt.update(grads, s, p)
        return optax.apply_updates(p, updates), s, loss, parts

    rng = np.random.default_rng(args.seed)
    for it in range(args.steps):
        b = rng.choice(train_idx, args.batch, replace=False)
        x = images[b].astype(np.float32)
        # photometric jitter on top of the renderer's own
        x = x * rng.uniform(0.8, 1.2, (len(b), 1, 1, 3)) + rng.uniform(-15, 15, (len(b), 1, 1, 1))
        x = to_input(np.clip(x, 0, 255).astype(np.uint8))
        params, state, loss, (lh, lo) = step(params, state, x, heat[b], off[b], alt[b], mask[b])
        if it % 100 == 0 or it == args.steps - 1:
            print(f"{clock} step {it:5d} loss {float(loss):.3f} heat {float(lh):.3f} corners {float(lo):.3f}", flush=True)
        if args.checkpoint_every and it and it % args.checkpoint_every == 0:
            nets.export_onnx(SPEC, params, INPUT, args.out, f"tablelens card detector; checkpoint at step {it}")
            print(f"{clock} checkpoint written at step {it}", flush=True)

    nets.export_onnx(SPEC, params, INPUT, args.out, f"tablelens piece detector; {args.steps} steps")
    np.save(os.path.splitext(args.out)[0] + ".holdout_pred.npy",
            np.asarray(jax.jit(lambda p, x: nets.forward(SPEC, p, x))(params, to_input(images[-8:]))))
    with open(os.path.splitext(args.out)[0] + ".metrics.json", "w") as f:
        json.dump({"steps": args.steps, "params": nets.param_count(params), "macs": nets.macs(SPEC, INPUT),
                   "train_images": int(len(train_idx)), "final_loss": float(loss),
                   "train_seconds": round(float(str(clock).strip()[:-1]))}, f, indent=1)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
