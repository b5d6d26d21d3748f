"""Guest helpers of the image families (GIMP): synthetic photos drawn from a seed, and comparisons of
an exported image with the expected transform of its original, each with a stated tolerance.

Pillow only (numpy is not a guest library), so the measures are small and explicit:
- `synth_photo(spec)` draws the same landscape for the same {"seed", "width", "height"} (sky and
  ground gradients, a sun off-centre, hills, buildings with lit windows, trees, a road, a gentle
  texture): structure everywhere and no symmetry, so SSIM means something and a mirror is not the
  original. A reward regenerates the original from its params rather than trusting the file.
- `ssim(a, b)`: mean SSIM of the R, G and B channels over 8x8 windows, both images first reduced
  (box filter) so their long side is at most 256 px; 0.0 when the sizes differ.
- `structure(a, b)`: the mean of SSIM's structure term (local correlation) on grey levels, blind to
  brightness and contrast: "the same picture" for a tonal edit (brighter, greyscale).
- `mean_abs_diff(a, b)`: mean absolute difference per channel, 0..255 (exact transforms: flips, crops).
- `brightness(im)`: mean grey level (Pillow's L), `gray_fraction(im, tol)`: the share of pixels whose
  channels differ by at most `tol`.
- `image_kind(path)`: the file's format as Pillow reads it from its bytes ("PNG", "JPEG"), "" when it
  is not an image; `load_rgb(path)`: the image as RGB, None when it is not an image. Both raise
  FileNotFoundError for a missing file (the task's output not made: missing_output).
- `jpeg_quality(path)`: the IJG quality (1..100) whose standard luminance table matches the file's.

Every function is self-contained (imports inside the body): render_script pastes its source.
"""

from __future__ import annotations


def seeded_stream(seed):
    """A seeded stream of numbers (splitmix64), written out so that a picture drawn from a seed is the
    same on every Python and in every reward that redraws it: .random(), .uniform(a, b), .randint(a, b)."""
    from types import SimpleNamespace

    mask = 0xFFFFFFFFFFFFFFFF
    state = [int(seed) & mask]

    def next64():
        state[0] = (state[0] + 0x9E3779B97F4A7C15) & mask
        z = state[0]
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & mask
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
        return z ^ (z >> 31)

    def random():
        return (next64() >> 11) / float(1 << 53)

    return SimpleNamespace(
        random=random,
        uniform=lambda a, b: a + (b - a) * random(),
        randint=lambda a, b: a + next64() % (b - a + 1),
    )


def synth_photo(spec):
    """The landscape of `spec` {"seed", "width", "height"}, an RGB image (deterministic)."""
    from PIL import Image, ImageChops, ImageDraw

    rng = seeded_stream(spec["seed"])
    w, h = spec["width"], spec["height"]

    def colour(low, high):
        return tuple(rng.randint(a, b) for a, b in zip(low, high, strict=True))

    def gradient(size, top, bottom):
        mask = Image.linear_gradient("L").resize(size)
        return Image.composite(Image.new("RGB", size, bottom), Image.new("RGB", size, top), mask)

    horizon = int(h * rng.uniform(0.52, 0.64))
    im = Image.new("RGB", (w, h))
    im.paste(
        gradient((w, horizon), colour((20, 40, 90), (70, 100, 170)), colour((170, 140, 110), (250, 210, 170)))
    )
    im.paste(
        gradient((w, h - horizon), colour((60, 90, 30), (110, 140, 70)), colour((20, 40, 10), (60, 70, 40))),
        (0, horizon),
    )
    draw = ImageDraw.Draw(im)
    left = rng.random() < 0.5  # the sun on one side, the town on the other: no symmetry
    r = int(w * rng.uniform(0.05, 0.08))
    sx = int(w * (rng.uniform(0.12, 0.3) if left else rng.uniform(0.7, 0.88)))
    sy = int(horizon * rng.uniform(0.2, 0.45))
    draw.ellipse((sx - r, sy - r, sx + r, sy + r), fill=colour((230, 170, 40), (255, 230, 120)))
    for layer in range(2):
        points, x = [(0, horizon)], 0
        while x < w:
            points.append((x, horizon - int(h * rng.uniform(0.04, 0.16 - 0.05 * layer))))
            x += int(w * rng.uniform(0.06, 0.14))
        points += [(w, horizon - int(h * 0.05)), (w, horizon)]
        draw.polygon(
            points,
            fill=colour((40, 60, 50), (90, 110, 90)) if layer else colour((70, 80, 100), (120, 120, 150)),
        )
    town = (int(w * 0.5), int(w * 0.95)) if left else (int(w * 0.05), int(w * 0.5))
    x = town[0]
    while x < town[1]:
        bw, bh = int(w * rng.uniform(0.04, 0.08)), int(h * rng.uniform(0.1, 0.3))
        draw.rectangle((x, horizon - bh, x + bw, horizon), fill=colour((60, 50, 50), (140, 120, 110)))
        lit = colour((200, 180, 80), (255, 240, 160))
        for wy in range(horizon - bh + 5, horizon - 6, 9):
            for wx in range(x + 4, x + bw - 4, 8):
                if rng.random() < 0.6:
                    draw.rectangle((wx, wy, wx + 3, wy + 4), fill=lit)
        x += bw + int(w * rng.uniform(0.005, 0.03))
    road = int(w * rng.uniform(0.3, 0.7))
    draw.polygon(
        [
            (road - int(w * 0.02), horizon),
            (road + int(w * 0.02), horizon),
            (road + int(w * 0.25), h),
            (road - int(w * 0.12), h),
        ],
        fill=colour((90, 80, 70), (130, 120, 110)),
    )
    for _ in range(rng.randint(3, 6)):
        tx, ty = rng.randint(0, w), rng.randint(horizon + 10, h - 10)
        size = int(h * rng.uniform(0.05, 0.12))
        draw.rectangle((tx - 2, ty, tx + 2, ty + size // 3), fill=(70, 50, 30))
        draw.polygon(
            [(tx, ty - size), (tx - size // 3, ty), (tx + size // 3, ty)],
            fill=colour((20, 70, 20), (60, 120, 50)),
        )
    small = Image.new("L", (w // 16 + 2, h // 16 + 2))
    small.putdata([rng.randint(116, 140) for _ in range(small.width * small.height)])
    noise = small.resize((w, h), Image.Resampling.BICUBIC)
    return ImageChops.add(im, Image.merge("RGB", (noise, noise, noise)), 1.0, -128)


def image_kind(path):
    """The format Pillow reads from the file's bytes ("PNG", "JPEG", …), "" when it is not an image."""
    from PIL import Image, UnidentifiedImageError

    try:
        with Image.open(path) as im:
            return im.format or ""
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError) as exc:
        if isinstance(exc, FileNotFoundError):
            raise
        return ""


def load_rgb(path):
    """The image at `path` as RGB (alpha composited on white), None when it is not a readable image."""
    from PIL import Image, UnidentifiedImageError

    try:
        with Image.open(path) as im:
            im.load()
            if im.mode in ("RGBA", "LA", "PA") or (im.mode == "P" and "transparency" in im.info):
                rgba = im.convert("RGBA")
                flat = Image.new("RGBA", rgba.size, (255, 255, 255, 255))
                flat.alpha_composite(rgba)
                return flat.convert("RGB")
            return im.convert("RGB")
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError) as exc:
        if isinstance(exc, FileNotFoundError):
            raise
        return None


def _reduced(a, b, limit=256):
    """a and b (same size) box-reduced so the long side is at most `limit`."""
    from PIL import Image

    w, h = a.size
    f = max(w, h) / limit
    if f <= 1:
        return a, b
    size = (max(8, round(w / f)), max(8, round(h / f)))
    return a.resize(size, Image.Resampling.BOX), b.resize(size, Image.Resampling.BOX)


def _window_terms(xs, ys, width, height, win=8):
    """Per 8x8 window of two grey-level lists: (mean x, mean y, var x, var y, cov xy)."""
    out = []
    for top in range(0, height - win + 1, win):
        for left in range(0, width - win + 1, win):
            n = sx = sy = sxx = syy = sxy = 0
            for row in range(top, top + win):
                base = row * width + left
                for i in range(base, base + win):
                    x, y = xs[i], ys[i]
                    n += 1
                    sx += x
                    sy += y
                    sxx += x * x
                    syy += y * y
                    sxy += x * y
            mx, my = sx / n, sy / n
            out.append((mx, my, sxx / n - mx * mx, syy / n - my * my, sxy / n - mx * my))
    return out


def ssim(a, b):
    """Mean SSIM of the R, G, B channels (8x8 windows, long side reduced to <= 256 px); 0.0 when the
    sizes differ."""
    if a.size != b.size:
        return 0.0
    a, b = _reduced(a.convert("RGB"), b.convert("RGB"))
    c1, c2 = (0.01 * 255) ** 2, (0.03 * 255) ** 2
    scores = []
    for band in range(3):
        xs, ys = list(a.getchannel(band).tobytes()), list(b.getchannel(band).tobytes())
        for mx, my, vx, vy, cxy in _window_terms(xs, ys, a.width, a.height):
            scores.append(((2 * mx * my + c1) * (2 * cxy + c2)) / ((mx * mx + my * my + c1) * (vx + vy + c2)))
    return sum(scores) / len(scores) if scores else 0.0


def structure(a, b):
    """Mean of SSIM's structure term (local correlation of grey levels, 8x8 windows, long side reduced
    to <= 256 px): the same picture whatever its brightness, contrast or colour; 0.0 when the sizes
    differ."""
    if a.size != b.size:
        return 0.0
    a, b = _reduced(a.convert("L"), b.convert("L"))
    c3 = ((0.03 * 255) ** 2) / 2
    terms = _window_terms(list(a.tobytes()), list(b.tobytes()), a.width, a.height)
    scores = [(cxy + c3) / (max(vx, 0) ** 0.5 * max(vy, 0) ** 0.5 + c3) for _, _, vx, vy, cxy in terms]
    return sum(scores) / len(scores) if scores else 0.0


def mean_abs_diff(a, b):
    """Mean absolute difference per channel (0..255); 255.0 when the sizes differ."""
    from PIL import ImageChops, ImageStat

    if a.size != b.size:
        return 255.0
    diff = ImageChops.difference(a.convert("RGB"), b.convert("RGB"))
    return sum(ImageStat.Stat(diff).mean) / 3


def brightness(im):
    """Mean grey level (Pillow's L: 0.299 R + 0.587 G + 0.114 B), 0..255."""
    from PIL import ImageStat

    return ImageStat.Stat(im.convert("L")).mean[0]


def gray_fraction(im, tol=12):
    """The share of pixels whose R, G and B differ pairwise by at most `tol` (1.0 for a grey image)."""
    from PIL import ImageChops

    r, g, b = im.convert("RGB").split()
    spread = ImageChops.lighter(
        ImageChops.lighter(ImageChops.difference(r, g), ImageChops.difference(g, b)),
        ImageChops.difference(r, b),
    )
    hist = spread.histogram()
    return sum(hist[: tol + 1]) / max(1, sum(hist))


def jpeg_quality(path):
    """The IJG quality (1..100) whose scaled standard luminance table is nearest the file's first
    quantisation table (GIMP and Pillow both scale it this way); None for a file that is not a JPEG."""
    from PIL import Image

    base = [16, 11, 10, 16, 24, 40, 51, 61, 12, 12, 14, 19, 26, 58, 60, 55, 14, 13, 16, 24, 40, 57, 69, 56,
            14, 17, 22, 29, 51, 87, 80, 62, 18, 22, 37, 56, 68, 109, 103, 77, 24, 35, 55, 64, 81, 104, 113, 92,
            49, 64, 78, 87, 103, 121, 120, 101, 72, 92, 95, 98, 112, 100, 103, 99]  # fmt: skip
    with Image.open(path) as im:
        tables = getattr(im, "quantization", None) if im.format == "JPEG" else None
    if not tables:
        return None
    found = sorted(tables[min(tables)])

    def table(q):
        scale = 5000 / q if q < 50 else 200 - 2 * q
        return sorted(min(255, max(1, int((v * scale + 50) // 100))) for v in base)

    return min(
        range(1, 101), key=lambda q: (sum(abs(x - y) for x, y in zip(table(q), found, strict=True)), -q)
    )


def save_image(im, path, quality=90):
    """Write `im` where its suffix says (.jpg/.jpeg as JPEG at `quality`, else Pillow's choice by
    suffix), creating the folder: what setups and golden patches use."""
    from pathlib import Path

    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.suffix.lower() in (".jpg", ".jpeg"):
        im.convert("RGB").save(path, "JPEG", quality=quality)
    else:
        im.save(path)


def unchanged(path, expected, tol=1.0):
    """Whether the image at `path` is `expected` (same size, mean absolute difference <= tol): the
    original a task exports from, left as it was."""
    im = load_rgb(path)
    return im is not None and mean_abs_diff(im, expected) <= tol
