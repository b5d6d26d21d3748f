"""Host-side steps the Calc GUI teachers share (`demonstrate` in this folder's families).

The catalogue skips this module (leading underscore) and nothing here is shipped to a guest. Calc
exports its grid to the accessibility tree: each visible cell is a `table-cell` named by its
reference ("B2") whose text is what the cell shows, and the Name Box left of the formula bar is a
`text` node holding the cursor's reference. An arrow key sent to a just-opened document can be lost
while two desktops load the machine, so the teachers move by keys and then read where the cursor
landed instead of trusting that every key arrived. One read of the tree costs ~7 s in Calc (every
visible cell is an accessible), so a teacher reads it once per move, not once per cell.
"""

import re

from infra.errors import ConfigError

_REFERENCE = re.compile(r"^[A-Z]{1,3}[0-9]+$")
ATTEMPTS = 3


def key(*keys) -> dict:
    return {"action": "key", "keys": list(keys)}


def reference(column: int, row: int) -> str:
    """The A1-style reference of 1-based (column, row), e.g. (2, 2) -> "B2"."""
    letters = ""
    while column:
        column, rest = divmod(column - 1, 26)
        letters = chr(ord("A") + rest) + letters
    return f"{letters}{row}"


def cursor(screen) -> str | None:
    """The Name Box's reference (the cell the cursor is on), or None while it is not on screen."""
    boxes = screen.elements(lambda e: e.role == "text" and _REFERENCE.match(e.text) is not None)
    return boxes[0].text if boxes else None


def go_to(screen, column: int, row: int):
    """Put the cursor on (column, row) from A1 by keys, and check the Name Box says it got there;
    up to ATTEMPTS tries, then ConfigError (the run fails rather than typing into the wrong cell)."""
    target = reference(column, row)
    for _ in range(ATTEMPTS):
        yield [key("ctrl", "home"), *[key("right")] * (column - 1), *[key("down")] * (row - 1)]
        try:
            screen.wait_until(lambda: cursor(screen) == target, timeout_s=3.0, what=f"the cursor on {target}")
            return
        except ConfigError:
            continue
    raise ConfigError(
        f"the cursor did not reach {target} in {ATTEMPTS} tries (it is on {cursor(screen)})",
        hint="look at the episode's last screenshot",
    )
