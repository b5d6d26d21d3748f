"""The `scripted` policy: a family's GUI teacher (`demonstrate(P, screen)` in its module).

The teacher is a generator of call batches in screen pixels; each batch is one model step. It sees
the desktop through `TeacherScreen` — the same screen and input an agent has, plus window titles
and the accessibility tree to find things — and never touches files. When the generator ends, the
policy terminates with success.

`skip` drops one batch (by index): the deliberately wrong run that shows a reward tells a GUI run
that missed a step from a full one.
"""

from __future__ import annotations

import ast
import time
import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from infra.computer_use.coords import Geometry, Space
from infra.computer_use.formats import ToolFormat, render_calls
from infra.contracts.policy import Observation, PolicyStep
from infra.contracts.task import TaskSpec
from infra.errors import ConfigError
from skills.kit import Family

_CP = "{https://accessibility.ubuntu.example.org/ns/component}"  # infra/desktop_server/a11y.py


@dataclass(frozen=True)
class Element:
    """An on-screen accessible node: its role (the tag), name, text and box in screen pixels."""

    role: str
    name: str
    text: str
    x: int
    y: int
    w: int
    h: int

    @property
    def center(self) -> tuple[int, int]:
        return self.x + self.w // 2, self.y + self.h // 2


def parse_elements(tree_xml: str, screen: tuple[int, int]) -> list[Element]:
    """Every node of an accessibility tree (GET /accessibility) with a non-empty box whose centre is
    on the screen, in document order."""
    root = ET.fromstring(tree_xml)
    found = []
    for node in root.iter():
        coord, size = node.get(f"{_CP}screencoord"), node.get(f"{_CP}size")
        if not (coord and size):
            continue
        (x, y), (w, h) = ast.literal_eval(coord), ast.literal_eval(size)
        element = Element(node.tag, node.get("name") or "", (node.text or "").strip(), x, y, w, h)
        cx, cy = element.center
        if w > 0 and h > 0 and 0 <= cx < screen[0] and 0 <= cy < screen[1]:
            found.append(element)
    return found


class TeacherScreen:
    """What a teacher may look at while it works (read-only; input goes through its yields)."""

    def __init__(self, desktop: Any) -> None:
        self._desktop = desktop

    def size(self) -> tuple[int, int]:
        return self._desktop.screen_size()

    def screenshot(self) -> bytes:
        return self._desktop.screenshot()

    def windows(self) -> list[str]:
        return self._desktop.window_titles()

    def has_window(self, title_part: str) -> bool:
        return any(title_part in title for title in self.windows())

    def accessibility_tree(self) -> str:
        return self._desktop.client.accessibility_tree()

    def elements(self, match: Callable[[Element], bool] | None = None) -> list[Element]:
        """The on-screen accessible nodes (those `match` accepts), read from the tree now."""
        found = parse_elements(self.accessibility_tree(), self.size())
        return [e for e in found if match is None or match(e)]

    def find(
        self,
        match: Callable[[Element], bool],
        *,
        what: str,
        timeout_s: float = 30.0,
    ) -> Element:
        """The first on-screen node `match` accepts, polling until one shows; ConfigError naming `what`
        on timeout (the teacher's run then fails, never a wrong click)."""
        found: list[Element] = []
        self.wait_until(
            lambda: bool(found.extend(self.elements(match)) or found), timeout_s=timeout_s, what=what
        )
        return found[0]

    def wait_until(self, check, *, timeout_s: float = 60.0, what: str = "the screen") -> None:
        """Poll `check()` (no action is sent) until it holds; ConfigError naming `what` on timeout."""
        deadline = time.monotonic() + timeout_s
        while not check():
            if time.monotonic() > deadline:
                raise ConfigError(
                    f"the teacher waited {timeout_s:g} s for {what}; windows: {self.windows()}",
                    hint="look at the episode's last screenshot",
                )
            time.sleep(0.2)


class ScriptedPolicy:
    name = "scripted"
    space = Space.SCREEN
    geometry = Geometry(space=Space.SCREEN)
    fmt = ToolFormat.XML

    def __init__(self, family: Family, *, skip: int | None = None) -> None:
        if family.teacher is None:
            raise ConfigError(
                f"family {family.id} has no GUI teacher", hint="define demonstrate(P, screen) in it"
            )
        self.family = family
        self.model = f"scripted:{family.id}"
        self.skip = skip
        self._batches: Iterator[list[dict]] | None = None
        self._index = 0

    def start(self, task: TaskSpec, screen: tuple[int, int], desktop: Any) -> None:
        self._batches = iter(self.family.teacher(task.params, TeacherScreen(desktop)))
        self._index = 0

    def step(self, observation: Observation) -> PolicyStep:
        started = time.monotonic()
        try:
            batch = self._next()
        except ConfigError as exc:  # the teacher could not find what it looks for: the run fails
            calls = [{"action": "terminate", "status": "failure"}]
            return PolicyStep(
                assistant_raw=render_calls(calls, self.fmt),
                calls=calls,
                errors=[exc.message],
                seconds=time.monotonic() - started,
            )
        if batch is None:
            batch = [{"action": "terminate", "status": "success"}]
        return PolicyStep(
            assistant_raw=render_calls(batch, self.fmt), calls=batch, seconds=time.monotonic() - started
        )

    def _next(self) -> list[dict] | None:
        while True:
            batch = next(self._batches, None)
            index, self._index = self._index, self._index + 1
            if batch is None or index != self.skip:
                return batch

    def close(self) -> None:
        self._batches = None
