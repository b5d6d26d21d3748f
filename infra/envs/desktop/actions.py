"""GUI input for desktop envs: a closed set of actions, each rendered as one xdotool command.

Actions are a discriminated union on `type`, so an unknown action or key name fails when the action
is built (listing what is valid), not inside a live desktop. Key names follow pyautogui's (what
agents and OSWorld trajectories use: "enter", "ctrl", "pgdn", "f5", single characters) and are
mapped to X keysyms here.

Example:
    >>> xdotool_args(KeyPress(keys=["ctrl", "s"]))
    ['key', '--clearmodifiers', 'ctrl+s']
"""

from __future__ import annotations

import string
from typing import Annotated, Literal

from pydantic import BaseModel, Field, TypeAdapter, field_validator

_KEYSYMS = {
    "enter": "Return",
    "return": "Return",
    "tab": "Tab",
    "esc": "Escape",
    "escape": "Escape",
    "backspace": "BackSpace",
    "delete": "Delete",
    "del": "Delete",
    "insert": "Insert",
    "space": "space",
    "up": "Up",
    "down": "Down",
    "left": "Left",
    "right": "Right",
    "home": "Home",
    "end": "End",
    "pageup": "Prior",
    "pgup": "Prior",
    "pagedown": "Next",
    "pgdn": "Next",
    "ctrl": "ctrl",
    "control": "ctrl",
    "ctrlleft": "Control_L",
    "ctrlright": "Control_R",
    "shift": "shift",
    "shiftleft": "Shift_L",
    "shiftright": "Shift_R",
    "alt": "alt",
    "altleft": "Alt_L",
    "altright": "Alt_R",
    "win": "super",
    "super": "super",
    "meta": "super",
    "cmd": "super",
    "command": "super",
    "capslock": "Caps_Lock",
    "numlock": "Num_Lock",
    "printscreen": "Print",
    "prtsc": "Print",
    "menu": "Menu",
    "apps": "Menu",
    "pause": "Pause",
    **{f"f{i}": f"F{i}" for i in range(1, 25)},
}
_PUNCTUATION = {
    "-": "minus",
    "+": "plus",
    "=": "equal",
    ",": "comma",
    ".": "period",
    "/": "slash",
    "\\": "backslash",
    ";": "semicolon",
    ":": "colon",
    "'": "apostrophe",
    '"': "quotedbl",
    "`": "grave",
    "~": "asciitilde",
    "!": "exclam",
    "@": "at",
    "#": "numbersign",
    "$": "dollar",
    "%": "percent",
    "^": "asciicircum",
    "&": "ampersand",
    "*": "asterisk",
    "(": "parenleft",
    ")": "parenright",
    "[": "bracketleft",
    "]": "bracketright",
    "{": "braceleft",
    "}": "braceright",
    "<": "less",
    ">": "greater",
    "?": "question",
    "_": "underscore",
    "|": "bar",
}
_BUTTONS = {"left": "1", "middle": "2", "right": "3"}


def keysym(name: str) -> str:
    """The X keysym for a pyautogui-style key name; ValueError listing the valid names otherwise."""
    if len(name) == 1 and (name in string.ascii_letters or name in string.digits):
        return name
    if name in _PUNCTUATION:
        return _PUNCTUATION[name]
    if name.lower() in _KEYSYMS:
        return _KEYSYMS[name.lower()]
    raise ValueError(
        f"unknown key {name!r}; use a letter, digit or punctuation character, or one of "
        f"{', '.join(sorted(_KEYSYMS))}"
    )


class _Pointer(BaseModel):
    model_config = {"extra": "forbid"}
    x: int = Field(ge=0)
    y: int = Field(ge=0)


def _known_keys(keys: list[str]) -> list[str]:
    for key in keys:
        keysym(key)
    return keys


class Click(_Pointer):
    """`count` clicks of `button` at (x, y), with `modifiers` held down (e.g. ["ctrl"] for ctrl+click)."""

    type: Literal["click"] = "click"
    button: Literal["left", "middle", "right"] = "left"
    count: int = Field(default=1, ge=1, le=3)
    modifiers: list[str] = Field(default_factory=list)

    _modifiers = field_validator("modifiers")(classmethod(lambda cls, keys: _known_keys(keys)))


class MoveTo(_Pointer):
    type: Literal["move"] = "move"


class DragTo(_Pointer):
    """Press `button` where the pointer is, move to (x, y), release."""

    type: Literal["drag"] = "drag"
    button: Literal["left", "middle", "right"] = "left"


class Scroll(BaseModel):
    """Wheel clicks at the pointer (or at x, y): dy > 0 scrolls down, dx > 0 right."""

    model_config = {"extra": "forbid"}
    type: Literal["scroll"] = "scroll"
    dy: int = 0
    dx: int = 0
    x: int | None = Field(default=None, ge=0)
    y: int | None = Field(default=None, ge=0)
    modifiers: list[str] = Field(default_factory=list)

    _modifiers = field_validator("modifiers")(classmethod(lambda cls, keys: _known_keys(keys)))


class TypeText(BaseModel):
    model_config = {"extra": "forbid"}
    type: Literal["type"] = "type"
    text: str = Field(min_length=1)


class KeyPress(BaseModel):
    """One chord: the keys are held together, e.g. ["ctrl", "shift", "t"]; ["enter"] is one key."""

    model_config = {"extra": "forbid"}
    type: Literal["key"] = "key"
    keys: list[str] = Field(min_length=1)

    _keys = field_validator("keys")(classmethod(lambda cls, keys: _known_keys(keys)))


GuiAction = Annotated[Click | MoveTo | DragTo | Scroll | TypeText | KeyPress, Field(discriminator="type")]
GUI_ACTION = TypeAdapter(GuiAction)


def _move(x: int, y: int, at: tuple[int, int] | None) -> list[str]:
    # `--sync` waits until the pointer has moved; to the point it already is at, xdotool waits 15 s
    # for a motion that never comes. So a move to where the pointer is (`at`) goes without it.
    return ["mousemove", str(x), str(y)] if at == (x, y) else ["mousemove", "--sync", str(x), str(y)]


def xdotool_args(action: GuiAction, *, at: tuple[int, int] | None = None) -> list[str]:
    """The xdotool arguments (after the program name) that perform `action`; `at` is where the
    pointer is now, when known (see _move)."""
    match action:
        case Click(x=x, y=y, button=button, count=count, modifiers=modifiers):
            # xdotool's click sleeps its --delay (100 ms unless given) after every click, a single one
            # too: a single click goes with none (100 ms less per click step), a double or triple
            # click keeps 80 ms between its clicks
            repeat = ["--repeat", str(count), "--delay", "80"] if count > 1 else ["--delay", "0"]
            return _holding(modifiers, [*_move(x, y, at), "click", *repeat, _BUTTONS[button]])
        case MoveTo(x=x, y=y):
            return _move(x, y, at)
        case DragTo(x=x, y=y, button=button):
            return [
                "mousedown",
                _BUTTONS[button],
                *_move(x, y, at),
                "mouseup",
                _BUTTONS[button],
            ]
        case Scroll(dy=dy, dx=dx, x=x, y=y, modifiers=modifiers) if modifiers:
            return _holding(modifiers, xdotool_args(Scroll(dy=dy, dx=dx, x=x, y=y), at=at))
        case Scroll(dy=dy, dx=dx, x=x, y=y):
            args = _move(x, y, at) if x is not None and y is not None else []
            for amount, negative, positive in ((dy, "4", "5"), (dx, "6", "7")):
                if amount:
                    args += [
                        "click",
                        "--repeat",
                        str(abs(amount)),
                        "--delay",
                        "30",
                        positive if amount > 0 else negative,
                    ]
            return args or ["sleep", "0"]
        case TypeText(text=text):
            return ["type", "--delay", "12", "--", text]
        case KeyPress(keys=keys):
            return ["key", "--clearmodifiers", "+".join(keysym(k) for k in keys)]
    raise TypeError(f"not a GUI action: {action!r}")


def _holding(modifiers: list[str], args: list[str]) -> list[str]:
    """`args` with the modifier keys pressed before and released after (one xdotool command line)."""
    if not modifiers:
        return args
    keys = [keysym(k) for k in modifiers]
    return ["keydown", *keys, *args, "keyup", *reversed(keys)]
