"""Host-side data the GIMP families' draw() share (never shipped into scripts): the photos a task
starts from — a made-up place name for the file and the spec of the synthetic landscape the setup
draws (skills/kit/guest/images.py synth_photo) — and the sizes they come in."""

from __future__ import annotations

import math
import random

PLACES = [
    "harbor_view", "market_street", "ridge_sunset", "old_town", "river_walk", "station_square", "hill_road",
    "north_pier", "city_lights", "valley_farm", "east_gate", "lake_shore", "mill_lane", "bay_bridge",
]  # fmt: skip
SIZES = [(800, 600), (900, 600), (960, 640), (1000, 750), (1024, 768), (720, 540), (840, 560)]


def photo(rng: random.Random, sizes=SIZES) -> dict:
    """A photo on the Desktop: {"stem", "path" (relative to the home), "image": {seed, width, height}}."""
    width, height = rng.choice(sizes)
    stem = rng.choice(PLACES)
    return {
        "stem": stem,
        "path": f"Desktop/{stem}.png",
        "image": {"seed": rng.randrange(1_000_000), "width": width, "height": height},
    }


def scaled_sizes(width: int, height: int, low: float, high: float) -> list[tuple[int, int]]:
    """The sizes between low and high times (width, height) with the same aspect ratio in whole pixels
    (what GIMP's chained Scale Image gives exactly)."""
    g = math.gcd(width, height)
    uw, uh = width // g, height // g
    return [(k * uw, k * uh) for k in range(1, g + 1) if low * width <= k * uw <= high * width]
