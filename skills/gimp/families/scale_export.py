"""GIMP: scale a photo to a given width or height (aspect ratio kept) and export it under a new name
and format. Data and wording: scale_export.yaml.

The photo is drawn from a seed (skills/kit/guest/images.py synth_photo) and opened in GIMP; the
reward regenerates it and compares the export with the original resized by Pillow: its format (from
its bytes), its exact size, and its picture (SSIM >= 0.9, after resizing to the asked size so a
wrong size still shows whether the whole photo is there). The original must stay as it was."""

from skills.gimp.families._gui import (
    dialog,
    export_as,
    field,
    image_window,
    menu,
    press,
    set_value,
    wait_value,
)
from skills.gimp.world import photo, scaled_sizes
from skills.kit.guest import HOME
from skills.kit.guest.images import image_kind, load_rgb, save_image, ssim, synth_photo, unchanged
from skills.kit.guest.rewardkit import component, precondition


def draw(rng, pools):
    source = photo(rng)
    image = source["image"]
    width, height = rng.choice(scaled_sizes(image["width"], image["height"], 0.3, 0.8))
    ext, fmt = rng.choice(pools["formats"])
    output = f"Desktop/{source['stem']}_{rng.choice(pools['suffixes'])}{ext}"
    return dict(
        source=source,
        width=width,
        height=height,
        by=rng.choice(["width", "height"]),
        output=output,
        format=fmt,
    )


def initial_setup(P):
    save_image(synth_photo(P["source"]["image"]), HOME / P["source"]["path"])


def solve(P, *, mistake=None):
    from PIL import Image

    original = load_rgb(HOME / P["source"]["path"])
    size = (P["width"], P["height"])
    if mistake == "aspect_broken":
        size = (P["width"], original.height) if P["by"] == "width" else (original.width, P["height"])
    scaled = original.resize(size, Image.Resampling.LANCZOS)
    target = HOME / P["output"]
    if mistake == "wrong_format":
        target.parent.mkdir(parents=True, exist_ok=True)
        scaled.save(target, "JPEG" if P["format"] == "PNG" else "PNG")
        return
    save_image(scaled, target)


def reward(P):
    from PIL import Image

    output = HOME / P["output"]
    size = (P["width"], P["height"])
    original = synth_photo(P["source"]["image"])

    @precondition(f"{P['source']['path']} is the original photo, unchanged")
    def original_kept():
        return unchanged(HOME / P["source"]["path"], original)

    @component(f"{P['output']} is a {P['format']} image", 0.2)
    def right_format():
        return image_kind(output) == P["format"]

    @component(f"{P['output']} is {size[0]}x{size[1]} pixels", 0.4)
    def right_size():
        out = load_rgb(output)
        return out is not None and out.size == size

    @component(f"{P['output']} shows the whole photo scaled (SSIM >= 0.9 against the original resized)", 0.4)
    def whole_picture():
        out = load_rgb(output)
        if out is None:
            return False
        expected = original.resize(size, Image.Resampling.LANCZOS)
        return ssim(out.resize(size, Image.Resampling.LANCZOS), expected) >= 0.9


def demonstrate(P, screen):
    """Image > Scale Image: type the named side (the chain keeps the proportions; wait for the other
    side to follow), Scale, then File > Export As under the new name."""
    image_window(screen, P["source"]["stem"])
    yield from menu(screen, "Image", "Scale Image...")
    box = dialog(screen, "Scale Image")
    named, other = ("Width:", "Height:") if P["by"] == "width" else ("Height:", "Width:")
    yield set_value(field(screen, box, named), P[P["by"]])
    wait_value(screen, box, other, P["height"] if P["by"] == "width" else P["width"])
    yield [press(screen, box, "Scale")]
    screen.wait_until(
        lambda: any(f" {P['width']}x{P['height']} " in t for t in screen.windows()), what="the scaled image"
    )
    yield from export_as(screen, f"/home/user/{P['output']}")
