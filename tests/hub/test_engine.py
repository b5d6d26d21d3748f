"""The app engine: definitions are checked with every problem named, a state breaking a definition's
rules is refused, every engine app's generated documents are current, and every engine app renders
in a real Chromium (every view reachable, none blank, its seeded world visible, no console error)."""

from __future__ import annotations

import copy

import pytest
import yaml

from infra.errors import CuagymError
from infra.hub.engine import APPS_DIR, DefinitionError, engine_app, load_definition, parse_definition
from infra.hub.engine.docs_files import engine_apps, write_docs
from infra.hub.engine.render_check import render_check
from infra.hub.engine.seed import default_state

DESKLY = yaml.safe_load((APPS_DIR / "deskly" / "definition.yaml").read_text())


def _broken(**changes) -> dict:
    data = copy.deepcopy(DESKLY)
    for path, value in changes.items():
        *parents, last = path.split("__")
        node = data
        for key in parents:
            node = node[int(key)] if isinstance(node, list) else node[key]
        node[last] = value
    return data


@pytest.mark.parametrize(
    ("changes", "named"),
    [
        (
            {"entities__tickets__fields__requester__to": "clients"},
            "tickets.requester points to unknown entity 'clients'",
        ),
        ({"views__1__group": None}, "a kanban needs `group`, an enum field"),
        ({"views__0__columns": ["subject", "severity"]}, "tickets has no field 'severity'"),
        ({"seed__current_user": "a0099"}, "seed.current_user 'a0099' is not a seeded agents record"),
        ({"actions__0__set": {"owner": "$me"}}, "action 'take': tickets has no field 'owner'"),
        ({"people": "staff"}, "people 'staff' is not an entity"),
    ],
)
def test_a_broken_definition_is_refused_naming_the_problem(changes, named):
    with pytest.raises(DefinitionError) as caught:
        parse_definition(_broken(**changes), source="test")
    assert named in str(caught.value)
    assert "docs/hub.md" in caught.value.hint


def test_every_problem_of_a_definition_is_named_at_once():
    data = _broken(people="staff", entities__tickets__fields__requester__to="clients")
    with pytest.raises(DefinitionError) as caught:
        parse_definition(data)
    assert "people 'staff'" in str(caught.value) and "unknown entity 'clients'" in str(caught.value)


def test_the_state_model_enforces_types_and_refs():
    app = engine_app(load_definition(APPS_DIR / "deskly" / "definition.yaml"))
    good = default_state(app_def := load_definition(APPS_DIR / "deskly" / "definition.yaml"))
    app.validate(good)
    dangling = copy.deepcopy(good)
    dangling["tickets"]["T0001"]["requester"] = "c9999"
    with pytest.raises(CuagymError, match=r"tickets.T0001.requester names 'c9999'"):
        app.validate(dangling)
    bad_enum = copy.deepcopy(good)
    bad_enum["tickets"]["T0001"]["status"] = "lost"
    with pytest.raises(CuagymError, match="tickets"):
        app.validate(bad_enum)
    stranger = copy.deepcopy(good)
    stranger["current_user"] = "nobody"
    with pytest.raises(CuagymError, match="current_user 'nobody'"):
        app.validate(stranger)
    assert app_def.seed.now.endswith("Z")


@pytest.mark.parametrize("name", engine_apps())
def test_generated_documents_are_current(name):
    stale = [str(path) for path, state in write_docs(name, check=True) if state != "current"]
    assert not stale, f"run `cuagym hub docs {name}`: {stale} are out of date"


def test_every_engine_app_renders_in_chromium(tmp_path):
    problems = {
        name: render_check(load_definition(APPS_DIR / name / "definition.yaml")) for name in engine_apps()
    }
    assert len(problems) >= 1
    assert not any(problems.values()), {k: v for k, v in problems.items() if v}


def test_the_render_check_sees_a_view_that_hides_the_seeded_world():
    hidden = _broken(views__0__columns=["status", "priority"])  # no title column: no ticket is named
    problems = render_check(parse_definition(hidden))
    assert "view 'tickets' shows none of the seeded tickets" in problems


@pytest.mark.parametrize("name", engine_apps())
def test_the_declaration_and_the_definition_agree(name):
    from infra import apps

    definition = load_definition(APPS_DIR / name / "definition.yaml")
    declared = apps.registry()[name]
    assert declared.title == definition.title, "skills/<app>/app.yaml's title is the page's title"
    assert apps.route(name) == f"/{definition.name}/"
