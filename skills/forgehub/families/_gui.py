"""ForgeHub's teacher steps beyond skills/kit/teach_web.py: the pull request page and its Merge
confirmation (the engine's code archetype, static/engine/views/code.js)."""

from skills.kit.teach import click, in_dialog
from skills.kit.teach_web import open_record, open_view, press


def open_pull(screen, title: str):
    """Open the pull request `title` from the Pull requests view (the search box finds it)."""
    yield from open_view(screen, "Pull requests")
    yield from open_record(screen, "Pull requests", title)


def merge(screen):
    """Press Merge, confirm in its dialog, and wait until the pull request shows as merged (the
    Merge button is gone once the state is no longer open)."""
    yield from press(screen, "Merge")
    yield [click(in_dialog(screen, "push-button", "Merge"))]
    screen.wait_until(
        lambda: (
            not screen.elements(lambda e: e.role == "dialog")
            and not screen.elements(lambda e: e.role == "push-button" and e.name == "Merge")
        ),
        timeout_s=10,
        what="the pull request to be merged",
    )
