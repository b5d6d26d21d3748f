"""GIMP: export a PNG photo as a JPEG at a given quality. Data and wording: jpeg_quality.yaml.

The quality a JPEG was written at is in its bytes: GIMP (libjpeg) scales the standard IJG
quantisation tables by it, and the reward finds the quality whose luminance table matches the
file's (skills/kit/guest/images.py jpeg_quality), allowing +-2. It also asks for a JPEG and for the
same picture at the same size (SSIM >= 0.9 against the original). The original must stay as it was."""

from skills.gimp.families._gui import export_as, image_window
from skills.gimp.world import photo
from skills.kit.guest import HOME
from skills.kit.guest.images import (
    image_kind,
    jpeg_quality,
    load_rgb,
    save_image,
    ssim,
    synth_photo,
    unchanged,
)
from skills.kit.guest.rewardkit import component, precondition


def draw(rng, pools):
    source = photo(rng)
    output = f"Desktop/{source['stem']}_{rng.choice(pools['suffixes'])}{rng.choice(pools['exts'])}"
    return dict(source=source, quality=rng.choice(pools["qualities"]), output=output)


def initial_setup(P):
    save_image(synth_photo(P["source"]["image"]), HOME / P["source"]["path"])


def solve(P, *, mistake=None):
    original = load_rgb(HOME / P["source"]["path"])
    save_image(original, HOME / P["output"], quality=90 if mistake == "default_quality" else P["quality"])


def reward(P):
    output = HOME / P["output"]
    original = synth_photo(P["source"]["image"])

    @precondition(f"{P['source']['path']} is the original photo, unchanged")
    def original_kept():
        return unchanged(HOME / P["source"]["path"], original)

    @component(f"{P['output']} is a JPEG image", 0.3)
    def right_format():
        return image_kind(output) == "JPEG"

    @component(f"{P['output']} is encoded at quality {P['quality']} (+-2)", 0.4)
    def right_quality():
        found = jpeg_quality(output) if image_kind(output) == "JPEG" else None
        return found is not None and abs(found - P["quality"]) <= 2

    @component(f"{P['output']} is the same picture at the same size (SSIM >= 0.9)", 0.3)
    def same_picture():
        out = load_rgb(output)
        return out is not None and ssim(out, original) >= 0.9


def demonstrate(P, screen):
    """File > Export As under the .jpg name; in "Export Image as JPEG" the Quality field, then Export."""
    image_window(screen, P["source"]["stem"])
    yield from export_as(screen, f"/home/user/{P['output']}", quality=P["quality"])
