"""Coordinate spaces of model families, and the conversions to and from screen pixels.

- `relative`: Qwen3-VL and Qwen3.5 — a grid the prompt calls "1000x1000"; decoders map x back as
  x / 999 · W (so 0 is the left edge and 999 the right one, clamped onto the last pixel).
- `resized`: Qwen2.5-VL — absolute pixels of the *resized* screenshot (smart_resize to multiples of
  28 within a pixel budget); x back is x · W / W_resized.
- `screen`: pixels of the screen itself (scripted teachers, and models shown the raw screenshot).

`coordinate_screen` in a trajectory is always what was executed, in screen pixels; the model-space
value is kept beside it (`raw_action_args`), as the rollouts dataset card (seeds/004) asks.

Example:
    >>> to_screen((500, 500), Space.RELATIVE, (1920, 1080))
    (961, 541)
    >>> smart_resize(1920, 1080)
    (1932, 1092)
"""

from __future__ import annotations

import math
from enum import StrEnum

FACTOR = 28
MIN_PIXELS = 56 * 56
MAX_PIXELS = 14 * 14 * 4 * 16384  # 12,845,056: Qwen2.5-VL's processor default
GRID = 999  # the largest value of the relative grid


class Space(StrEnum):
    RELATIVE = "relative"
    RESIZED = "resized"
    SCREEN = "screen"


def smart_resize(
    width: int,
    height: int,
    *,
    factor: int = FACTOR,
    min_pixels: int = MIN_PIXELS,
    max_pixels: int = MAX_PIXELS,
) -> tuple[int, int]:
    """(width, height) Qwen2.5-VL resizes a screenshot to: multiples of `factor`, area within bounds."""
    h_bar = max(factor, round(height / factor) * factor)
    w_bar = max(factor, round(width / factor) * factor)
    if h_bar * w_bar > max_pixels:
        beta = math.sqrt(height * width / max_pixels)
        h_bar = math.floor(height / beta / factor) * factor
        w_bar = math.floor(width / beta / factor) * factor
    elif h_bar * w_bar < min_pixels:
        beta = math.sqrt(min_pixels / (height * width))
        h_bar = math.ceil(height * beta / factor) * factor
        w_bar = math.ceil(width * beta / factor) * factor
    return w_bar, h_bar


def model_extent(space: Space, screen: tuple[int, int]) -> tuple[float, float]:
    """The largest coordinate the model may emit in `space`, per axis."""
    if space is Space.RELATIVE:
        return GRID, GRID
    if space is Space.RESIZED:
        w, h = smart_resize(*screen)
        return w - 1, h - 1
    return screen[0] - 1, screen[1] - 1


def to_screen(point: tuple[float, float], space: Space, screen: tuple[int, int]) -> tuple[int, int]:
    """A model-space point in screen pixels (rounded; the caller checks it is on screen)."""
    x, y = point
    width, height = screen
    if space is Space.RELATIVE:  # as the public decoders do: x / 999 · W, the last pixel for 999
        return min(round(x / GRID * width), width - 1), min(round(y / GRID * height), height - 1)
    if space is Space.RESIZED:
        w, h = smart_resize(width, height)
        return round(x * width / w), round(y * height / h)
    return round(x), round(y)


def from_screen(pixel: tuple[int, int], space: Space, screen: tuple[int, int]) -> tuple[int, int]:
    """A screen pixel in model space (what a model of that family would have to emit to hit it)."""
    x, y = pixel
    width, height = screen
    if space is Space.RELATIVE:
        return min(round(x / width * GRID), GRID), min(round(y / height * GRID), GRID)
    if space is Space.RESIZED:
        w, h = smart_resize(width, height)
        return round(x * w / width), round(y * h / height)
    return x, y
