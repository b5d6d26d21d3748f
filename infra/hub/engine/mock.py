"""An engine app as the hub hosts it: a MockApp built from a definition.

The state API, sessions, uploads and pinned routes are the hub's own (state_api.py); the engine adds
the definition's state model and seed, one route (`GET /<app>/definition`: what the UI renders) and
an index page that loads the engine's UI (static/engine/) with the app's title and theme.
"""

from __future__ import annotations

import html
from functools import partial
from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import Response

from infra.hub.engine.definition import AppDefinition
from infra.hub.engine.seed import default_state
from infra.hub.engine.state_model import state_model
from infra.hub.mock_app import MockApp

ENGINE_STATIC = Path(__file__).resolve().parents[1] / "static" / "engine"
_FONTS = {
    "sans": '"Inter", "Segoe UI", "Liberation Sans", "DejaVu Sans", sans-serif',
    "serif": '"Georgia", "Liberation Serif", "DejaVu Serif", serif',
    "mono": '"JetBrains Mono", "Liberation Mono", "DejaVu Sans Mono", monospace',
    "rounded": '"Nunito", "Verdana", "DejaVu Sans", sans-serif',
}


def engine_app(definition: AppDefinition) -> MockApp:
    body = definition.model_dump_json(exclude_none=True).encode()
    router = APIRouter()

    @router.get("/definition", include_in_schema=False)
    async def served_definition() -> Response:
        return Response(body, media_type="application/json", headers={"Cache-Control": "no-cache"})

    return MockApp(
        name=definition.name,
        title=definition.title,
        description=definition.description,
        model=state_model(definition),
        seed=partial(default_state, definition),
        volatile=definition.volatile,
        static_dir=ENGINE_STATIC,
        router=router,
        index_html=index_page(definition),
    )


def index_page(definition: AppDefinition) -> str:
    theme = definition.theme
    classes = f"engine nav-{theme.nav} density-{theme.density}" + (" dark-nav" if theme.dark_nav else "")
    return f"""<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>{html.escape(definition.title)}</title>
  <link rel="icon" href="data:,">
  <link rel="stylesheet" href="../_hub/static/base.css">
  <link rel="stylesheet" href="assets/engine.css">
  <style>:root {{ --accent: {theme.accent}; --font: {_FONTS[theme.font]}; }}</style>
</head>
<body class="{classes}">
  <div id="app" class="engine-app" data-app="{definition.name}">
    <header class="topbar"></header>
    <nav class="sidebar" aria-label="Views"></nav>
    <main class="content" aria-live="polite"></main>
  </div>
  <script type="module" src="assets/app.js"></script>
</body>
</html>
"""
