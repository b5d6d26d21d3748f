"""Executing computer_use calls on a desktop: model space -> screen pixels -> xdotool.

Every call is checked and converted before it runs: an unknown action, a malformed argument or a
point off the screen becomes an `Executed` with `ok=False` and the reason, and the next call still
runs — an episode never crashes on what a model wrote. `cursor_before` is read from the X server
before every action (dialogs and focus changes move the pointer without the agent asking, so it
cannot be reconstructed later).
"""

from __future__ import annotations

import time
from typing import Any, Protocol

from pydantic import BaseModel, ValidationError

from infra.computer_use.actions import (
    MAX_CALLS_PER_STEP,
    Answer,
    DoubleClick,
    HScroll,
    Key,
    LeftClick,
    LeftClickDrag,
    MiddleClick,
    MouseMove,
    RightClick,
    Scroll,
    Terminate,
    TripleClick,
    Type,
    Wait,
    parse_action,
)
from infra.computer_use.coords import Geometry, Space, as_geometry
from infra.envs.desktop.actions import Click, DragTo, GuiAction, KeyPress, MoveTo, TypeText
from infra.envs.desktop.actions import Scroll as WheelScroll
from infra.errors import CuagymError

_CLICKS = {LeftClick: ("left", 1), RightClick: ("right", 1), MiddleClick: ("middle", 1),
           DoubleClick: ("left", 2), TripleClick: ("left", 3)}  # fmt: skip


class Screen(Protocol):
    """What the executor needs of an env (DesktopEnv provides it)."""

    def screen_size(self) -> tuple[int, int]: ...
    def cursor_position(self) -> tuple[int, int]: ...
    def gui_input(self, action: GuiAction, *, at: tuple[int, int] | None = None) -> None: ...


class Executed(BaseModel):
    """One call as it ran (or did not)."""

    action: str  # the computer_use action name, or "invalid" when none could be read
    raw_action_args: dict[str, Any]  # as the model wrote them (model space)
    coordinate_screen: tuple[int, int] | None = None  # what was executed, in pixels
    cursor_before: tuple[int, int] | None = None
    ok: bool = True
    error: str | None = None
    final: bool = False  # terminate or answer: the episode ends here
    status: str | None = None  # terminate's status
    answer: str | None = None


def execute_calls(screen: Screen, calls: list[dict[str, Any]], space: Space | Geometry) -> list[Executed]:
    """Run one model step's calls in order (at most MAX_CALLS_PER_STEP; the rest are refused); stops
    after a terminate or answer."""
    done: list[Executed] = []
    size = screen.screen_size()  # once per step: every call of a step sees the same screen
    for n, arguments in enumerate(calls):
        if n >= MAX_CALLS_PER_STEP:
            done.append(_failed(arguments, f"more than {MAX_CALLS_PER_STEP} calls in one step"))
            continue
        done.append(execute_call(screen, arguments, space, size=size))
        if done[-1].final:
            break
    return done


def execute_call(
    screen: Screen, arguments: dict[str, Any], space: Space | Geometry, *, size: tuple[int, int] | None = None
) -> Executed:
    try:
        action = parse_action(arguments)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first.get("loc", ()))
        return _failed(arguments, f"invalid call ({where}): {first.get('msg')}")
    size = size or screen.screen_size()
    point = None
    if getattr(action, "coordinate", None) is not None:
        geometry = as_geometry(space)
        point = geometry.to_screen(action.coordinate, size)
        x_max, y_max = geometry.extent(size)
        inside = 0 <= action.coordinate[0] <= x_max and 0 <= action.coordinate[1] <= y_max
        if not inside or not (0 <= point[0] < size[0] and 0 <= point[1] < size[1]):
            return _failed(arguments, f"{action.coordinate} in {geometry.space.value} space is off the {size[0]}x{size[1]} "
                           f"screen (pixel {point})", action.action)  # fmt: skip
    cursor = screen.cursor_position()
    record = Executed(action=action.action, raw_action_args=dict(arguments), coordinate_screen=point,
                      cursor_before=cursor)  # fmt: skip
    try:
        _perform(screen, action, point or cursor, cursor)
    except (CuagymError, ValueError) as exc:
        return record.model_copy(update={"ok": False, "error": str(exc)[:500]})
    if isinstance(action, Terminate):
        return record.model_copy(update={"final": True, "status": action.status})
    if isinstance(action, Answer):
        return record.model_copy(update={"final": True, "answer": action.text})
    return record


def _perform(screen: Screen, action, at: tuple[int, int], cursor: tuple[int, int]) -> None:
    """Do `action` at pixel `at`; `cursor` is where the pointer is now (read just before)."""
    x, y = at
    match action:
        case Key(keys=keys):
            screen.gui_input(KeyPress(keys=[k.lower() if len(k) > 1 else k for k in keys]))
        case Type(text=text):
            _type(screen, text)
        case MouseMove():
            screen.gui_input(MoveTo(x=x, y=y), at=cursor)
        case LeftClickDrag():
            screen.gui_input(DragTo(x=x, y=y), at=cursor)
        case Scroll(pixels=pixels):
            screen.gui_input(WheelScroll(dy=-pixels, x=x, y=y, modifiers=action.modifiers), at=cursor)
        case HScroll(pixels=pixels):
            screen.gui_input(WheelScroll(dx=pixels, x=x, y=y, modifiers=action.modifiers), at=cursor)
        case Wait(time=seconds):
            time.sleep(seconds)
        case Terminate() | Answer():
            pass
        case _ if type(action) in _CLICKS:
            button, count = _CLICKS[type(action)]
            click = Click(x=x, y=y, button=button, count=count, modifiers=action.modifiers)
            screen.gui_input(click, at=cursor)
        case _:
            raise ValueError(f"no executor for {action.action!r}")


def _type(screen: Screen, text: str) -> None:
    """Type `text` as pyautogui.write would: a newline is the Enter key and a tab the Tab key (xdotool
    types them as characters, which a spreadsheet cell or a form field takes literally)."""
    import re

    for part in re.split(r"(\n|\t)", text):
        if part == "\n":
            screen.gui_input(KeyPress(keys=["enter"]))
        elif part == "\t":
            screen.gui_input(KeyPress(keys=["tab"]))
        elif part:
            screen.gui_input(TypeText(text=part))


def _failed(arguments: Any, why: str, name: str | None = None) -> Executed:
    raw = arguments if isinstance(arguments, dict) else {"value": arguments}
    name = name or (raw.get("action") if isinstance(raw.get("action"), str) else None) or "invalid"
    return Executed(action=name, raw_action_args=raw, ok=False, error=why)
