"""Coordinate spaces of model families, and the conversions to and from screen pixels.

- `relative`: Qwen3-VL and Qwen3.5 — a grid the prompt calls "1000x1000"; decoders map x back as
  x / 999 · W (so 0 is the left edge and 999 the right one, clamped onto the last pixel).
- `resized`: Qwen2.5-VL — absolute pixels of the *resized* screenshot (smart_resize to multiples of
  28 within a pixel budget); x back is x · W / W_resized.
- `screen`: pixels of the screen itself (scripted teachers, and models shown the raw screenshot).

`coordinate_screen` in a trajectory is always what was executed, in screen pixels; the model-space
value is kept beside it (`raw_action_args`), as the rollouts dataset card (seeds/004) asks.

`Geometry` is the one place that decides, for a space and a processor's pixel budget, the frame the
model sees, the resolution its prompt states and the mapping of its coordinates back to the screen;
the functions below take a bare `Space` as its default geometry (Qwen2.5-VL's processor budget).

Example:
    >>> to_screen((500, 500), Space.RELATIVE, (1920, 1080))
    (961, 541)
    >>> smart_resize(1920, 1080)
    (1932, 1092)
"""

from __future__ import annotations

import math
from enum import StrEnum
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

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


class Geometry(BaseModel):
    """What a model sees of a screen and how its coordinates map back, from one pixel budget.

    - `seen(screen)`: the frame the processor turns a screenshot into (smart_resize with the
      budget's factor = patch_size × merge_size and min/max pixels; the screen itself for `screen`);
    - `stated(screen)`: the resolution the system prompt and tool schema state: the 1000x1000 grid
      (relative), the seen frame (resized), or the screen;
    - `to_screen` / `from_screen` / `extent`: the mapping of the model's coordinates, in that space.

    Build it from the processor a model is trained or served with (`from_processor`), so the three
    cannot disagree: a Qwen2.5-VL told "1932x1092" while its processor shrank the frame to 1316x756
    clicks in the wrong place.

    >>> g = Geometry(space=Space.RESIZED, max_pixels=1280 * 28 * 28)
    >>> g.seen((1920, 1080)), g.stated((1920, 1080)), g.to_screen((1315, 727), (1920, 1080))
    ((1316, 728), (1316, 728), (1919, 1079))
    """

    model_config = ConfigDict(frozen=True)

    space: Space
    factor: int = Field(FACTOR, ge=1)  # patch_size × merge_size: 28 for Qwen2/2.5-VL, 32 for Qwen3-VL
    min_pixels: int = Field(MIN_PIXELS, ge=1)
    max_pixels: int = Field(MAX_PIXELS, ge=1)

    @classmethod
    def from_processor(cls, processor: Any, space: Space) -> Geometry:
        """The geometry of a Qwen-VL processor (or its image processor): its patch and merge sizes and
        its pixel budget (`size` {shortest_edge, longest_edge}, or min_pixels / max_pixels)."""
        images = getattr(processor, "image_processor", processor)
        size = dict(getattr(images, "size", None) or {})
        low = size.get("shortest_edge") or getattr(images, "min_pixels", None) or MIN_PIXELS
        high = size.get("longest_edge") or getattr(images, "max_pixels", None) or MAX_PIXELS
        factor = int(images.patch_size) * int(images.merge_size)
        return cls(space=space, factor=factor, min_pixels=int(low), max_pixels=int(high))

    def seen(self, screen: tuple[int, int]) -> tuple[int, int]:
        if self.space is Space.SCREEN:
            return tuple(screen)
        return smart_resize(
            *screen, factor=self.factor, min_pixels=self.min_pixels, max_pixels=self.max_pixels
        )

    def stated(self, screen: tuple[int, int]) -> tuple[int, int]:
        if self.space is Space.RELATIVE:
            return GRID + 1, GRID + 1
        return self.seen(screen)

    def extent(self, screen: tuple[int, int]) -> tuple[float, float]:
        """The largest coordinate the model may emit, per axis."""
        if self.space is Space.RELATIVE:
            return GRID, GRID
        w, h = self.seen(screen)
        return w - 1, h - 1

    def to_screen(self, point: tuple[float, float], screen: tuple[int, int]) -> tuple[int, int]:
        """A model-space point in screen pixels (rounded; the caller checks it is on screen)."""
        x, y = point
        width, height = screen
        if self.space is Space.RELATIVE:  # as the public decoders do: x / 999 · W, the last pixel for 999
            return min(round(x / GRID * width), width - 1), min(round(y / GRID * height), height - 1)
        if self.space is Space.RESIZED:
            w, h = self.seen(screen)
            return round(x * width / w), round(y * height / h)
        return round(x), round(y)

    def from_screen(self, pixel: tuple[int, int], screen: tuple[int, int]) -> tuple[int, int]:
        """A screen pixel in model space (what a model of that family would have to emit to hit it)."""
        x, y = pixel
        width, height = screen
        if self.space is Space.RELATIVE:
            return min(round(x / width * GRID), GRID), min(round(y / height * GRID), GRID)
        if self.space is Space.RESIZED:
            w, h = self.seen(screen)
            return round(x * w / width), round(y * h / height)
        return x, y


def as_geometry(space: Space | Geometry) -> Geometry:
    """A geometry as given, or a bare space's default one (Qwen2.5-VL's processor budget)."""
    return space if isinstance(space, Geometry) else Geometry(space=Space(space))


def model_extent(space: Space | Geometry, screen: tuple[int, int]) -> tuple[float, float]:
    """The largest coordinate the model may emit in `space`, per axis."""
    return as_geometry(space).extent(screen)


def to_screen(
    point: tuple[float, float], space: Space | Geometry, screen: tuple[int, int]
) -> tuple[int, int]:
    """A model-space point in screen pixels (rounded; the caller checks it is on screen)."""
    return as_geometry(space).to_screen(point, screen)


def from_screen(pixel: tuple[int, int], space: Space | Geometry, screen: tuple[int, int]) -> tuple[int, int]:
    """A screen pixel in model space (what a model of that family would have to emit to hit it)."""
    return as_geometry(space).from_screen(pixel, screen)
