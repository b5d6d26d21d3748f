"""Every app cuagym knows, declared once: `skills/<app>/app.yaml`, read here as data.

A declaration holds what each layer needs to know about an app — its kind (desktop or web), its
window title, its OSWorld name (config.json's `snapshot` / `related_apps`), the document suffixes it
opens and how a desktop shows it (its documents, a terminal, or a browser route) — and every list of
apps in the tree is derived from it: the hub's apps, the envs' web apps, the browser's titles, the
export's OSWorld names, the desktop's document suffixes, the synth/retry app enum. An app nobody
declared is an `UnknownAppError` naming the known apps, never a default.

Why the files live in skills/ and the model here: skills/<app>/ is where an app is added (SKILL.md,
taxonomy, families), so its declaration sits beside them; infra is the lowest layer every other one
may import (DESIGN.md §1), and reading YAML files is not an import, so infra stays free of skills/.
The folder is the checkout's skills/ (`CUAGYM_APPS_DIR` moves it), not `CUAGYM_SKILLS_DIR`: a
families-only skills folder (tests, a user's own families) still runs the declared apps.

Example:

    from infra import apps
    apps.web_apps()                # ('chat', 'mail', 'store', 'tracker')
    apps.osworld_name("calc")      # 'libreoffice_calc'
    apps.osworld_name("paint")     # UnknownAppError: unknown app 'paint' (hint: known apps: calc, …)
"""

from __future__ import annotations

import os
from enum import StrEnum
from functools import lru_cache
from pathlib import Path
from typing import Annotated, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from infra.errors import ConfigError
from infra.settings import PROJECT_ROOT

DECLARATION = "app.yaml"
BROWSER_OSWORLD_NAME = "chrome"  # OSWorld's name for the browser every web app is shown in


class UnknownAppError(ConfigError):
    """An app name that no skills/<app>/app.yaml declares."""


class AppKind(StrEnum):
    DESKTOP = "desktop"  # a program on the desktop (LibreOffice, a terminal)
    WEB = "web"  # a mock web app of the hub, shown in Chromium


class _Closed(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class OpenDocuments(_Closed):
    """The desktop opens the task's documents (files with the app's suffixes) in their app: LibreOffice
    through the guest server's open_file, or `command` with the document's path appended."""

    by: Literal["document"]
    command: tuple[str, ...] = Field(
        (), description="argv a document's path is appended to (empty: LibreOffice, as OSWorld's open)"
    )


class OpenTerminal(_Closed):
    """Nothing to open: the task is worked from a terminal at the home (files, VS Code settings)."""

    by: Literal["terminal"]


class OpenProgram(_Closed):
    """The app is a program the task's config.json launches once its setup has run (a vanilla OSWorld
    `launch` step), with its profile in the env's home; the desktop waits for its window."""

    by: Literal["program"]
    command: tuple[str, ...] = Field(min_length=1, description="argv, guest paths (profile under /home/user)")
    window: str = Field(min_length=1, description="a part of its main window's title, to wait for")


class OpenBrowser(_Closed):
    """Chromium shows the hub route on the desktop's own session."""

    by: Literal["browser"]
    route: str = Field(pattern=r"^/[a-z0-9_-]+/$", description="the hub path, e.g. /chat/")


Opens = Annotated[OpenDocuments | OpenTerminal | OpenProgram | OpenBrowser, Field(discriminator="by")]


class AppDeclaration(_Closed):
    """One app, as skills/<app>/app.yaml declares it."""

    name: str = Field(pattern=r"^[a-z][a-z0-9_]*$")
    kind: AppKind
    title: str = Field(min_length=1)
    osworld: str = Field(pattern=r"^[a-z][a-z0-9_-]*$", description="OSWorld snapshot/related_apps name")
    suffixes: tuple[str, ...] = ()
    opens: Opens
    host_paths: tuple[str, ...] = Field(
        (), description="read-only host paths the app needs inside a desktop (its /etc config)"
    )
    quit: str | None = Field(
        None,
        pattern=r"^[A-Za-z0-9._-]{1,15}$",
        description="the app's process name: before grading it is asked to exit (SIGTERM) and awaited, "
        "so what it keeps in memory (preferences, profiles) is on disk for reward.py",
    )

    @model_validator(mode="after")
    def _consistent(self) -> AppDeclaration:
        # A web app is a page in the browser: OSWorld must start Chromium, the desktop a browser route.
        web = self.kind is AppKind.WEB
        if web != isinstance(self.opens, OpenBrowser):
            raise ValueError(f"a {self.kind} app cannot open by {self.opens.by}")
        if web and self.osworld != BROWSER_OSWORLD_NAME:
            raise ValueError(f"a web app's OSWorld name is {BROWSER_OSWORLD_NAME!r}, not {self.osworld!r}")
        if isinstance(self.opens, OpenDocuments) and not self.suffixes:
            raise ValueError("an app that opens documents needs their suffixes")
        if bad := [s for s in self.suffixes if not s.startswith(".") or s != s.lower()]:
            raise ValueError(f"suffixes are lower-case and start with '.': {bad}")
        if bad := [p for p in self.host_paths if not p.startswith("/etc/")]:
            raise ValueError(f"host_paths are configuration under /etc: {bad}")
        return self


def apps_dir() -> Path:
    return Path(os.environ.get("CUAGYM_APPS_DIR") or PROJECT_ROOT / "skills")


def registry() -> dict[str, AppDeclaration]:
    """Every declared app by name, sorted by name (read once per folder)."""
    return _load(apps_dir().resolve())


@lru_cache(maxsize=4)
def _load(root: Path) -> dict[str, AppDeclaration]:
    declared = {}
    for path in sorted(root.glob(f"*/{DECLARATION}")):
        app = _read(path)
        if app.name != path.parent.name:
            raise ConfigError(
                f"{path} declares {app.name!r}", hint=f"name it {path.parent.name!r}, as its folder"
            )
        declared[app.name] = app
    # A taxonomy makes a folder an app the sampler draws from; without a declaration it could not run.
    if missing := sorted(
        p.parent.name for p in root.glob("*/taxonomy.yaml") if p.parent.name not in declared
    ):
        raise ConfigError(
            f"skills folder(s) {missing} have a taxonomy but no {DECLARATION}",
            hint=f"declare each app in skills/<app>/{DECLARATION} (CONTRIBUTING.md, 'Add an app')",
        )
    return declared


def _read(path: Path) -> AppDeclaration:
    try:
        return AppDeclaration.model_validate(yaml.safe_load(path.read_text(encoding="utf-8")))
    except (ValidationError, yaml.YAMLError) as exc:
        raise ConfigError(
            f"{path} is not a valid app declaration: {exc}",
            hint="see infra/apps.py (AppDeclaration) and skills/calc/app.yaml for the fields",
        ) from None


def app(name: str) -> AppDeclaration:
    """The declaration of `name`; an undeclared app raises UnknownAppError naming the known ones."""
    declared = registry()
    if name not in declared:
        raise UnknownAppError(
            f"unknown app {name!r}",
            hint=f"known apps: {', '.join(declared)}; declare a new one in skills/<app>/{DECLARATION}",
        )
    return declared[name]


def require(names: list[str] | tuple[str, ...]) -> None:
    """Raise UnknownAppError for the first undeclared name in `names`."""
    for name in names:
        app(name)


def all_apps() -> tuple[str, ...]:
    return tuple(registry())


def web_apps() -> tuple[str, ...]:
    """The hub's apps (each has a package infra/hub/apps/<name>/)."""
    return tuple(n for n, a in registry().items() if a.kind is AppKind.WEB)


def title(name: str) -> str:
    return app(name).title


def osworld_name(name: str) -> str:
    return app(name).osworld


def route(name: str) -> str:
    """The hub path a desktop's browser opens for a web app."""
    opens = app(name).opens
    if not isinstance(opens, OpenBrowser):
        raise UnknownAppError(f"{name!r} is a desktop app, with no browser route", hint="use a web app")
    return opens.route


def suffixes_by_osworld_name() -> dict[str, tuple[str, ...]]:
    """{OSWorld name: document suffixes} of the apps that open documents (the desktop reads config.json,
    which names apps the OSWorld way)."""
    found: dict[str, tuple[str, ...]] = {}
    for declared in registry().values():
        if isinstance(declared.opens, OpenDocuments):
            found[declared.osworld] = tuple(
                dict.fromkeys(found.get(declared.osworld, ()) + declared.suffixes)
            )
    return found


def terminal_osworld_names() -> frozenset[str]:
    """OSWorld names of the apps a desktop shows as a terminal."""
    return frozenset(a.osworld for a in registry().values() if isinstance(a.opens, OpenTerminal))


def program(name: str) -> OpenProgram | None:
    """How a desktop launches `name` when it is a program app (None for the others)."""
    opens = app(name).opens
    return opens if isinstance(opens, OpenProgram) else None


def program_windows() -> dict[tuple[str, ...], str]:
    """{a program app's command: the window title part the desktop waits for}: what a config.json
    `launch` step starts, and how the desktop knows it has come up."""
    return {a.opens.command: a.opens.window for a in registry().values() if isinstance(a.opens, OpenProgram)}


def document_commands() -> dict[str, tuple[str, ...]]:
    """{document suffix: argv opening it} for the apps that open documents with a command of their own
    (LibreOffice's documents go through the guest server's open_file)."""
    found: dict[str, tuple[str, ...]] = {}
    for declared in registry().values():
        if isinstance(declared.opens, OpenDocuments) and declared.opens.command:
            found |= dict.fromkeys(declared.suffixes, declared.opens.command)
    return found


def host_paths() -> tuple[str, ...]:
    """Every declared app's read-only host paths (a desktop may run any app)."""
    return tuple(sorted({p for a in registry().values() for p in a.host_paths}))


def quit_processes(names: list[str] | tuple[str, ...]) -> list[str]:
    """The process names to ask to exit before grading a task of these apps, in app order."""
    return list(dict.fromkeys(q for n in names if (q := app(n).quit)))
