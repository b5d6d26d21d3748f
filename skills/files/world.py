"""Host-side helpers shared by the Files families' draw() (never shipped into scripts)."""

from __future__ import annotations

import hashlib
import random

from skills.kit.guest.files import fake_content


def make_file(rng: random.Random, name: str, *, low: int = 300, high: int = 20_000) -> dict:
    """Params for one file: name, seed, size and the sha256 of its content."""
    seed = rng.randint(1, 10**9)
    size = rng.randint(low, high)
    data = fake_content(name, seed, size)
    return {"name": name, "seed": seed, "size": len(data), "sha256": hashlib.sha256(data).hexdigest()}
