"""Help that cannot drift: every CLI command has help text with an example and is in the README;
prefect.yaml entrypoints resolve to flows whose parameter models accept the YAML; every skill has
a SKILL.md and a taxonomy that parses."""

from __future__ import annotations

import typing

import click
import pytest

from flows.cli import main
from flows.serve import load_deployment_specs, resolve_entrypoint
from infra.settings import PROJECT_ROOT
from tasks.taxonomy import load_taxonomy

README = (PROJECT_ROOT / "README.md").read_text()


def _commands(group: click.Group, prefix: str = ""):
    for name, cmd in group.commands.items():
        yield f"{prefix}{name}", cmd
        if isinstance(cmd, click.Group):
            yield from _commands(cmd, f"{prefix}{name} ")


@pytest.mark.parametrize("name,cmd", list(_commands(main)))
def test_command_documented(name, cmd):
    assert cmd.help, f"`cuagym {name}` has no help text"
    if not isinstance(cmd, click.Group):
        assert "Example:" in cmd.help, f"`cuagym {name}` help has no Example block"
    assert f"cuagym {name}" in README, f"`cuagym {name}` is not in the README"


def test_readme_has_the_two_commands():
    assert "make demo" in README and "make test" in README


@pytest.mark.parametrize("spec", load_deployment_specs(), ids=lambda s: s["name"])
def test_deployment_entrypoints_and_parameters(spec):
    flow = resolve_entrypoint(spec["entrypoint"])
    model = typing.get_type_hints(flow.fn)["params"]
    assert model.model_config.get("extra") == "forbid", "a typo in prefect.yaml must fail validation"
    model.model_validate(spec["parameters"]["params"])


def test_every_skill_has_skill_md_and_a_valid_taxonomy():
    apps = [
        p
        for p in (PROJECT_ROOT / "skills").iterdir()
        if p.is_dir() and not p.name.startswith(("_", ".")) and p.name != "kit"
    ]
    assert len(apps) >= 5
    for app in apps:
        assert (app / "SKILL.md").is_file(), f"{app.name} lacks SKILL.md"
        assert len(load_taxonomy((app / "taxonomy.yaml").resolve()).leaves) >= 10
