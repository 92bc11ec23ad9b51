"""Checks that the token finder's half-turn augmentation (`train_tokens.half_turn`) turns
each chosen card's heat map exactly as the map of its pieces turned with it would be drawn,
and leaves the other cards alone."""
import numpy as np

from train_tokens import H, W, half_turn, targets

rng = np.random.default_rng(0)
points = [[[10.3, 20.7], [33.0, 50.2]], [[5.5, 60.1]], []]
images = rng.integers(0, 256, (len(points), H, W, 3), dtype=np.uint8)
heat = np.stack([targets(p) for p in points])
turned, turned_heat = half_turn(1.0)(rng, images, heat)
for i, p in enumerate(points):
    assert (turned[i] == images[i][::-1, ::-1]).all()
    assert np.array_equal(turned_heat[i], targets([[W - x, H - y] for x, y in p]))
kept, kept_heat = half_turn(0.0)(rng, images, heat)
assert (kept == images).all() and np.array_equal(kept_heat, heat)
print("half turn turns the heat map with the card")
