"""Help that cannot drift: every CLI command has help text with an example, a row in the README's
command table and a current section in docs/cli.md (generated from the live command tree); the
README stays a user's page and its links and the docs' resolve; prefect.yaml entrypoints resolve
to flows whose parameter models accept the YAML; every skill has a SKILL.md and a taxonomy that
parses."""

from __future__ import annotations

import functools
import re
import typing

import click
import pytest

from flows import cli_reference
from flows.cli import main
from flows.serve import load_deployment_specs, resolve_entrypoint
from infra.settings import PROJECT_ROOT
from tasks.taxonomy import load_taxonomy

README = (PROJECT_ROOT / "README.md").read_text()
DOCS = PROJECT_ROOT / "docs"
CLI_MD = DOCS / "cli.md"
REGENERATE = "regenerate it: python -m flows.cli_reference > docs/cli.md (or make docs)"
# The rows of the README's command table: `| `cuagym …` | what it does |`.
COMMAND_TABLE = "\n".join(line for line in README.splitlines() if line.startswith("| `cuagym"))


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
    # `cuagym serve` must not pass on the strength of `cuagym server`
    named = re.search(rf"cuagym {re.escape(name)}(?![\w-])", COMMAND_TABLE)
    assert named, f"`cuagym {name}` has no row in the README's command table"


@functools.cache
def _live_sections() -> dict[str, str]:
    """What docs/cli.md should hold now: the live command tree, rendered once per session."""
    return cli_reference.sections()


def _reference_sections() -> dict[str, str]:
    assert CLI_MD.is_file(), f"docs/cli.md is missing; {REGENERATE}"
    return cli_reference.parse(CLI_MD.read_text())


@pytest.mark.parametrize("name", list(_live_sections()))
def test_cli_reference_has_the_current_help_of(name):
    section = _reference_sections().get(name)
    assert section is not None, f"docs/cli.md lacks `{name}`; {REGENERATE}"
    assert section == _live_sections()[name], f"docs/cli.md is stale for `{name}`; {REGENERATE}"


def test_cli_reference_lists_no_removed_command_and_is_whole():
    gone = sorted(set(_reference_sections()) - set(_live_sections()))
    assert not gone, f"docs/cli.md documents commands that no longer exist: {gone}; {REGENERATE}"
    # the header and the index are generated too
    assert CLI_MD.read_text() == cli_reference.render(), f"docs/cli.md is stale; {REGENERATE}"


def test_cli_reference_does_not_depend_on_the_terminal(monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")
    wide = cli_reference.render()
    monkeypatch.setenv("COLUMNS", "37")
    assert cli_reference.render() == wide, "the reference must not wrap to the terminal ($COLUMNS)"


def test_readme_has_the_two_commands():
    assert "make demo" in README and "make test" in README


def test_readme_is_a_users_page():
    # issue 25: reference material lives under docs/; the README is what a new user reads
    lines = len(README.splitlines())
    assert lines <= 250, f"README.md has {lines} lines (at most 250); move reference text to docs/"


def _pages() -> list:
    return [PROJECT_ROOT / "README.md", *sorted(DOCS.glob("*.md"))]


@pytest.mark.parametrize("page", sorted(DOCS.glob("*.md")), ids=lambda p: p.name)
def test_every_doc_says_what_it_is_for(page):
    title, blank, first = page.read_text().splitlines()[:3]
    assert title.startswith("# ") and not blank, f"docs/{page.name} must start with a # title"
    assert first.startswith("What this is for:"), (
        f"docs/{page.name}: the paragraph after the title must say what the page is for"
    )


def _anchors(page) -> set[str]:
    """GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"```.*?```", "", page.read_text(), flags=re.DOTALL)  # `# comment` in code blocks
    headings = re.findall(r"^#+ (.+)$", text, flags=re.MULTILINE)
    return {re.sub(r"[^\w\- ]", "", h.lower()).replace(" ", "-") for h in headings}


@pytest.mark.parametrize("page", _pages(), ids=lambda p: p.name)
def test_links_resolve(page):
    broken = []
    for target in re.findall(r"\]\(([^)\s]+)\)", page.read_text()):
        if re.match(r"[a-z]+://", target):
            continue
        path, _, anchor = target.partition("#")
        linked = (page.parent / path).resolve() if path else page
        if not linked.exists():
            broken.append(f"{target} (no such file)")
        elif anchor and linked.suffix == ".md" and anchor not in _anchors(linked):
            broken.append(f"{target} (no such heading)")
    assert not broken, f"{page.relative_to(PROJECT_ROOT)}: broken links {broken}"


def test_every_headline_figure_is_in_docs_figures():
    summary = README.split("## Measured figures", 1)[1].split("\n## ", 1)[0]
    figures = (DOCS / "figures.md").read_text()
    numbers = set(re.findall(r"\d[\d,.]*\d|\d", summary))
    missing = sorted(n for n in numbers if n not in figures)
    assert not missing, f"README figures missing from docs/figures.md: {missing}"


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
