"""Every mock app ships what the hub contract asks of it: a valid deterministic seed, declared
volatile keys, a SCHEMA.md with its observable-changes table, and a UI that needs no build step."""

from __future__ import annotations

import json
import re

import pytest

from infra.hub.engine import app_folder
from infra.hub.registry import load_mock_apps
from infra.hub.settings import ALL_APPS

APPS = {app.name: app for app in load_mock_apps(ALL_APPS)}
IMPORT = re.compile(r"""^\s*import\s.*?from\s+["']([^"']+)["']""", re.MULTILINE)


@pytest.mark.parametrize("name", ALL_APPS)
def test_seed_is_deterministic_json_that_fits_the_schema(name):
    app = APPS[name]
    first, second = app.seed(), app.seed()
    assert first == second
    assert json.loads(json.dumps(first)) == first  # plain JSON: no tuples, dates or sets
    app.validate(first)
    assert app.volatile and "ui" in app.volatile


@pytest.mark.parametrize("name", ALL_APPS)
def test_schema_doc_lists_fields_and_observable_changes(name):
    doc = (app_folder(name) / "SCHEMA.md").read_text()
    assert "## Observable state changes" in doc
    for key in APPS[name].model.model_fields:
        assert f"`{key}" in doc, f"{name}/SCHEMA.md does not document top-level key {key!r}"


@pytest.mark.parametrize("name", ALL_APPS)
def test_ui_is_plain_es_modules_with_relative_imports(name):
    static = APPS[name].static_dir
    page = APPS[name].index_html or (static / "index.html").read_text()  # engine apps generate theirs
    assert 'type="module"' in page
    for module in static.rglob("*.js"):
        for spec in IMPORT.findall(module.read_text()):
            assert spec.startswith(("./", "../")) and spec.endswith(".js"), f"{module.name} imports {spec!r}"


def test_mail_refuses_a_message_keyed_sender_instead_of_from():
    # The UI and rewards read "from"; a state saying "sender" must be refused, not stored.
    import pydantic

    from infra.hub.apps.mail.state import Message

    with pytest.raises(pydantic.ValidationError, match="from"):
        Message.model_validate(
            {
                "folder": "inbox",
                "thread": "t1",
                "date": "2024-05-01T09:00:00",
                "sender": {"name": "Ana", "email": "ana@example.com"},
            }
        )
