"""Trains the piece embedder: a crop of a piece seen on the table -> a unit vector close to
the vector of that piece's clean face picture (its enrolment face), and far from the others.

Data (written by `cargo run --release -p tablelens-vision --example make_dataset`):
  emb_queries.npy  uint8 (M, 56, 40, 3)  crops of pieces in rendered scenes
  emb_qlabels.npy  int32 (M, 2)          (style, component index)
  emb_gallery.npy  uint8 (G, 56, 40, 3)  enrolment-processed faces
  emb_glabels.npy  int32 (G, 2)          (style, component index)
  components.json  [{"id": ..., "crop": "card"|"strip"|"small"}]
Styles listed in `eval_styles.json` are held out of training and only scored.

Each step takes one face style (one physical deck), embeds its whole gallery and a batch of
its queries, and minimises the cross-entropy of each query against the gallery entries of
its crop kind: exactly the nearest-neighbour task tablelens solves at the table.
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

INPUT = (3, 56, 40)
SPEC = [
    nets.conv("c1", 3, 16, stride=2),
    nets.conv("c2", 16, 24),
    nets.conv("c3", 24, 32, stride=2),
    nets.conv("c4", 32, 32),
    nets.conv("c5", 32, 48, stride=2),
    nets.conv("c6", 48, 48),
    ("flatten_dense", "fc", 48 * 7 * 5, 64),
    ("l2norm",),
]
TEMPERATURE = 0.05


def augment_gallery(rng, g):
    """Mild photometric changes: enrolment pictures are photos too."""
    g = g.astype(np.float32)
    n = g.shape[0]
    gain = rng.uniform(0.8, 1.2, (n, 1, 1, 3))
    bias = rng.uniform(-20, 20, (n, 1, 1, 1))
    g = np.clip(g * gain + bias, 0, 255)
    return g.astype(np.uint8)


def quarter_turn(img, k):
    """A token's or marker's crop turned by `k` quarter turns: squared, turned, stretched
    back to the crop's shape (as tablelens enrols them, `identify.rs`)."""
    from PIL import Image

    h, w = img.shape[:2]
    square = np.asarray(Image.fromarray(img).resize((w, w), Image.BOX))
    t = np.ascontiguousarray(np.rot90(square, k))
    return np.asarray(Image.fromarray(t).resize((w, h), Image.BOX))


def with_turned_tokens(g_all, gl, kinds):
    """The gallery plus every token's and marker's face at three more quarter turns, as
    tablelens enrols them (`identify.rs`: squared, turned, stretched back to the crop)."""
    small = np.where(kinds[gl[:, 1]] == 2)[0]
    turned, labels = [], []
    for i in small:
        for k in (1, 2, 3):
            turned.append(quarter_turn(g_all[i], k))
            labels.append(gl[i])
    if not turned:
        return g_all, gl
    return np.concatenate([g_all, np.stack(turned)]), np.concatenate([gl, np.stack(labels)])


def quarter_turned(rng, q):
    """Each crop of a token or marker at a random quarter turn, as `with_turned_tokens`
    turns the faces: a round piece lies at any angle."""
    out = q.copy()
    for i, k in enumerate(rng.integers(0, 4, len(q))):
        if k:
            out[i] = quarter_turn(q[i], k)
    return out


def recoloured(rng, g, q):
    """Half the time, one deck printed in other colours: the same channel shuffle for its
    faces and its crops, so that pieces alike but for a glyph (+1 and +2) are told apart by
    the glyph, not by a colour another deck need not share."""
    if rng.random() < 0.5:
        return g, q
    order = rng.permutation(3)
    return g[..., order], q[..., order]


def augment_queries(rng, q):
    q = q.astype(np.float32)
    n = q.shape[0]
    gain = rng.uniform(0.75, 1.25, (n, 1, 1, 3))
    bias = rng.uniform(-25, 25, (n, 1, 1, 1))
    q = q * gain + bias + rng.normal(0, 4, q.shape)
    return np.clip(q, 0, 255).astype(np.uint8)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", required=True, nargs="+", help="one or more folders made by make_dataset")
    ap.add_argument("--kind", choices=["all", "small"], default="all",
                    help="small: train the token-and-marker embedder on those crops only")
    ap.add_argument("--recolour", action="store_true",
                    help="half the steps, shuffle the colour channels of the step's deck")
    ap.add_argument("--out", default=os.path.join(os.path.dirname(__file__), "..", "embedder.onnx"))
    ap.add_argument("--steps", type=int, default=3000)
    ap.add_argument("--batch", type=int, default=96)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--init", help="start from the weights of this ONNX file (same architecture)")
    ap.add_argument("--lr", type=float, default=2e-3, help="learning rate at the start of the cosine")
    args = ap.parse_args()

    first = args.data[0]
    comps = load_json(first, "components.json")
    kinds = np.array([{"card": 0, "strip": 1, "small": 2}[c["crop"]] for c in comps])
    eval_styles = set(load_json(first, "eval_styles.json"))
    for d in args.data[1:]:
        if load_json(d, "components.json") != comps or set(load_json(d, "eval_styles.json")) != eval_styles:
            raise SystemExit(f"{d}: other components or held-out styles than {first}")
    # The sets differ in their scenes and crops, not in their faces: queries from all of
    # them, the gallery from the first.
    q_all = np.concatenate([load_npy(d, "emb_queries.npy") for d in args.data])
    ql = np.concatenate([load_npy(d, "emb_qlabels.npy") for d in args.data])
    g_all, gl = load_npy(first, "emb_gallery.npy"), load_npy(first, "emb_glabels.npy")
    if args.kind == "small":
        keep_q, keep_g = kinds[ql[:, 1]] == 2, kinds[gl[:, 1]] == 2
        q_all, ql, g_all, gl = q_all[keep_q], ql[keep_q], g_all[keep_g], gl[keep_g]
    g_all, gl = with_turned_tokens(g_all, gl, kinds)
    styles = sorted(set(int(s) for s in gl[:, 0]))
    train_styles = [s for s in styles if s not in eval_styles]
    print(f"{len(comps)} components, {len(styles)} styles ({len(train_styles)} train), "
          f"{len(q_all)} queries, {len(g_all)} gallery faces")

    by_style_q = {s: np.where(ql[:, 0] == s)[0] for s in styles}
    by_style_g = {s: np.where(gl[:, 0] == s)[0] for s in styles}

    params = nets.init_params(SPEC, jax.random.PRNGKey(args.seed))
    if args.init:
        params = nets.load_onnx_params(args.init, params)
        print(f"started from {args.init}")
    print(f"embedder: {nets.param_count(params)} parameters, {nets.macs(SPEC, INPUT) / 1e6:.1f} M MACs per crop")
    sched = optax.cosine_decay_schedule(args.lr, args.steps, alpha=0.02)
    opt = optax.adamw(sched, weight_decay=1e-4)
    state = opt.init(params)

    def loss_fn(p, g, gcomp, q, qcomp):
        eg = nets.forward(SPEC, p, g)
        eq = nets.forward(SPEC, p, q)
        sims = eq @ eg.T / TEMPERATURE
        same_kind = jnp.asarray(kinds)[qcomp][:, None] == jnp.asarray(kinds)[gcomp][None, :]
        sims = jnp.where(same_kind, sims, -1e9)
        # Any face of the query's component may be the match (a token has four, one per
        # quarter turn): the loss is minus the log of their summed probability.
        target = qcomp[:, None] == gcomp[None, :]
        right = jax.nn.logsumexp(jnp.where(target, sims, -1e9), axis=1)
        return -jnp.mean(right - jax.nn.logsumexp(sims, axis=1))

    @jax.jit
    def step(p, s, g, gcomp, q, qcomp):
        loss, grads = jax.value_and_grad(loss_fn)(p, g, gcomp, q, qcomp)
        updates, s = opt.update(grads, s, p)
        return optax.apply_updates(p, updates), s, loss

    embed = jax.jit(lambda p, x: nets.forward(SPEC, p, x))
    rng = np.random.default_rng(args.seed)
    clock = Clock()
    n_gallery = max(len(by_style_g[s]) for s in styles)
    for it in range(args.steps):
        s = train_styles[rng.integers(len(train_styles))]
        gi = by_style_g[s]
        gi = np.resize(gi, n_gallery)  # fixed shape for jit; duplicates are harmless
        qi = rng.choice(by_style_q[s], args.batch, replace=len(by_style_q[s]) < args.batch)
        g, q = g_all[gi], q_all[qi]
        if args.kind == "small":
            q = quarter_turned(rng, q)
        if args.recolour:
            g, q = recoloured(rng, g, q)
        g = to_input(augment_gallery(rng, g))
        q = to_input(augment_queries(rng, q))
        params, state, loss = step(params, state, g, gl[gi, 1], q, ql[qi, 1])
        if it % 200 == 0 or it == args.steps - 1:
            print(f"{clock} step {it:5d} loss {float(loss):.3f}", flush=True)

    def top1(style_set):
        right = total = 0
        per_kind = {}
        for s in style_set:
            gi, qi = by_style_g[s], by_style_q[s]
            eg = np.asarray(embed(params, to_input(g_all[gi])))
            for start in range(0, len(qi), 512):
                qq = qi[start:start + 512]
                eq = np.asarray(embed(params, to_input(q_all[qq])))
                sims = eq @ eg.T
                mask = kinds[ql[qq, 1]][:, None] == kinds[gl[gi, 1]][None, :]
                sims = np.where(mask, sims, -9)
                pred = gl[gi, 1][np.argmax(sims, axis=1)]
                ok = pred == ql[qq, 1]
                right += int(ok.sum())
                total += len(qq)
                for k, o in zip(kinds[ql[qq, 1]], ok):
                    a = per_kind.setdefault(int(k), [0, 0])
                    a[0] += int(o)
                    a[1] += 1
        return right / max(total, 1), total, per_kind

    tr = top1(train_styles[:5])
    ev = top1(sorted(eval_styles))
    print(f"top-1 on train styles {tr[0]:.4f} ({tr[1]} crops)")
    print(f"top-1 on held-out styles {ev[0]:.4f} ({ev[1]} crops) per crop kind {ev[2]}")
    nets.export_onnx(SPEC, params, INPUT, args.out,
                     f"tablelens piece embedder; held-out top-1 {ev[0]:.4f}; trained {args.steps} steps")
    with open(os.path.splitext(args.out)[0] + ".metrics.json", "w") as f:
        json.dump({"heldout_top1": ev[0], "heldout_crops": ev[1], "train_top1": tr[0],
                   "steps": args.steps, "params": nets.param_count(params),
                   "macs": nets.macs(SPEC, INPUT), "train_seconds": round(float(str(clock).strip()[:-1]))}, f, indent=1)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
