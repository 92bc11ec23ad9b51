"""Data loading and small helpers shared by the training scripts."""
from __future__ import annotations

import json
import os
import time

import numpy as np


def load_npy(data_dir, name):
    return np.load(os.path.join(data_dir, name))


def load_json(data_dir, name):
    with open(os.path.join(data_dir, name)) as f:
        return json.load(f)


def to_input(batch_u8):
    """uint8 NHWC -> float32 NCHW in the network's input range (what vision/src/nn.rs feeds)."""
    x = batch_u8.astype(np.float32) / 255.0
    return np.transpose(x, (0, 3, 1, 2))


def jitter(rng, batch_u8, gain, bias):
    """Photometric jitter on top of the renderer's own: a gain per channel in 1 +- `gain`
    and one brightness shift in +- `bias` per image; uint8 NHWC in and out."""
    x = batch_u8.astype(np.float32)
    n = len(x)
    x = x * rng.uniform(1 - gain, 1 + gain, (n, 1, 1, 3)) + rng.uniform(-bias, bias, (n, 1, 1, 1))
    return np.clip(x, 0, 255).astype(np.uint8)


def recolour(rng, batch_u8, p):
    """Colour augmentation for art the networks never saw: with probability `p` an image's
    colour channels are put in a random order, and with probability `p / 3` it is made
    grey; uint8 NHWC in and out. With `p` 0 it draws nothing from `rng`, so that runs
    without it take the same batches as before it existed."""
    if p <= 0:
        return batch_u8
    x = batch_u8.copy()
    for i in range(len(x)):
        if rng.random() < p:
            x[i] = x[i][..., rng.permutation(3)]
        if rng.random() < p / 3:
            g = x[i].astype(np.float32) @ np.array([0.299, 0.587, 0.114], np.float32)
            x[i] = np.clip(g, 0, 255).astype(np.uint8)[..., None]
    return x


class Clock:
    def __init__(self):
        self.start = time.time()

    def __str__(self):
        return f"{time.time() - self.start:6.0f}s"


def fit(spec, params, loss, images, targets, train_idx, *, steps, batch, seed, peak_lr, warmup,
        end_lr, gain, bias, log_every=250, augment=None):
    """Trains `params` of the network `spec` so that `loss(output, target)` falls, on batches
    of `images[b]` (photometrically jittered by `gain` and `bias`) and `targets[b]` drawn from
    `train_idx`: AdamW, a warm-up of at most a quarter of the steps to `peak_lr`, then a
    cosine down to `end_lr`. With `augment`, each batch is first passed through
    `augment(rng, images, targets)`, which returns both changed alike (uint8 NHWC images);
    without it nothing more is drawn from the generator, so runs take the batches they took
    before. Returns the trained parameters and the clock started with it."""
    import jax
    import optax

    import nets

    sched = optax.warmup_cosine_decay_schedule(1e-4, peak_lr, min(warmup, steps // 4), steps, end_lr)
    opt = optax.adamw(sched, weight_decay=1e-4)
    state = opt.init(params)

    @jax.jit
    def step(p, s, x, t):
        value, grads = jax.value_and_grad(lambda p: loss(nets.forward(spec, p, x), t))(p)
        updates, s = opt.update(grads, s, p)
        return optax.apply_updates(p, updates), s, value

    rng = np.random.default_rng(seed)
    clock = Clock()
    for it in range(steps):
        b = rng.choice(train_idx, batch, replace=False)
        x, t = images[b], targets[b]
        if augment is not None:
            x, t = augment(rng, x, t)
        x = to_input(jitter(rng, x, gain, bias))
        params, state, value = step(params, state, x, t)
        if it % log_every == 0 or it == steps - 1:
            print(f"{clock} step {it:5d} loss {float(value):.4f}", flush=True)
    return params, clock


def corner_net_args(model_file, width=None):
    """The command line of a corner network's training script (refiner, strip finder);
    with `width`, also `--width`, a factor on every layer's channels, `width` by default."""
    import argparse

    ap = argparse.ArgumentParser()
    ap.add_argument("--data", required=True)
    ap.add_argument("--out", default=os.path.join(os.path.dirname(__file__), "..", model_file))
    ap.add_argument("--steps", type=int, default=4000)
    ap.add_argument("--batch", type=int, default=64)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--init", help="start from the weights of this ONNX file (same architecture)")
    ap.add_argument("--peak-lr", type=float, default=2e-3, help="learning rate after the warm-up")
    if width is not None:
        ap.add_argument("--width", type=float, default=width)
    return ap.parse_args()


def fit_corner_net(args, spec, input_shape, prefix, name, presence_weight=None):
    """Trains a corner network (a window -> 8 corner numbers) as the refiner and the strip
    finder are trained: windows `<prefix>_images.npy` and targets `<prefix>_targets.npy` from
    `args.data`, whose last `<prefix>_holdout.json` windows are held out; L1 on the corners.
    With `presence_weight`, the network has a ninth output, a logit that the sought thing is
    there at all (`<prefix>_present.npy`, 1 or 0), learnt by binary cross-entropy times that
    weight. Returns the parameters, the clock, and the held-out targets (with the presence
    as a ninth column) with the network's predictions for them."""
    import jax
    import jax.numpy as jnp

    import nets

    images = load_npy(args.data, f"{prefix}_images.npy")
    targets = load_npy(args.data, f"{prefix}_targets.npy").astype(np.float32)
    if presence_weight is not None:
        present = load_npy(args.data, f"{prefix}_present.npy").astype(np.float32).reshape(-1, 1)
        targets = np.concatenate([targets, present], axis=1)

    def loss(out, t):
        corners = jnp.abs(out[:, :8] - t[:, :8]).mean()
        if presence_weight is None:
            return corners
        z, y = out[:, 8], t[:, 8]
        bce = (jnp.maximum(z, 0) - z * y + jnp.log1p(jnp.exp(-jnp.abs(z)))).mean()
        return corners + presence_weight * bce

    n = len(images)
    n_hold = int(load_json(args.data, f"{prefix}_holdout.json"))
    train_idx = np.arange(n - n_hold)
    hold = np.arange(n - n_hold, n)
    print(f"{n} windows; {n_hold} held out")
    params = nets.init_params(spec, jax.random.PRNGKey(args.seed))
    if args.init:
        params = nets.load_onnx_params(args.init, params)
        print(f"started from {args.init}")
    print(f"{name}: {nets.param_count(params)} parameters, {nets.macs(spec, input_shape) / 1e6:.1f} M MACs per window")
    params, clock = fit(spec, params, loss, images, targets,
                        train_idx, steps=args.steps, batch=args.batch, seed=args.seed,
                        peak_lr=args.peak_lr, warmup=200, end_lr=2e-5, gain=0.3, bias=25)
    fwd = jax.jit(lambda p, x: nets.forward(spec, p, x))
    pred = np.concatenate([np.asarray(fwd(params, to_input(images[hold[s:s + 256]])))
                           for s in range(0, len(hold), 256)])
    return params, clock, targets[hold], pred


def export_with_metrics(spec, params, input_shape, out, doc, metrics):
    """Writes the ONNX file and, beside it, `<name>.metrics.json`."""
    import nets

    nets.export_onnx(spec, params, input_shape, out, doc)
    with open(os.path.splitext(out)[0] + ".metrics.json", "w") as f:
        json.dump(metrics, f, indent=1)
    print(f"wrote {out}")
