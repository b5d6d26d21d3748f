"""Agora's teacher steps beyond skills/kit/teach_web.py: the thread page's reply box (the engine's
thread archetype, static/engine/views/thread.js)."""

from skills.kit.teach import click, named
from skills.kit.teach_web import open_record, open_view, press


def reply(screen, text: str):
    """Write `text` in the open thread's "Write a reply" box, press "Post reply", wait for the post."""
    box = screen.find(named("entry", "Write a reply"), what="the reply box")
    yield [click(box), {"action": "type", "text": text}]
    yield from press(screen, "Post reply")
    screen.find(lambda e: e.role == "static" and e.name == text, timeout_s=10, what="the reply in the thread")


def open_thread(screen, title: str):
    """Open the thread `title` from Latest: an open thread's page hides the list, so go back to it
    first ("All latest"), then search and open it."""
    yield from open_view(screen, "Latest")
    back = screen.elements(lambda e: e.role == "link" and e.name == "All latest")
    if back:
        yield [click(back[0])]
        screen.wait_until(
            lambda: any(t.startswith("Latest - ") for t in screen.windows()),
            timeout_s=15,
            what="the thread list",
        )
    yield from open_record(screen, "Latest", title)
