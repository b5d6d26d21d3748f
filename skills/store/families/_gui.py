"""Host-side steps the Store Admin GUI teachers share (`demonstrate` in this folder's families).

The catalogue skips this module (leading underscore) and nothing here is shipped to a guest. The
store admin is open full-screen in Chromium; what to click is found in the accessibility tree, where
Chromium exports the page with screen coordinates: the sidebar sections are links ("Orders 3" carries
the count of orders to fulfil), buttons are push-buttons named by their text, form fields are
entries / spin-buttons / combo-boxes named by their label, and a date field is a date-editor whose
segments are spin-buttons ("Month Start date", "Day Start date", "Year Start date"). The browser
window's title names the page ("<Section> · <store> · Store Admin - Chromium").
"""

from skills.kit.teach import click, named

SIDEBAR_RIGHT = 232  # the section sidebar is the 232 px column at the left edge (app.css)


def showing(screen, section):
    """Whether the admin shows a page of `section` (the title starts with the section's label)."""
    return any(title.startswith(f"{section} · ") for title in screen.windows())


def open_section(screen, section):
    """Open `section` ("Orders", "Products", "Discounts", ...) from the sidebar."""
    link = screen.find(
        lambda e: (
            e.role == "link"
            and (e.name == section or e.name.startswith(section + " "))
            and e.x < SIDEBAR_RIGHT
        ),
        what=f"the sidebar link {section}",
    )
    yield [click(link)]
    screen.wait_until(lambda: showing(screen, section), timeout_s=15, what=f"the {section} page to open")


def fill(screen, role, name, text):
    """Click the field `name` (of `role`), select what it holds and type `text` over it."""
    box = screen.find(named(role, name), what=f"the field {name!r}")
    return [click(box), {"action": "key", "keys": ["ctrl", "a"]}, {"action": "type", "text": text}]


def open_order(screen, number):
    """Open order `number` ("#5802") by typing it into the top bar's search and pressing Enter."""
    search = screen.find(named("entry", "Search"), what="the top bar search")
    yield [click(search), {"action": "key", "keys": ["ctrl", "a"]}, {"action": "type", "text": number + "\n"}]
    screen.find(named("heading", number), timeout_s=15, what=f"the page of order {number}")
