"""GIMP: make a photo darker (or brighter) by at least a given share of its mean brightness and
export it under a new name. Data and wording: tone_brightness.yaml.

As OSWorld's brightness check, the reward measures the mean grey level of the export against the
original's and asks that the picture be kept: the same size, and SSIM's structure term (local
correlation, blind to brightness) >= 0.9 against the original — a mirror, a crop or another photo
fails it, any tone change passes it. The original must stay as it was."""

from skills.gimp.families._gui import dialog, export_as, image_window, menu, press, set_value
from skills.gimp.world import photo
from skills.kit.guest import HOME
from skills.kit.guest.images import (
    brightness,
    image_kind,
    load_rgb,
    save_image,
    structure,
    synth_photo,
    unchanged,
)
from skills.kit.guest.rewardkit import component, precondition


def draw(rng, pools):
    source = photo(rng)
    ext, fmt = rng.choice(pools["formats"])
    output = f"Desktop/{source['stem']}_{rng.choice(pools['suffixes'])}{ext}"
    direction = rng.choice(["darker", "brighter"])
    return dict(
        source=source, direction=direction, percent=rng.choice(pools["percents"]), output=output, format=fmt
    )


def initial_setup(P):
    save_image(synth_photo(P["source"]["image"]), HOME / P["source"]["path"])


def solve(P, *, mistake=None):
    from PIL import ImageEnhance

    change = 0.05 if mistake == "too_little" else P["percent"] / 100 + 0.1
    sign = -1 if P["direction"] == "darker" else 1
    if mistake == "wrong_direction":
        sign = -sign
    original = load_rgb(HOME / P["source"]["path"])
    save_image(ImageEnhance.Brightness(original).enhance(1 + sign * change), HOME / P["output"])


def reward(P):
    output = HOME / P["output"]
    original = synth_photo(P["source"]["image"])
    before = brightness(original)
    darker = P["direction"] == "darker"
    limit = before * (1 - P["percent"] / 100) if darker else before * (1 + P["percent"] / 100)

    @precondition(f"{P['source']['path']} is the original photo, unchanged")
    def original_kept():
        return unchanged(HOME / P["source"]["path"], original)

    @component(f"{P['output']} is a {P['format']} image", 0.15)
    def right_format():
        return image_kind(output) == P["format"]

    @component(
        f"{P['output']}'s mean brightness is {'at most' if darker else 'at least'} {limit:.1f} "
        f"({P['percent']} % {'below' if darker else 'above'} the original's {before:.1f})",
        0.45,
    )
    def toned():
        out = load_rgb(output)
        return out is not None and (brightness(out) <= limit if darker else brightness(out) >= limit)

    @component(f"{P['output']} is the same picture (same size, structure >= 0.9)", 0.4)
    def same_picture():
        out = load_rgb(output)
        return out is not None and structure(out, original) >= 0.9


def darker_value(P):
    """The Brightness-Contrast value that darkens the photo's mean grey level by 5 points more than the
    share asked. GIMP 2.10 scales each pixel in linear light (v * (1 + value / 127)), which darkens
    the gamma-encoded grey levels less than the value says: simulate it on the photo (host side)."""
    from skills.kit.guest.images import brightness, synth_photo

    def linear(c):
        c /= 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    def encoded(x):
        x = min(max(x, 0.0), 1.0)
        return round(255 * (12.92 * x if x <= 0.0031308 else 1.055 * x ** (1 / 2.4) - 0.055))

    photo = synth_photo(P["source"]["image"])
    before = brightness(photo)
    for value in range(round(127 * P["percent"] / 100), 128):
        lut = [encoded(linear(c) * (1 - value / 127)) for c in range(256)]
        if brightness(photo.point(lut * 3)) <= before * (1 - (P["percent"] + 5) / 100):
            return -value
    return -127


def demonstrate(P, screen):
    """Colors > Brightness-Contrast: the brightness (the first of its two spin scales) set past the
    share asked (10 points past it to brighten; to darken, the value found by `darker_value`), OK,
    then File > Export As."""
    stem = P["source"]["stem"]
    image_window(screen, stem)
    yield from menu(screen, "Colors", "Brightness-Contrast...")
    box = dialog(screen, "Brightness-Contrast")
    value = darker_value(P) if P["direction"] == "darker" else round(127 * (P["percent"] + 10) / 100)
    spins = sorted(
        screen.elements(
            lambda e: (
                e.role == "spin-button" and box.x <= e.x < box.x + box.w and box.y <= e.y < box.y + box.h
            )
        ),
        key=lambda e: e.y,
    )
    yield set_value(spins[0], value)
    screen.wait_until(
        lambda: any(
            e.text.strip() == str(value)
            for e in screen.elements(lambda e: e.role == "spin-button" and box.y <= e.y < box.y + box.h)
        ),
        what=f"brightness {value}",
    )
    yield [press(screen, box, "OK")]
    screen.wait_until(
        lambda: any(t.startswith(f"*[{stem}]") for t in screen.windows()), what="the toned image"
    )
    yield from export_as(screen, f"/home/user/{P['output']}")
