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


class Clock:
    def __init__(self):
        self.start = time.time()

    def __str__(self):
        return f"{time.time() - self.start:6.0f}s"


def fit(spec, params, loss, images, targets, train_idx, *, steps, batch, seed, peak_lr, warmup,
        end_lr, gain, bias, log_every=250):
    """Trains `params` of the network `spec` so that `loss(output, target)` falls, on batches
    of `images[b]` (photometrically jittered by `gain` and `bias`) and `targets[b]` drawn from
    `train_idx`: AdamW, a warm-up of at most a quarter of the steps to `peak_lr`, then a
    cosine down to `end_lr`. Returns the trained parameters and the clock started with it."""
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
        x = to_input(jitter(rng, images[b], gain, bias))
        params, state, value = step(params, state, x, targets[b])
        if it % log_every == 0 or it == steps - 1:
            print(f"{clock} step {it:5d} loss {float(value):.4f}", flush=True)
    return params, clock
