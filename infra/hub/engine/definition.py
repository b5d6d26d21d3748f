"""What a web app *is* to the engine: a definition (data), validated here.

A definition names the app's entities and their typed fields, the relations between them (`ref`
fields), the views built from layout archetypes (a table with a detail pane, a kanban board, a
calendar, an inbox, …), the actions a user can take on a record and their effects on state, and
the seeded world. The hub serves any valid definition through its one state API
(`infra/hub/engine/mock.py`); the browser renders it with the engine's UI
(`infra/hub/static/engine/`). Nothing here is app-specific.

Example (a definition in YAML, `infra/hub/apps/<name>/definition.yaml`):

    name: deskly
    title: Deskly Support
    people: agents            # the entity whose records are users (`current_user`, `$me`)
    entities:
      agents: {label: Agent, title: name, fields: {name: {type: text, required: true}}}
      tickets:
        label: Ticket
        title: subject
        fields:
          subject: {type: text, required: true}
          status: {type: enum, options: [open, pending, solved]}
          assignee: {type: ref, to: agents, optional: true}
    views:
      - {id: queue, label: Queue, archetype: table, entity: tickets, columns: [subject, status, assignee]}
    actions:
      - {id: take, label: Assign to me, entity: tickets, set: {assignee: $me}}
    seed: {current_user: a01, records: {agents: {a01: {name: Ana}}}}
"""

from __future__ import annotations

import re
from enum import StrEnum
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from infra.errors import ConfigError

NAME = r"^[a-z][a-z0-9_]*$"
DEFINITION = "definition.yaml"
# Values an action or a composer may write besides literals: the signed-in user, the record acted on,
# the seed's clock (the apps show a fixed "now", so every run and screenshot looks alike), the
# value the user typed into the action's prompt.
TOKENS = ("$me", "$record", "$now", "$today", "$input")


class _Closed(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class FieldType(StrEnum):
    TEXT = "text"
    LONGTEXT = "longtext"
    ENUM = "enum"
    REF = "ref"  # the id of a record of `to`
    REFS = "refs"  # a list of ids of records of `to`
    DATE = "date"  # YYYY-MM-DD
    DATETIME = "datetime"  # YYYY-MM-DDTHH:MM:SSZ
    NUMBER = "number"
    MONEY = "money"  # a number shown with the app's currency, kept to cents
    BOOL = "bool"
    EMAIL = "email"
    URL = "url"
    TAGS = "tags"  # a list of short strings
    COLOR = "color"  # #rrggbb


class FieldDef(_Closed):
    type: FieldType
    label: str | None = Field(None, description="shown name (default: the key, capitalised)")
    required: bool = False
    optional: bool = Field(False, description="a ref that may be null")
    options: tuple[str, ...] = Field((), description="an enum's values, in display order")
    to: str | None = Field(None, description="the entity a ref/refs points to")
    default: Any = None
    readonly: bool = Field(False, description="shown, never edited in the UI (stamps, computed ids)")
    min: float | None = None
    max: float | None = None

    @model_validator(mode="after")
    def _consistent(self) -> FieldDef:
        if self.type is FieldType.ENUM and not self.options:
            raise ValueError("an enum field needs its options")
        if self.type in (FieldType.REF, FieldType.REFS) and not self.to:
            raise ValueError(f"a {self.type} field needs `to`: the entity it points to")
        if self.options and self.type is not FieldType.ENUM:
            raise ValueError("only an enum field has options")
        if self.default is not None and self.options and self.default not in self.options:
            raise ValueError(f"default {self.default!r} is not one of the options")
        return self

    def shown(self, key: str) -> str:
        return self.label or key.replace("_", " ").capitalize()


class EntityDef(_Closed):
    label: str = Field(min_length=1, description="one record, e.g. 'Ticket'")
    plural: str | None = Field(None, description="many records (default: label + 's')")
    title: str = Field(description="the field that names a record in lists and headings")
    id_prefix: str = Field("", pattern=r"^[A-Za-z]{0,4}[-_]?$", description="ids are prefix + digits")
    fields: dict[str, FieldDef] = Field(min_length=1)
    creatable: bool = Field(True, description="a 'New <label>' button creates records")
    deletable: bool = Field(False, description="a record's detail has a 'Delete <label>' button")
    icon: str = "file"

    @model_validator(mode="after")
    def _title_is_a_field(self) -> EntityDef:
        if self.title not in self.fields:
            raise ValueError(f"title {self.title!r} is not one of the fields {sorted(self.fields)}")
        if bad := [k for k in self.fields if not re.match(NAME, k)]:
            raise ValueError(f"field names are lower_snake_case: {bad}")
        return self

    @property
    def many(self) -> str:
        return self.plural or f"{self.label}s"


class Archetype(StrEnum):
    """Layouts the engine's UI can draw; each is one module under static/engine/views/."""

    TABLE = "table"  # issue list + detail: a filterable table, the record in a side pane
    KANBAN = "kanban"  # a board of columns by an enum field; cards move between them
    PIPELINE = "pipeline"  # a kanban of deals with each stage's total (`total` field)
    CALENDAR = "calendar"  # month grid of records by a date field
    INBOX = "inbox"  # a message list and a reader pane
    THREAD = "thread"  # channels (a parent entity) and their messages
    DOCS = "docs"  # a page tree and a document editor
    GRID = "grid"  # a spreadsheet-like grid, every cell editable in place
    STOREFRONT = "storefront"  # product cards, a cart and a checkout
    DASHBOARD = "dashboard"  # KPI tiles and bar charts over records
    FORM = "form"  # fill in and sign a form (e-signature)
    DRIVE = "drive"  # folders and files
    FEED = "feed"  # a social feed of posts with likes and comments
    CODE = "code"  # repositories, pull requests and their diffs
    LEDGER = "ledger"  # transactions with a running balance per account


class Related(_Closed):
    """Records of `entity` whose `via` field points at the open record, listed in its detail; with
    `compose`, a box there adds one (`compose` is the text field typed into, `set` the rest)."""

    entity: str
    via: str
    label: str | None = None
    compose: str | None = None
    set: dict[str, Any] = Field(default_factory=dict)


class ViewDef(_Closed):
    id: str = Field(pattern=NAME)
    label: str = Field(min_length=1)
    archetype: Archetype
    entity: str
    icon: str = "list"
    columns: tuple[str, ...] = Field((), description="fields shown in a list, table or card")
    filters: tuple[str, ...] = Field((), description="enum/ref fields with a filter select")
    group: str | None = Field(None, description="kanban/pipeline: the enum field of the columns")
    date: str | None = Field(None, description="calendar: the date field records are placed by")
    total: str | None = Field(None, description="pipeline/ledger/dashboard: the number or money field summed")
    parent: str | None = Field(
        None, description="thread/drive/docs/code: the field holding the parent record"
    )
    related: tuple[Related, ...] = ()
    sort: str | None = Field(None, description="field to sort by; '-field' sorts descending")
    options: dict[str, Any] = Field(default_factory=dict, description="archetype-specific settings")


class ActionDef(_Closed):
    """A button on a record: shown when every `when` field holds one of its values; its effect sets
    fields (`set`), adds a record of another entity (`create`), or deletes the record (`delete`)."""

    id: str = Field(pattern=NAME)
    label: str = Field(min_length=1)
    entity: str
    when: dict[str, tuple[Any, ...]] = Field(default_factory=dict)
    set: dict[str, Any] = Field(default_factory=dict)
    inc: dict[str, float] = Field(default_factory=dict, description="number fields increased by")
    create: dict[str, Any] | None = Field(None, description="{entity: E, fields: {...}}")
    delete: bool = False
    prompt: str | None = Field(None, description="asks for one value first; effects use it as $input")
    confirm: str | None = Field(None, description="asks this yes/no question first")

    @model_validator(mode="after")
    def _has_effect(self) -> ActionDef:
        if not (self.set or self.inc or self.create or self.delete):
            raise ValueError(f"action {self.id!r} has no effect (set, inc, create or delete)")
        if "$input" in str(self.set) + str(self.create) and not self.prompt:
            raise ValueError(f"action {self.id!r} uses $input without a prompt")
        return self


class Theme(_Closed):
    """How the app looks, so two apps on one archetype still differ on screen."""

    accent: str = Field("#3b5bdb", pattern=r"^#[0-9a-fA-F]{6}$")
    nav: Literal["side", "top"] = "side"
    dark_nav: bool = False
    density: Literal["compact", "comfortable"] = "comfortable"
    font: Literal["sans", "serif", "mono", "rounded"] = "sans"
    logo: str = Field("box", description="an icon name of static/dom.js")


class SeedDef(_Closed):
    """The seeded world: `records` as written, then `generate` more per entity from `pools`
    (infra/hub/engine/seed.py; deterministic). `now` is the app's clock."""

    current_user: str
    now: str = Field("2024-06-14T10:00:00Z", pattern=r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$")
    records: dict[str, dict[str, dict[str, Any]]] = Field(default_factory=dict)
    generate: dict[str, int] = Field(default_factory=dict)
    pools: dict[str, dict[str, tuple[Any, ...]]] = Field(
        default_factory=dict, description="entity -> field -> values the generator draws from"
    )


class AppDefinition(_Closed):
    name: str = Field(pattern=NAME)
    title: str = Field(min_length=1, description="the page's title: the browser window's title ends with it")
    brand: str = Field(min_length=1, description="the name in the app's top bar")
    category: str = Field(min_length=1, description="the real product category it models")
    description: str = Field(min_length=1)
    currency: str = Field("USD", pattern=r"^[A-Z]{3}$")
    theme: Theme = Theme()
    people: str = Field(description="the entity whose records are the app's users")
    entities: dict[str, EntityDef] = Field(min_length=1)
    views: tuple[ViewDef, ...] = Field(min_length=1)
    actions: tuple[ActionDef, ...] = ()
    seed: SeedDef
    volatile: tuple[str, ...] = Field(("ui",), description="state paths left out of /go's diff")

    @model_validator(mode="after")
    def _references_resolve(self) -> AppDefinition:
        problems = list(self._problems())
        if problems:
            raise ValueError("; ".join(problems))
        return self

    def _problems(self):
        entities = self.entities
        if self.people not in entities:
            yield f"people {self.people!r} is not an entity"
        reserved = {"current_user", "ui"}
        if bad := sorted(reserved & set(entities)):
            yield f"entity names {bad} are reserved state keys"
        for name, entity in entities.items():
            if not re.match(NAME, name):
                yield f"entity name {name!r} is not lower_snake_case"
            for key, f in entity.fields.items():
                if f.to is not None and f.to not in entities:
                    yield f"{name}.{key} points to unknown entity {f.to!r}"
        ids = [v.id for v in self.views]
        if len(set(ids)) != len(ids):
            yield f"view ids repeat: {ids}"
        for view in self.views:
            yield from _view_problems(view, entities)
        for action in self.actions:
            yield from _action_problems(action, entities)
        for entity in self.seed.records:
            if entity not in entities:
                yield f"seed records of unknown entity {entity!r}"
        for entity in {**self.seed.generate, **self.seed.pools}:
            if entity not in entities:
                yield f"seed generates unknown entity {entity!r}"
        if self.seed.current_user not in self.seed.records.get(self.people, {}):
            yield f"seed.current_user {self.seed.current_user!r} is not a seeded {self.people} record"

    def field(self, entity: str, key: str) -> FieldDef:
        return self.entities[entity].fields[key]


def _view_problems(view: ViewDef, entities: dict[str, EntityDef]):
    entity = entities.get(view.entity)
    if entity is None:
        yield f"view {view.id!r}: unknown entity {view.entity!r}"
        return
    named = [*view.columns, *view.filters]
    named += [f for f in (view.group, view.date, view.total, view.parent) if f]
    named += [s.lstrip("-") for s in [view.sort] if s]
    for key in named:
        if key not in entity.fields:
            yield f"view {view.id!r}: {view.entity} has no field {key!r}"
    grouped = view.group and entity.fields.get(view.group, FieldDef(type="text")).type is FieldType.ENUM
    if view.archetype in (Archetype.KANBAN, Archetype.PIPELINE) and not grouped:
        yield f"view {view.id!r}: a {view.archetype} needs `group`, an enum field"
    if view.archetype is Archetype.CALENDAR and not view.date:
        yield f"view {view.id!r}: a calendar needs `date`"
    if view.archetype is Archetype.LEDGER:
        account = entity.fields.get(str(view.options.get("account")))
        if account is None or account.type is not FieldType.REF or not view.total:
            yield f"view {view.id!r}: a ledger needs options.account (a ref field) and `total`"
    for related in view.related:
        other = entities.get(related.entity)
        if other is None or related.via not in other.fields:
            yield f"view {view.id!r}: related {related.entity}.{related.via} does not exist"
        elif related.compose and related.compose not in other.fields:
            yield f"view {view.id!r}: related {related.entity} has no field {related.compose!r}"


def _action_problems(action: ActionDef, entities: dict[str, EntityDef]):
    entity = entities.get(action.entity)
    if entity is None:
        yield f"action {action.id!r}: unknown entity {action.entity!r}"
        return
    for key in [*action.when, *action.set, *action.inc]:
        if key not in entity.fields:
            yield f"action {action.id!r}: {action.entity} has no field {key!r}"
    if action.create is not None:
        target = entities.get(action.create.get("entity", ""))
        if target is None:
            yield f"action {action.id!r}: create needs an existing `entity`"
        else:
            for key in action.create.get("fields", {}):
                if key not in target.fields:
                    yield f"action {action.id!r}: {action.create['entity']} has no field {key!r}"


class DefinitionError(ConfigError):
    """A definition that does not validate; the message names every problem found."""


def parse_definition(data: Any, *, source: str = "definition") -> AppDefinition:
    try:
        return AppDefinition.model_validate(data)
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in err['loc']) or '<root>'}: {err['msg']}" for err in exc.errors()[:8]
        )
        raise DefinitionError(
            f"{source} is not a valid app definition: {problems}",
            hint="see docs/hub.md 'The app engine' for the definition's fields",
        ) from None


def load_definition(path: Path) -> AppDefinition:
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise DefinitionError(f"cannot read {path}: {exc}") from None
    return parse_definition(data, source=str(path))
