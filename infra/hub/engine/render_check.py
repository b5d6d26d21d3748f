"""Does an engine app render? A real Chromium opens it on a hub serving only that app and walks it.

What must hold (issue: app synthesis accepts a definition only when it does): every view is
reachable from the UI (its navigation link opens it and the page title names it), no view is blank,
the seeded world is visible (a seeded record's title shows in each view of an entity that has
records), a record opens from its view, and the page logs no console error or uncaught exception.

    problems = render_check(definition)      # [] when it renders; else one sentence per problem
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

from infra.hub.engine.definition import AppDefinition
from infra.hub.engine.mock import engine_app
from infra.hub.engine.seed import default_state

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--headless",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@contextlib.contextmanager
def serving(definition: AppDefinition) -> Iterator[str]:
    """A hub on a free loopback port hosting only `definition`'s app, for the block; its base URL."""
    import uvicorn

    from infra.hub.app import create_app
    from infra.hub.settings import HubSettings

    with tempfile.TemporaryDirectory(prefix="cuagym-render-") as data:
        settings = HubSettings(apps=[], port=0, data_dir=Path(data))
        config = uvicorn.Config(
            create_app(settings, [engine_app(definition)]), host="127.0.0.1", port=0, log_level="warning"
        )
        server = uvicorn.Server(config)
        thread = threading.Thread(target=server.run, name="render-check-hub", daemon=True)
        thread.start()
        deadline = time.monotonic() + 30
        while not server.started:
            if not thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the render check's hub did not start")
            time.sleep(0.02)
        port = server.servers[0].sockets[0].getsockname()[1]
        try:
            yield f"http://127.0.0.1:{port}"
        finally:
            server.should_exit = True
            thread.join(timeout=15)


def render_check(definition: AppDefinition, *, screenshot_dir: Path | None = None) -> list[str]:
    """Every problem found opening each view of `definition` in Chromium (empty: it renders)."""
    # Playwright's sync API refuses a thread where an asyncio loop is running, and a caller's
    # thread may have one (a Prefect task, or another sync_playwright still open in it, as a test
    # session's shared browser is), so the check always runs in a thread of its own.
    with concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="render-check") as pool:
        return pool.submit(_render_check, definition, screenshot_dir).result()


def _render_check(definition: AppDefinition, screenshot_dir: Path | None) -> list[str]:
    from playwright.sync_api import sync_playwright

    with serving(definition) as base, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1600, "height": 900})
            return _walk(page, base, definition, screenshot_dir)
        finally:
            browser.close()


def _walk(page, base: str, definition: AppDefinition, screenshot_dir: Path | None) -> list[str]:
    errors: list[str] = []
    page.on("console", lambda m: errors.append(f"console {m.type}: {m.text}") if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(f"uncaught: {e}"))
    problems: list[str] = []
    seeded = default_state(definition)
    page.goto(f"{base}/{definition.name}/?sid=render-check")
    try:
        page.wait_for_selector("html[data-ready=true]", timeout=15000)
    except Exception:  # noqa: BLE001 - playwright's timeout; the page never became ready
        return [f"the app never finished loading: {errors or 'no error logged'}"]
    for view in definition.views:
        link = page.locator("a.nav-item", has_text=view.label).first
        if link.count() == 0:
            problems.append(f"view {view.id!r}: no navigation link named {view.label!r}")
            continue
        try:
            link.click(timeout=5000)
            page.wait_for_function(
                "(t) => document.title.startsWith(t)", arg=f"{view.label} - ", timeout=5000
            )
        except Exception:  # noqa: BLE001
            problems.append(f"view {view.id!r}: its link does not open it (title {page.title()!r})")
            continue
        page.wait_for_timeout(100)
        text = page.inner_text(".content")
        if len(text.strip()) < 10:
            problems.append(f"view {view.id!r} is blank")
        problems += _seeded_world_shows(page, view, definition, seeded, text)
        if screenshot_dir is not None:
            screenshot_dir.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(screenshot_dir / f"{definition.name}-{view.id}.png"))
    return problems + errors


def _seeded_world_shows(page, view, definition: AppDefinition, seeded: dict, text: str) -> list[str]:
    records = seeded.get(view.entity) or {}
    if not records:
        return []
    title = definition.entities[view.entity].title
    names = [str(r.get(title, "")) for r in records.values() if r.get(title)]
    if not any(name[:40] in text for name in names):
        return [f"view {view.id!r} shows none of the seeded {view.entity}"]
    link = page.locator("a.record-link").first
    if link.count() == 0:
        return []  # archetypes that open no record (a dashboard) have no record links
    name = link.inner_text().strip()
    try:  # a real click: a link covered by another element fails here, as it would for a person
        link.click(timeout=5000)
        page.wait_for_function("(t) => document.title.startsWith(t)", arg=f"{name} - ", timeout=5000)
    except Exception:  # noqa: BLE001 - playwright's timeout, with its reason
        return [f"view {view.id!r}: clicking the record {name!r} does not open it"]
    return []
