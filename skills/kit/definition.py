"""A family's declarative half: `skills/<app>/families/<name>.yaml`, validated by FamilyDefinition.

The YAML holds everything about a family that is data — who it is (id, apps, difficulty, taxonomy
leaves, domains, scenarios), the pools its instances are drawn from, the near misses its solver can
make, and the text: five instruction wordings and the context, as jinja2 templates over the
instance's params. Its Python sibling `<name>.py` holds only code: `draw` and the guest functions.

Example (skills/calc/families/padded_ids.yaml, abridged):

    id: calc.padded_ids
    title: Pad numeric IDs with a TEXT formula in B2 and fill it down
    apps: [calc]
    difficulty: medium
    leaves: [calc/formulas/text_functions/pad_with_text, calc/editing/fill/fill_down]
    domains: [office_admin, science]
    mistakes:
      absolute_refs: the formula is right in B2 but filled down with an absolute reference
    words:
      last: "{{ ids | length + 1 }}"
    templates:
      imperative: In ~/{{ path }}, fill column B ... down to B{{ last }} ...
      ...
    context: ~/{{ path }} has sheet {{ sheet | repr }} ...
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import jinja2
import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from infra.contracts.task import Difficulty, Domain, Platform, Scenario, Wording
from infra.errors import ConfigError
from skills.kit.text import TEXT_ENV

_ID = r"^[a-z]+\.[a-z0-9_]+$"
_NAME = r"^[a-z][a-z0-9_]*$"


class FamilyDefinition(BaseModel):
    """What a family is, as data. Every field is checked when the catalogue loads."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str = Field(pattern=_ID, description='"<primary app>.<name>", unique; <name> is the file stem')
    title: str = Field(min_length=8, description="one line: what the task asks, for people browsing families")
    apps: tuple[str, ...] = Field(
        min_length=1, description="apps the task touches; the first is the primary app"
    )
    platform: Platform = Platform.DESKTOP
    difficulty: Difficulty
    leaves: tuple[str, ...] = Field(
        min_length=1, description="taxonomy leaves exercised; the first is the task's"
    )
    domains: tuple[Domain, ...] = Field(min_length=1)
    scenarios: tuple[Scenario, ...] = (Scenario.COMMERCIAL,)
    mistakes: dict[str, str] = Field(
        min_length=1, description="near misses `solve(P, mistake=…)` can make: name -> what it gets wrong"
    )
    pools: dict[str, Any] = Field(default_factory=dict, description="data `draw(rng, pools)` draws from")
    words: dict[str, str] = Field(
        default_factory=dict, description="derived strings (templates over params) the text below may use"
    )
    templates: dict[Wording, str] = Field(description="one instruction template per wording style")
    context: str = Field(min_length=20, description="what pins the world, for both agents and reviewers")

    @field_validator("mistakes")
    @classmethod
    def _mistake_names(cls, mistakes: dict[str, str]) -> dict[str, str]:
        bad = [name for name in mistakes if not re.match(_NAME, name)]
        if bad:
            raise ValueError(f"mistake names must be snake_case identifiers: {bad}")
        return mistakes

    @field_validator("templates")
    @classmethod
    def _every_wording(cls, templates: dict[Wording, str]) -> dict[Wording, str]:
        if missing := sorted(set(Wording) - set(templates)):
            raise ValueError(f"every wording style needs a template; missing: {[w.value for w in missing]}")
        return templates

    @model_validator(mode="after")
    def _consistent(self) -> FamilyDefinition:
        app = self.id.split(".")[0]
        if app != self.apps[0]:
            raise ValueError(f"id {self.id!r} must start with its primary app {self.apps[0]!r}")
        if self.leaves[0].split("/")[0] != self.apps[0]:
            raise ValueError(f"the first leaf {self.leaves[0]!r} is not in the primary app {self.apps[0]!r}")
        if clash := set(self.words) & {"persona"}:
            raise ValueError(f"words may not redefine {sorted(clash)}")
        return self

    @property
    def name(self) -> str:
        return self.id.split(".", 1)[1]


class CompiledText:
    """The definition's jinja2 templates, compiled once (a syntax error fails the load)."""

    def __init__(self, definition: FamilyDefinition, path: Path) -> None:
        def compile_(field: str, source: str) -> jinja2.Template:
            try:
                return TEXT_ENV.from_string(source)
            except jinja2.TemplateSyntaxError as exc:
                raise ConfigError(
                    f"{path}: {field}: {exc.message} (line {exc.lineno})",
                    hint="templates are jinja2: {{ name }}, {{ items | and_list }}",
                ) from None

        self.path = path
        self.words = {k: compile_(f"words.{k}", v) for k, v in definition.words.items()}
        self.templates = {w: compile_(f"templates.{w.value}", v) for w, v in definition.templates.items()}
        self.context = compile_("context", definition.context)

    def render_words(self, params: dict[str, Any]) -> dict[str, str]:
        words: dict[str, str] = {}
        for key, template in self.words.items():
            words[key] = self._render(f"words.{key}", template, {**params, **words})
        return words

    def instruction(
        self, wording: Wording, params: dict[str, Any], words: dict[str, str], persona: str
    ) -> str:
        text = self._render(
            f"templates.{wording.value}", self.templates[wording], {**params, **words, "persona": persona}
        )
        return " ".join(text.split())

    def render_context(self, params: dict[str, Any], words: dict[str, str]) -> str:
        return " ".join(self._render("context", self.context, {**params, **words}).split())

    def _render(self, field: str, template: jinja2.Template, values: dict[str, Any]) -> str:
        try:
            return template.render(values)
        except jinja2.UndefinedError as exc:
            raise ConfigError(
                f"{self.path}: {field}: {exc.message}",
                hint="name only params that draw() returns, words, or persona",
            ) from None


def load_definition(path: Path) -> FamilyDefinition:
    """Parse and validate one family YAML; errors name the file and the field."""
    try:
        raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    except yaml.YAMLError as exc:
        raise ConfigError(
            f"{path} is not valid YAML: {exc}", hint="check the indentation and quoting"
        ) from None
    if not isinstance(raw, dict):
        raise ConfigError(f"{path} must hold a mapping of fields", hint="see skills/kit/definition.py")
    try:
        definition = FamilyDefinition.model_validate(raw)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(part) for part in first["loc"]) or "(top level)"
        raise ConfigError(
            f"{path}: {where}: {first['msg']}",
            hint="see FamilyDefinition in skills/kit/definition.py for every field",
        ) from None
    if definition.name != path.stem:
        raise ConfigError(
            f"{path}: id {definition.id!r} does not match the file name",
            hint=f"name the file {definition.name}.yaml or change the id",
        )
    return definition
