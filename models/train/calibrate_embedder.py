"""Calibrates the embedder's rejection rule on held-out face styles: for each crop kind, how
many held-out queries would be named right, named wrong, or left unknown, for a grid of
minimum similarities and minimum margins (lead over the best other component). tablelens
names a piece only when both are met (`identify.rs`: `min_score`, `MIN_MARGIN`).

  python calibrate_embedder.py --data DIR --model ../embedder.onnx
"""
from __future__ import annotations

import argparse

import jax
import numpy as np

import nets
from common import load_json, load_npy, to_input
from train_embedder import SPEC, with_turned_tokens

KINDS = {0: "card", 1: "strip", 2: "small"}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", required=True)
    ap.add_argument("--model", required=True)
    args = ap.parse_args()

    comps = load_json(args.data, "components.json")
    kinds = np.array([{"card": 0, "strip": 1, "small": 2}[c["crop"]] for c in comps])
    eval_styles = sorted(set(load_json(args.data, "eval_styles.json")))
    q_all, ql = load_npy(args.data, "emb_queries.npy"), load_npy(args.data, "emb_qlabels.npy")
    g_all, gl = load_npy(args.data, "emb_gallery.npy"), load_npy(args.data, "emb_glabels.npy")
    g_all, gl = with_turned_tokens(g_all, gl, kinds)
    params = nets.load_onnx_params(args.model, nets.init_params(SPEC, jax.random.PRNGKey(0)))
    embed = jax.jit(lambda p, x: nets.forward(SPEC, p, x))

    rows = []  # (kind, best score, margin, right)
    for s in eval_styles:
        gi = np.where(gl[:, 0] == s)[0]
        qi = np.where(ql[:, 0] == s)[0]
        eg = np.asarray(embed(params, to_input(g_all[gi])))
        for start in range(0, len(qi), 512):
            qq = qi[start:start + 512]
            eq = np.asarray(embed(params, to_input(q_all[qq])))
            sims = eq @ eg.T
            for r, q in enumerate(qq):
                k = kinds[ql[q, 1]]
                same = kinds[gl[gi, 1]] == k
                cand = np.where(same, sims[r], -9.0)
                b = int(np.argmax(cand))
                best_comp = gl[gi[b], 1]
                others = np.where(same & (gl[gi, 1] != best_comp), sims[r], -9.0)
                rows.append((k, cand[b], cand[b] - others.max(), best_comp == ql[q, 1]))
    rows = np.array(rows, dtype=np.float64)
    for k, name in KINDS.items():
        sel = rows[rows[:, 0] == k]
        if len(sel) == 0:
            continue
        print(f"\n{name}: {len(sel)} held-out crops; top-1 without rejection {sel[:, 3].mean():.3f}")
        print("  min_score margin   right   wrong unknown")
        for t in (0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6):
            for m in (0.0, 0.02, 0.04, 0.08):
                named = (sel[:, 1] >= t) & (sel[:, 2] >= m)
                right = (named & (sel[:, 3] == 1)).mean()
                wrong = (named & (sel[:, 3] == 0)).mean()
                print(f"  {t:9.2f} {m:6.2f} {right:7.3f} {wrong:7.3f} {1 - right - wrong:7.3f}")


if __name__ == "__main__":
    main()
