"""The computer-use conversation both sides must build identically: the LLM rollout policy
(tasks/rollout/llm_policy.py), which sends it, and training (training/data.py), which rebuilds it
from the trajectory dataset. A model is trained on exactly the contexts it is later sampled in only
if both take the model families, the system prompt, the user-turn wrapping and the collapse rule
from here.

- families: the tool-call format, the coordinate space, whether the tool goes in the request's
  `tools` (native) — a parameter, never guessed from the model string;
- the constant system prompt (prompts/computer_use_system.md.j2, CUA-Gym appendix C.1.4);
- user turns: the first holds the instruction and the screenshot, later ones wrap the screenshot
  as a tool response (`<tool_response>\\n`, image, `\\n</tool_response>`, as Qwen's chat
  templates render a tool message), with feedback on what went wrong before it;
- the collapse rule: at most `max_visible` screenshots stay visible; the oldest are replaced by
  COLLAPSED in whole blocks (training's traj_slice_interval), so between collapses every request
  extends the previous one.

Example:
    >>> collapsed_count(21, 20, 10), collapsed_count(31, 20, 10)
    (10, 20)
"""

from __future__ import annotations

import io
import json
from typing import Any

import yaml
from pydantic import BaseModel, ConfigDict

from infra.computer_use.actions import ACTION_NAMES, MAX_CALLS_PER_STEP
from infra.computer_use.coords import Geometry, Space, as_geometry
from infra.computer_use.formats import ToolFormat
from infra.errors import ConfigError
from infra.templates import prompt_environment

COLLAPSED = "This screenshot has been collapsed."
TOOL_RESPONSE_OPEN, TOOL_RESPONSE_CLOSE = "<tool_response>\n", "\n</tool_response>"
SYSTEM_TEMPLATE = "computer_use_system.md.j2"
TOOL_TEMPLATE = "computer_use_tool.yaml.j2"
FEEDBACK_TEMPLATE = "computer_use_feedback.md.j2"


class Family(BaseModel):
    """How a model family is prompted and read."""

    model_config = ConfigDict(frozen=True)

    name: str
    fmt: ToolFormat  # the call grammar of the prompt and of `assistant_raw`
    space: Space
    native_tools: bool = False  # the tool goes in the request's `tools`; calls come back as tool_calls
    # the stock processor's pixel budget: patch_size × merge_size, and min / max pixels of a frame
    factor: int = 28
    min_pixels: int = 56 * 56
    max_pixels: int = 14 * 14 * 4 * 16384

    def geometry(
        self, space: Space | None = None, *, min_pixels: int | None = None, max_pixels: int | None = None
    ) -> Geometry:
        """This family's geometry with the stock budget, or a served processor's own bounds."""
        return Geometry(
            space=space or self.space,
            factor=self.factor,
            min_pixels=min_pixels or self.min_pixels,
            max_pixels=max_pixels or self.max_pixels,
        )


# Qwen3-VL and Qwen3.5 see in 16-pixel patches merged 2x2 (factor 32) within 65,536..16,777,216 pixels;
# Qwen2-VL and Qwen2.5-VL in 14-pixel patches merged 2x2 (factor 28) within 3,136..12,845,056. Qwen2-VL
# grounds in the 0-1000 grid, Qwen2.5-VL in absolute pixels of the resized frame.
_QWEN3 = {"factor": 32, "min_pixels": 65_536, "max_pixels": 16_777_216}
FAMILIES: dict[str, Family] = {
    f.name: f
    for f in (
        Family(name="qwen3.5", fmt=ToolFormat.XML, space=Space.RELATIVE, **_QWEN3),
        Family(name="qwen3-vl", fmt=ToolFormat.HERMES, space=Space.RELATIVE, **_QWEN3),
        Family(name="qwen2.5-vl", fmt=ToolFormat.HERMES, space=Space.RESIZED),
        Family(name="qwen2-vl", fmt=ToolFormat.HERMES, space=Space.RELATIVE),
        Family(name="openai", fmt=ToolFormat.HERMES, space=Space.SCREEN, native_tools=True),
    )
}


def resolve_family(name: str) -> Family:
    try:
        return FAMILIES[name]
    except KeyError:
        raise ConfigError(f"unknown model family {name!r}", hint=f"families: {', '.join(FAMILIES)}") from None


def render_template(template: str, **context: Any) -> str:
    return prompt_environment().get_template(template).render(**context)


def model_resolution(space: Space | Geometry, screen: tuple[int, int]) -> tuple[int, int]:
    """The resolution the prompt states: the grid, the resized screenshot, or the screen."""
    return as_geometry(space).stated(screen)


def tool_schema(space: Space | Geometry, screen: tuple[int, int]) -> dict[str, Any]:
    """The computer_use tool in OpenAI's function-tool shape."""
    width, height = model_resolution(space, screen)
    return yaml.safe_load(render_template(TOOL_TEMPLATE, width=width, height=height, actions=ACTION_NAMES))


def system_prompt(fam: Family, space: Space | Geometry, screen: tuple[int, int]) -> str:
    width, height = model_resolution(space, screen)
    return render_template(
        SYSTEM_TEMPLATE,
        width=width,
        height=height,
        fmt="native" if fam.native_tools else fam.fmt.value,
        tool_json=json.dumps(tool_schema(space, screen), ensure_ascii=False),
        collapsed=COLLAPSED,
        max_calls=MAX_CALLS_PER_STEP,
    ).strip()


def collapsed_count(screenshots: int, max_visible: int, block: int) -> int:
    """How many of the oldest screenshots are collapsed: whole blocks, until at most max_visible show."""
    folded = 0
    while screenshots - folded > max_visible:
        folded += block
    return min(folded, screenshots)


def model_png(png: bytes, space: Space | Geometry) -> bytes:
    """The screenshot as the model sees it: for the resized space, at the geometry's seen frame (the
    processor then resizes nothing, so the pixels the model's coordinates count are these)."""
    geometry = as_geometry(space)
    if geometry.space is not Space.RESIZED:
        return png
    from PIL import Image  # Pillow: only the resized family needs it

    with Image.open(io.BytesIO(png)) as image:
        size = geometry.seen(image.size)
        if size == image.size:
            return png
        out = io.BytesIO()
        image.convert("RGB").resize(size).save(out, format="PNG")
        return out.getvalue()


def shown_part(image_part: dict[str, Any], *, collapsed: bool) -> dict[str, Any]:
    """The screenshot's content part, or the placeholder text that replaces a collapsed one."""
    return {"type": "text", "text": COLLAPSED} if collapsed else image_part


def user_content(index: int, shown: dict[str, Any], *, instruction: str, feedback: str = "") -> list[dict]:
    """The content of the user turn `index` of a text-format (Hermes/XML) conversation."""
    if index == 0:
        return [{"type": "text", "text": instruction}, shown]
    opening = TOOL_RESPONSE_OPEN + (feedback + "\n" if feedback else "")
    return [{"type": "text", "text": opening}, shown, {"type": "text", "text": TOOL_RESPONSE_CLOSE}]
