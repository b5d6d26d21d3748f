"""The `computer_use` action space of Qwen-VL / Qwen3.5 agents (what the paper trains), as data.

One tool call is one action, a discriminated union on `action`; a model step holds up to
MAX_CALLS_PER_STEP of them. Coordinates are in the *model's* space (see coords.py): the executor
converts them to screen pixels. Arguments arrive from models in loose shapes — `keys` as a JSON
string, numbers as strings, `coordinate` as "[500, 300]" — and are normalised here; anything else
(an unknown action, a missing argument) is a `ValidationError` that the episode records as a failed
step.

Example:
    >>> parse_action({"action": "left_click", "coordinate": "[500, 300]"})
    LeftClick(action='left_click', coordinate=(500.0, 300.0), text=None)
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, field_validator

MAX_CALLS_PER_STEP = 10  # RL-trained models batch calls; the paper's agents cap them at 10
MAX_WAIT_S = 30.0
TERMINATE_STATUSES = {"success": "success", "done": "success", "failure": "failure", "failed": "failure",
                      "fail": "failure", "infeasible": "failure"}  # fmt: skip


def _json_or_text(value: Any) -> Any:
    if isinstance(value, str) and value.strip()[:1] in "[{":
        try:
            return json.loads(value)
        except ValueError:
            return value
    return value


class _Action(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True)  # models add harmless extras ("thought")


class _Pointing(_Action):
    coordinate: tuple[float, float] | None = None  # None: where the pointer is
    text: str | None = None  # Qwen3.5 OSWorld agent: modifier keys to hold, "ctrl+shift"

    @field_validator("coordinate", mode="before")
    @classmethod
    def _coordinate(cls, value: Any) -> Any:
        value = _json_or_text(value)
        if isinstance(value, dict):
            value = [value.get("x"), value.get("y")]
        return value

    @property
    def modifiers(self) -> list[str]:
        return [k.strip().lower() for k in (self.text or "").replace(" ", "+").split("+") if k.strip()]


class Key(_Action):
    action: Literal["key"]
    keys: list[str] = Field(min_length=1)

    @field_validator("keys", mode="before")
    @classmethod
    def _keys(cls, value: Any) -> Any:
        value = _json_or_text(value)
        if isinstance(value, str):  # "ctrl+s" or "enter"
            value = [k for k in value.split("+") if k] or [value]
        return [str(k).strip() for k in value] if isinstance(value, list) else value


class Type(_Action):
    action: Literal["type"]
    text: str = Field(min_length=1)


class MouseMove(_Pointing):
    action: Literal["mouse_move"]


class LeftClick(_Pointing):
    action: Literal["left_click"]


class RightClick(_Pointing):
    action: Literal["right_click"]


class MiddleClick(_Pointing):
    action: Literal["middle_click"]


class DoubleClick(_Pointing):
    action: Literal["double_click"]


class TripleClick(_Pointing):
    action: Literal["triple_click"]


class LeftClickDrag(_Pointing):
    """Press the left button where the pointer is, drag to `coordinate`, release."""

    action: Literal["left_click_drag"]
    coordinate: tuple[float, float]


class Scroll(_Pointing):
    """`pixels` wheel steps at `coordinate` (or the pointer): positive scrolls up (pyautogui's sign)."""

    action: Literal["scroll"]
    pixels: int


class HScroll(_Pointing):
    """Horizontal wheel steps: positive scrolls right."""

    action: Literal["hscroll"]
    pixels: int


class Wait(_Action):
    action: Literal["wait"]
    time: float = Field(default=1.0, ge=0.0, le=MAX_WAIT_S)


class Terminate(_Action):
    action: Literal["terminate"]
    status: Literal["success", "failure"] = "success"

    @field_validator("status", mode="before")
    @classmethod
    def _lenient(cls, value: Any) -> Any:
        return TERMINATE_STATUSES.get(str(value).strip().lower(), value)


class Answer(_Action):
    action: Literal["answer"]
    text: str = ""


ComputerUseAction = Annotated[
    Key | Type | MouseMove | LeftClick | RightClick | MiddleClick | DoubleClick | TripleClick | LeftClickDrag
    | Scroll | HScroll | Wait | Terminate | Answer,
    Field(discriminator="action"),
]  # fmt: skip
ACTION = TypeAdapter(ComputerUseAction)
ACTION_NAMES = ("key", "type", "mouse_move", "left_click", "left_click_drag", "right_click", "middle_click",
                "double_click", "triple_click", "scroll", "hscroll", "wait", "terminate", "answer")  # fmt: skip
POINTING = (
    MouseMove,
    LeftClick,
    RightClick,
    MiddleClick,
    DoubleClick,
    TripleClick,
    LeftClickDrag,
    Scroll,
    HScroll,
)


def parse_action(arguments: dict[str, Any]) -> ComputerUseAction:
    """One tool call's arguments as an action; ValidationError naming what is wrong otherwise."""
    return ACTION.validate_python(arguments)


def is_final(action: ComputerUseAction) -> bool:
    return isinstance(action, Terminate | Answer)
