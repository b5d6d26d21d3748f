"""One geometry decides what a model sees, what its prompt says and where its clicks land
(infra/computer_use/coords.py `Geometry`), for the Qwen2-VL, Qwen2.5-VL and Qwen3-VL conventions: the
frame the real image processor makes of a screenshot, the resolution the system prompt states, and
the mapping of the model's coordinates back to the screen must agree."""

from __future__ import annotations

import io
import re

import pytest
from PIL import Image
from transformers import Qwen2VLImageProcessorPil

from infra.computer_use.conversation import model_png, resolve_family, system_prompt
from infra.computer_use.coords import Geometry, Space
from tasks.rollout.llm_policy import LLMPolicy
from training.local_policy import LocalPolicy
from training.tiny import tiny_policy

SCREEN = (1920, 1080)
STATED = re.compile(r"The screen's resolution is (\d+)x(\d+)")
# (family, patch size, pixel budgets a user sets: the stock one and a reduced one, as in real configs)
CONVENTIONS = [
    ("qwen2-vl", 14, [(3136, 12_845_056), (3136, 1280 * 28 * 28)]),
    ("qwen2.5-vl", 14, [(3136, 12_845_056), (3136, 1280 * 28 * 28), (3136, 112 * 112)]),
    ("qwen3-vl", 16, [(65_536, 16_777_216), (65_536, 1024 * 32 * 32)]),
]
CASES = [(fam, patch, low, high) for fam, patch, budgets in CONVENTIONS for low, high in budgets]


def screenshot(size=SCREEN) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", size, (10, 120, 200)).save(out, format="PNG")
    return out.getvalue()


def processor_frame(images: Qwen2VLImageProcessorPil, png: bytes) -> tuple[int, int]:
    """(width, height) in pixels of the frame the real image processor turns `png` into."""
    with Image.open(io.BytesIO(png)) as image:
        grid = images(images=[image.convert("RGB")], return_tensors="pt")["image_grid_thw"][0]
    _, rows, cols = (int(v) for v in grid)
    return cols * images.patch_size, rows * images.patch_size


def stated(prompt: str) -> tuple[int, int]:
    (w, h), *_ = STATED.findall(prompt)
    return int(w), int(h)


@pytest.mark.parametrize(("family", "patch", "low", "high"), CASES)
def test_the_frame_the_prompt_and_the_click_mapping_agree(family, patch, low, high):
    fam = resolve_family(family)
    images = Qwen2VLImageProcessorPil(
        size={"shortest_edge": low, "longest_edge": high}, patch_size=patch, merge_size=2
    )
    geometry = Geometry.from_processor(images, fam.space)
    sent = model_png(screenshot(), geometry)
    # 1. the frame the model sees is the geometry's, whatever the processor's budget
    seen = processor_frame(images, sent)
    assert seen == geometry.seen(SCREEN)
    # 2. the prompt states the space the model answers in: the 0-1000 grid or that very frame
    prompt_size = stated(system_prompt(fam, geometry, SCREEN))
    assert prompt_size == ((1000, 1000) if fam.space is Space.RELATIVE else seen)
    # 3. a model pointing at a spot of the frame it sees clicks that spot of the screen
    for fx, fy in [(0.0, 0.0), (0.25, 0.6), (0.5, 0.5), (0.999, 0.999)]:
        target = (int(fx * (SCREEN[0] - 1)), int(fy * (SCREEN[1] - 1)))
        if fam.space is Space.RELATIVE:
            emitted = (round(fx * 999), round(fy * 999))
        else:  # the pixel of the frame it sees that shows the target
            emitted = (target[0] * seen[0] // SCREEN[0], target[1] * seen[1] // SCREEN[1])
        assert all(0 <= e <= m for e, m in zip(emitted, geometry.extent(SCREEN), strict=True))
        clicked = geometry.to_screen(emitted, SCREEN)
        # one model unit on screen, plus a pixel of rounding
        step = (SCREEN[0] / prompt_size[0] + 1, SCREEN[1] / prompt_size[1] + 1)
        assert abs(clicked[0] - target[0]) <= step[0] and abs(clicked[1] - target[1]) <= step[1]
        assert geometry.to_screen(geometry.from_screen(target, SCREEN), SCREEN) == pytest.approx(
            target, abs=max(step)
        )


def test_the_stock_geometry_disagrees_with_a_reduced_budget_which_is_what_the_test_catches():
    # The bug this guards against: a 1,003,520-pixel processor shrinks 1920x1080 to 1316x728 while a
    # prompt built from the stock budget says 1932x1092 and maps clicks with it.
    images = Qwen2VLImageProcessorPil(
        size={"shortest_edge": 3136, "longest_edge": 1280 * 28 * 28}, patch_size=14, merge_size=2
    )
    stock = Geometry(space=Space.RESIZED)
    assert processor_frame(images, model_png(screenshot(), stock)) == (1316, 728)
    assert stock.stated(SCREEN) == (1932, 1092) != (1316, 728)
    assert Geometry.from_processor(images, Space.RESIZED).stated(SCREEN) == (1316, 728)


def test_the_training_policy_takes_its_geometry_from_its_processor():
    model, processor = tiny_policy()
    policy = LocalPolicy(model, processor, "qwen2.5-vl", max_tokens=4)
    assert policy.geometry == Geometry.from_processor(processor, Space.RESIZED)
    task = type("Task", (), {"instruction": "Open the menu.", "id": "t"})()
    policy.start(task, SCREEN, None)
    seen = processor_frame(processor.image_processor, model_png(screenshot(), policy.geometry))
    assert stated(policy._system) == seen == policy.geometry.seen(SCREEN)


def test_the_llm_policy_takes_the_served_processors_budget():
    stock = LLMPolicy("hosted_vllm/qwen", "qwen2.5-vl")
    served = LLMPolicy("hosted_vllm/qwen", "qwen2.5-vl", max_pixels=1280 * 28 * 28)
    assert stock.geometry.seen(SCREEN) == (1932, 1092)
    assert served.geometry.seen(SCREEN) == (1316, 728)
    with Image.open(io.BytesIO(model_png(screenshot(), served.geometry))) as sent:
        assert sent.size == (1316, 728)  # the server's processor resizes nothing further
    qwen3 = LLMPolicy("hosted_vllm/qwen3", "qwen3-vl")
    assert (qwen3.geometry.factor, qwen3.geometry.space) == (32, Space.RELATIVE)
