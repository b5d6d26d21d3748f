"""GIMP: flip or rotate a photo (Image > Transform) and export it under a new name. Data and wording:
flip_rotate.yaml.

The photo is not symmetric, so each of the five transforms gives a picture the others do not. The
reward regenerates it and compares the export with the original transformed by Pillow: its format
(from its bytes), its size (a quarter turn swaps width and height) and its picture (SSIM >= 0.95:
a flip or turn resamples nothing; the margin is JPEG's). The original must stay as it was."""

from skills.gimp.families._gui import export_as, image_window, menu
from skills.gimp.world import photo
from skills.kit.guest import HOME
from skills.kit.guest.images import image_kind, load_rgb, save_image, ssim, synth_photo, unchanged
from skills.kit.guest.rewardkit import component, precondition


def draw(rng, pools):
    source = photo(rng)
    op, item, how = rng.choice(pools["ops"])
    ext, fmt = rng.choice(pools["formats"])
    output = f"Desktop/{source['stem']}_{rng.choice(pools['suffixes'])}{ext}"
    return dict(source=source, op=op, item=item, how=how, output=output, format=fmt)


def transformed(im, op):
    """`im` after GIMP's Image > Transform `op`, by Pillow."""
    from PIL import Image

    moves = {
        "flip_horizontal": Image.Transpose.FLIP_LEFT_RIGHT,
        "flip_vertical": Image.Transpose.FLIP_TOP_BOTTOM,
        "rotate_cw": Image.Transpose.ROTATE_270,
        "rotate_ccw": Image.Transpose.ROTATE_90,
        "rotate_180": Image.Transpose.ROTATE_180,
    }
    return im.transpose(moves[op])


def initial_setup(P):
    save_image(synth_photo(P["source"]["image"]), HOME / P["source"]["path"])


def solve(P, *, mistake=None):
    opposite = {
        "flip_horizontal": "flip_vertical",
        "flip_vertical": "flip_horizontal",
        "rotate_cw": "rotate_ccw",
        "rotate_ccw": "rotate_cw",
        "rotate_180": "flip_vertical",
    }
    op = opposite[P["op"]] if mistake == "wrong_direction" else P["op"]
    save_image(transformed(load_rgb(HOME / P["source"]["path"]), op), HOME / P["output"])


def reward(P):
    output = HOME / P["output"]
    expected = transformed(synth_photo(P["source"]["image"]), P["op"])

    @precondition(f"{P['source']['path']} is the original photo, unchanged")
    def original_kept():
        return unchanged(HOME / P["source"]["path"], synth_photo(P["source"]["image"]))

    @component(f"{P['output']} is a {P['format']} image", 0.2)
    def right_format():
        return image_kind(output) == P["format"]

    @component(f"{P['output']} is {expected.width}x{expected.height} pixels", 0.2)
    def right_size():
        out = load_rgb(output)
        return out is not None and out.size == expected.size

    @component(f"{P['output']} shows the photo after {P['item']} (SSIM >= 0.95)", 0.6)
    def right_orientation():
        out = load_rgb(output)
        return out is not None and ssim(out, expected) >= 0.95


def demonstrate(P, screen):
    """Image > Transform > the item; once the title says the image changed, File > Export As."""
    stem = P["source"]["stem"]
    image_window(screen, stem)
    yield from menu(screen, "Image", "Transform", P["item"])
    screen.wait_until(
        lambda: any(t.startswith(f"*[{stem}]") for t in screen.windows()), what="the transformed image"
    )
    yield from export_as(screen, f"/home/user/{P['output']}")
