"""GIMP: turn a colour photo grey (Colors > Desaturate, or Image > Mode > Grayscale) and export it
under a new name. Data and wording: grayscale.yaml.

The reward asks for no colour (at least 99 % of the pixels with R, G, B within 8 of each other: a
JPEG's chroma noise stays within that), the same picture (same size, SSIM's structure term >= 0.9
against the original: any of GIMP's desaturation modes keeps it) and the named format. The original
must stay as it was."""

from skills.gimp.families._gui import dialog, export_as, image_window, menu, press
from skills.gimp.world import photo
from skills.kit.guest import HOME
from skills.kit.guest.images import (
    gray_fraction,
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
    return dict(source=source, output=output, format=fmt)


def initial_setup(P):
    save_image(synth_photo(P["source"]["image"]), HOME / P["source"]["path"])


def solve(P, *, mistake=None):
    from PIL import ImageEnhance

    original = load_rgb(HOME / P["source"]["path"])
    grey = (
        ImageEnhance.Color(original).enhance(0.5) if mistake == "half_saturation" else original.convert("L")
    )
    target = HOME / P["output"]
    if mistake == "wrong_format":
        target.parent.mkdir(parents=True, exist_ok=True)
        grey.save(target, "PNG" if P["format"] == "JPEG" else "JPEG")
        return
    save_image(grey, target)


def reward(P):
    output = HOME / P["output"]
    original = synth_photo(P["source"]["image"])

    @precondition(f"{P['source']['path']} is the original photo, unchanged")
    def original_kept():
        return unchanged(HOME / P["source"]["path"], original)

    @component(f"{P['output']} is a {P['format']} image", 0.2)
    def right_format():
        return image_kind(output) == P["format"]

    @component(f"{P['output']} has no colour (99 % of pixels with R, G, B within 8)", 0.4)
    def grey():
        out = load_rgb(output)
        return out is not None and gray_fraction(out, 8) >= 0.99

    @component(f"{P['output']} is the same picture (same size, structure >= 0.9)", 0.4)
    def same_picture():
        out = load_rgb(output)
        return out is not None and structure(out, original) >= 0.9


def demonstrate(P, screen):
    """Colors > Desaturate > Desaturate… (its default mode, Luminance), OK, then File > Export As."""
    stem = P["source"]["stem"]
    image_window(screen, stem)
    yield from menu(screen, "Colors", "Desaturate", "Desaturate...")
    box = dialog(screen, "Desaturate")
    yield [press(screen, box, "OK")]
    screen.wait_until(
        lambda: any(t.startswith(f"*[{stem}]") for t in screen.windows()), what="the grey image"
    )
    yield from export_as(screen, f"/home/user/{P['output']}")
