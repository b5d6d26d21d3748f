"""Host-side steps the Team Chat GUI teachers share (`demonstrate` in this folder's families).

The catalogue skips this module (leading underscore) and nothing here is shipped to a guest. The
chat is open full-screen in Chromium; what to click is found in the accessibility tree, where
Chromium exports the page with screen coordinates: sidebar conversations are links named
"<name>" or "<name> <unread count>", message texts are statics, buttons are push-buttons named by
their aria-label ("Reply in thread", "Add reaction", "React with <name>"), and the composers are
entries named by their placeholder ("Message #<channel>", "Reply…"). The browser window's title
names the conversation shown ("<name> - <workspace> - Team Chat - Chromium").
"""

from skills.kit.teach import click, named

THREAD_PANE_X = 1920 - 380  # the thread pane is the 380 px column at the right edge (app.css)


def showing(screen, conversation):
    """Whether the chat shows `conversation` (a channel's name or a person's)."""
    return any(title.startswith(f"{conversation} - ") for title in screen.windows())


def open_conversation(screen, name):
    """Open the channel or DM `name` from the sidebar (its link's name carries the unread count)."""
    if showing(screen, name):
        return
    link = screen.find(
        lambda e: e.role == "link" and (e.name == name or e.name.startswith(name + " ")) and e.x < 260,
        what=f"the sidebar link of {name}",
    )
    yield [click(link)]
    screen.wait_until(lambda: showing(screen, name), timeout_s=15, what=f"{name} to open")


def message_text(screen, text, *, in_thread=False):
    """The static holding a message's `text`, in the channel view (or the thread pane)."""

    def match(e):
        return e.role == "static" and e.name == text and (e.x >= THREAD_PANE_X) == in_thread

    where = "the thread" if in_thread else "the channel"
    return screen.find(match, what=f"the message {text!r} in {where}")


def row_button(screen, message, label):
    """Hover-only button `label` of the row holding `message`, which the pointer is on: only the
    hovered row shows its action bar (at its top right), so the one nearest the text is its own."""
    match = named("push-button", label)
    screen.find(match, what=f"{label!r} after hovering the message")
    return min(screen.elements(match), key=lambda e: abs(e.center[1] - message.center[1]))


def send(screen, composer_name, text):
    """Click the composer named `composer_name`, type `text` and send it with Enter. The click goes
    near the box's left end: a toast ("#x was archived") shows for seconds over its middle."""
    composer = screen.find(named("entry", composer_name), what=f"the composer {composer_name!r}")
    at = [composer.x + 30, composer.center[1]]
    yield [{"action": "left_click", "coordinate": at}, {"action": "type", "text": text + "\n"}]


def shown(screen, text, *, in_thread=False):
    """Wait until a message reading `text` shows (what was sent has rendered)."""
    message_text(screen, text, in_thread=in_thread)
