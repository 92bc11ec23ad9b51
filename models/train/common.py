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
