"""Raster images (GIMP's exports, VLC's snapshots): a new or rewritten image is one file-level unit
(pixels have no finer unit a task names), and its corruptions are the ways a careless edit or export
goes wrong while the file still looks done — each one a state a weak reward passes and a faithful one
fails:

- `corrupt.image_wrong_format`: the same pixels in another format under the same name (PNG bytes in
  a .jpg, JPEG bytes in a .png): a reward that trusts the suffix or only decodes the pixels passes it.
- `corrupt.image_off_by_pixels`: the image resampled a few pixels smaller (3 narrower, 2 shorter): a
  reward that compares after resizing to the expected size, or allows "about" the size, passes it.
- `corrupt.image_mirrored`: the image flipped left to right: a reward that checks only the size or
  global statistics (mean brightness, colour histogram) passes it.
- `corrupt.image_untransformed`: the untransformed source under the output's name, in its format —
  for a new image, the oldest other image of the home (the original the task started from: a setup
  writes it before anything is exported); for a rewritten one, its initial pixels re-encoded (new
  bytes, old picture): a reward that checks only that the file exists, is new or changed passes it.

A corruption that would leave the picture what the golden one is (a mirror of a symmetric image, a
source that already looks like the output) is not made. A file Pillow cannot decode (the files
families' stand-ins carry a magic header and nothing more) gets no corruption.
"""

from __future__ import annotations

import os
from pathlib import Path

from mutator.core import Corruption

SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".gif", ".tif", ".tiff", ".webp")
_FORMATS = {".png": "PNG", ".jpg": "JPEG", ".jpeg": "JPEG", ".bmp": "BMP", ".gif": "GIF", ".tif": "TIFF",
            ".tiff": "TIFF", ".webp": "WEBP"}  # fmt: skip
_SAME = 3.0  # mean absolute difference per channel (0..255) under which two pictures are the same
_MAX_SCAN = 400  # files looked at when searching the home for the source of a new image


def _load(path: Path):
    """(image, format) of a decodable image, else None."""
    from PIL import Image

    try:
        with Image.open(path) as im:
            im.load()
            return im.copy(), im.format
    except Exception:  # not an image Pillow can read: no corruption of its kind
        return None


def _encode(im, fmt: str, target: Path) -> None:
    """Write `im` to `target` in `fmt` (JPEG at GIMP's default quality 90; modes a format cannot hold
    converted)."""
    if fmt == "JPEG" and im.mode not in ("RGB", "L", "CMYK"):
        im = im.convert("RGB")
    elif fmt == "GIF" and im.mode not in ("P", "L"):
        im = im.convert("RGB").convert("P")
    elif fmt == "BMP" and im.mode not in ("RGB", "L", "P", "1"):
        im = im.convert("RGB")
    target.parent.mkdir(parents=True, exist_ok=True)
    im.save(target, fmt, **({"quality": 90} if fmt == "JPEG" else {}))


def _difference(a, b) -> float:
    from PIL import ImageChops, ImageStat

    if a.size != b.size:
        return 255.0
    diff = ImageChops.difference(a.convert("RGB"), b.convert("RGB"))
    return sum(ImageStat.Stat(diff).mean) / 3


def _home_of(rel: str, golden: Path) -> Path:
    return Path(str(golden)[: -len(rel)]) if str(golden).endswith(rel) else golden.parent


def _source_of(rel: str, golden: Path) -> Path | None:
    """The image a new image was most likely made from: the oldest other decodable image of the home
    (hidden folders skipped; the output's own folder first among equals)."""
    home = _home_of(rel, golden)
    folder = Path(rel).parent
    found = []
    for root, dirs, files in os.walk(home):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for name in sorted(files):
            path = Path(root) / name
            other = path.relative_to(home)
            if other.as_posix() != rel and name.lower().endswith(SUFFIXES) and not path.is_symlink():
                found.append((path.lstat().st_mtime_ns, other.parent != folder, other.as_posix(), path))
            if len(found) >= _MAX_SCAN:
                break
    for *_, path in sorted(found):
        if _load(path) is not None:
            return path
    return None


def _write(rel: str, make):
    """An op writing make() -> (image, format) to rel in the mutant's home."""

    def op(home: Path) -> None:
        im, fmt = make()
        target = home / rel
        target.unlink(missing_ok=True)
        _encode(im, fmt, target)

    return op


def units(rel: str, initial: Path, golden: Path):
    return None  # a rewritten image stays one file-level unit


def corruptions(rel: str, initial: Path | None, golden: Path) -> list[Corruption]:
    from PIL import ImageOps

    loaded = _load(golden)
    if loaded is None:
        return []
    image, fmt = loaded
    fmt = fmt or _FORMATS.get(Path(rel).suffix.lower(), "PNG")
    found = []
    other = "PNG" if fmt == "JPEG" else "JPEG"
    found.append(
        Corruption(
            "corrupt.image_wrong_format",
            rel,
            f"{rel} holds the same picture as {other}, not {fmt}",
            _write(rel, lambda: (image, other)),
        )
    )
    w, h = image.size
    if w > 8 and h > 8:
        found.append(
            Corruption(
                "corrupt.image_off_by_pixels",
                rel,
                f"{rel} is {w - 3}x{h - 2} instead of {w}x{h} (resampled)",
                _write(rel, lambda: (image.resize((w - 3, h - 2)), fmt)),
            )
        )
    mirrored = ImageOps.mirror(image)
    if _difference(mirrored, image) > _SAME:
        found.append(
            Corruption(
                "corrupt.image_mirrored",
                rel,
                f"{rel} is flipped left to right",
                _write(rel, lambda: (mirrored, fmt)),
            )
        )
    source = initial if initial is not None else _source_of(rel, golden)
    before = _load(source) if source is not None else None
    if before is not None and _difference(before[0], image) > _SAME:
        what = (
            "its initial picture, re-encoded" if initial is not None else f"the untransformed {source.name}"
        )
        found.append(
            Corruption(
                "corrupt.image_untransformed",
                rel,
                f"{rel} holds {what}",
                _write(rel, lambda: (before[0], fmt)),
            )
        )
    return found
