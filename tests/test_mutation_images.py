"""Mutation of raster images (tasks/mutation/guest/mutator/images.py), through the real sandbox as
tests/test_mutation.py runs the office handlers: an exported or rewritten image is one file-level
unit, and its corruptions are the wrong exports a weak reward passes — another format under the same
name, a size a few pixels off, a mirror, the untransformed source under the output's name."""

from __future__ import annotations

from .test_mutation import inspect, mutate, pair

SETUP = """
from pathlib import Path
from PIL import Image, ImageDraw
desk = Path("/home/user/Desktop")
# --
desk.mkdir(parents=True, exist_ok=True)
im = Image.new("RGB", (120, 80), (30, 60, 150))
draw = ImageDraw.Draw(im)
draw.ellipse((10, 10, 40, 40), fill=(240, 200, 40))
draw.rectangle((70, 30, 110, 70), fill=(200, 50, 50))
im.save(desk / "harbor.png")
"""
EXPORT = """
Image.open(desk / "harbor.png").resize((60, 40)).save(desk / "harbor_small.jpg", quality=90)
"""
FACTS = """
from PIL import Image
with Image.open(path) as im:
    return [im.format, list(im.size), list(im.convert("RGB").getpixel((5, 20)))]
"""


def by_kind(plan: dict, kind: str) -> list[str]:
    return [m["id"] for m in plan["mutants"] if m["unit_kind"] == kind]


def test_an_exported_image_is_one_unit_with_wrong_exports_as_corruptions(tmp_path, guest_python):
    initial, golden = pair(tmp_path, guest_python, SETUP, EXPORT)
    plan, home = mutate(tmp_path, guest_python, initial, golden)
    assert [(u["kind"], u["path"]) for u in plan["units"]] == [("file.added", "Desktop/harbor_small.jpg")]
    assert sorted(m["unit_kind"] for m in plan["mutants"]) == [
        "corrupt.extra_change",  # the original, which the task leaves alone, deleted
        "corrupt.image_mirrored",
        "corrupt.image_off_by_pixels",
        "corrupt.image_untransformed",
        "corrupt.image_wrong_format",
    ]
    found = inspect(guest_python, home, "Desktop/harbor_small.jpg", FACTS)
    (wrong,) = by_kind(plan, "corrupt.image_wrong_format")
    assert found[wrong][:2] == ["PNG", [60, 40]]  # PNG bytes under the .jpg name
    (off,) = by_kind(plan, "corrupt.image_off_by_pixels")
    assert found[off][:2] == ["JPEG", [57, 38]]
    (untransformed,) = by_kind(plan, "corrupt.image_untransformed")
    assert found[untransformed][:2] == ["JPEG", [120, 80]]  # the original's pixels, in the output's format
    (mirrored,) = by_kind(plan, "corrupt.image_mirrored")
    assert found[mirrored][:2] == ["JPEG", [60, 40]] and found[mirrored][2] != found[wrong][2]


def test_a_rewritten_image_gets_its_initial_pixels_back_under_new_bytes(tmp_path, guest_python):
    darken = """
im = Image.open(desk / "harbor.png").point(lambda v: v // 2)
im.save(desk / "harbor.png")
"""
    initial, golden = pair(tmp_path, guest_python, SETUP, darken)
    plan, home = mutate(tmp_path, guest_python, initial, golden)
    assert [u["kind"] for u in plan["units"]] == ["file.content"]
    found = inspect(guest_python, home, "Desktop/harbor.png", FACTS)
    (untransformed,) = by_kind(plan, "corrupt.image_untransformed")
    assert found[untransformed] == ["PNG", [120, 80], [30, 60, 150]]  # the initial, undarkened colour
    (drop,) = [m["id"] for m in plan["mutants"] if m["kind"] == "partial_revert"] or [None]
    assert drop is None  # one unit: no strict subset to revert


def test_no_corruption_that_leaves_the_picture_as_it_is_and_none_for_stand_ins(tmp_path, guest_python):
    patch = """
sym = Image.new("RGB", (64, 64), (20, 20, 20))
ImageDraw.Draw(sym).rectangle((16, 16, 47, 47), fill=(250, 250, 250))  # left-right symmetric
sym.save(desk / "badge.png")
(desk / "scan.jpg").write_bytes(b"\\xff\\xd8\\xff\\xe0" + bytes(64))  # a stand-in: a magic header only
Image.open(desk / "harbor.png").save(desk / "copy.png")  # the source itself, unchanged
"""
    initial, golden = pair(tmp_path, guest_python, SETUP, patch)
    plan, _ = mutate(tmp_path, guest_python, initial, golden)
    corruptions = {(m["path"], m["unit_kind"]) for m in plan["mutants"] if m["kind"] == "corruption"}
    assert ("Desktop/badge.png", "corrupt.image_mirrored") not in corruptions
    assert ("Desktop/badge.png", "corrupt.image_wrong_format") in corruptions
    assert not {kind for path, kind in corruptions if path == "Desktop/scan.jpg"}
    assert ("Desktop/copy.png", "corrupt.image_untransformed") not in corruptions
