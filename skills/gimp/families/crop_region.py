"""GIMP: crop a photo to a region given by its top-left corner and size, exported as a new PNG. Data
and wording: crop_region.yaml.

The reward regenerates the photo and compares the export with the original's box pixel for pixel (a
crop resamples nothing): its format (from its bytes), its exact size, and its pixels (mean absolute
difference <= 3 per channel, which a lossless PNG meets exactly). The original must stay as it was."""

from skills.gimp.families._gui import (
    chain_button,
    dialog,
    export_as,
    field,
    image_window,
    menu,
    press,
    set_value,
    wait_value,
)
from skills.gimp.world import photo
from skills.kit.guest import HOME
from skills.kit.guest.images import image_kind, load_rgb, mean_abs_diff, save_image, synth_photo, unchanged
from skills.kit.guest.rewardkit import component, precondition


def draw(rng, pools):
    source = photo(rng)
    w, h = source["image"]["width"], source["image"]["height"]
    cw, ch = 10 * round(w * rng.uniform(0.35, 0.65) / 10), 10 * round(h * rng.uniform(0.35, 0.65) / 10)
    x, y = 10 * rng.randint(1, (w - cw) // 10), 10 * rng.randint(1, (h - ch) // 10)
    output = f"Desktop/{source['stem']}_{rng.choice(pools['suffixes'])}.png"
    return dict(source=source, box=[x, y, cw, ch], output=output)


def initial_setup(P):
    save_image(synth_photo(P["source"]["image"]), HOME / P["source"]["path"])


def solve(P, *, mistake=None):
    x, y, cw, ch = P["box"]
    if mistake == "offset_ignored":
        x, y = 0, 0
    crop = load_rgb(HOME / P["source"]["path"]).crop((x, y, x + cw, y + ch))
    target = HOME / P["output"]
    if mistake == "wrong_format":
        target.parent.mkdir(parents=True, exist_ok=True)
        crop.save(target, "JPEG", quality=90)
        return
    save_image(crop, target)


def reward(P):
    output = HOME / P["output"]
    x, y, cw, ch = P["box"]
    original = synth_photo(P["source"]["image"])

    @precondition(f"{P['source']['path']} is the original photo, unchanged")
    def original_kept():
        return unchanged(HOME / P["source"]["path"], original)

    @component(f"{P['output']} is a PNG image", 0.2)
    def right_format():
        return image_kind(output) == "PNG"

    @component(f"{P['output']} is {cw}x{ch} pixels", 0.3)
    def right_size():
        out = load_rgb(output)
        return out is not None and out.size == (cw, ch)

    @component(
        f"{P['output']} holds the original's pixels from ({x}, {y}) to ({x + cw}, {y + ch}) (mean diff <= 3)",
        0.5,
    )
    def right_region():
        out = load_rgb(output)
        return out is not None and mean_abs_diff(out, original.crop((x, y, x + cw, y + ch))) <= 3


def demonstrate(P, screen):
    """Image > Canvas Size: the region's width and height (unchained if the chain follows), the offset
    minus its corner, Resize; then File > Export As under the new name (the export holds the canvas)."""
    x, y, cw, ch = P["box"]
    image_window(screen, P["source"]["stem"])
    yield from menu(screen, "Image", "Canvas Size...")
    box = dialog(screen, "Set Image Canvas Size")
    yield set_value(field(screen, box, "Width:"), cw)
    yield set_value(field(screen, box, "Height:"), ch)
    if field(screen, box, "Width:").text.strip() != str(cw):  # the chain kept the proportions: unlink it
        chain = chain_button(screen, box)
        yield [{"action": "left_click", "coordinate": list(chain.center)}]
        yield set_value(field(screen, box, "Width:"), cw)
        yield set_value(field(screen, box, "Height:"), ch)
    wait_value(screen, box, "Width:", cw)
    wait_value(screen, box, "Height:", ch)
    yield set_value(field(screen, box, "X:"), -x)
    yield set_value(field(screen, box, "Y:"), -y)
    wait_value(screen, box, "X:", -x)
    wait_value(screen, box, "Y:", -y)
    yield [press(screen, box, "Resize")]
    screen.wait_until(lambda: any(f" {cw}x{ch} " in t for t in screen.windows()), what="the resized canvas")
    yield from export_as(screen, f"/home/user/{P['output']}")
