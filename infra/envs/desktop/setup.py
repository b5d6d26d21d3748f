"""Set a desktop up from a vanilla OSWorld task config (a bundle's config.json), as OSWorld would.

The config's setup steps are a closed schema: a discriminated union on `type` over the vanilla step
types a desktop here can run. An unknown type, or an unknown parameter, fails when the config is
loaded (the error lists the valid types), never half-way through a live setup. Every step either
succeeds or raises `DesktopSetupError` naming the step — an `execute` whose command exits non-zero
is a failure here (OSWorld's controller logs it and goes on).
"""

from __future__ import annotations

import json
import time
from pathlib import Path, PurePosixPath
from typing import Annotated, Literal

import httpx
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from infra import apps
from infra.envs.desktop.client import DesktopClient
from infra.errors import ConfigError, DesktopError

# The documents each OSWorld app name opens (`related_apps` in config.json), from skills/*/app.yaml.
APP_SUFFIXES = apps.suffixes_by_osworld_name()
MAX_DOCUMENTS = 4
# OSWorld app names whose tasks start from a terminal at the home when no document opens: the apps
# declared `opens: {by: terminal}` (files -> "os", vscode: its JSON files are edited in a terminal
# editor here, Debian ships no VS Code), and the names vanilla OSWorld configs use that no cuagym app
# exports ("terminal", the "vs_code" domain). The window is xterm, maximised like every app window.
TERMINAL_APPS = apps.terminal_osworld_names() | {"terminal", "vs_code"}
TERMINAL_TITLE = "Terminal"
TERMINAL_COMMAND = ("xterm", "-title", TERMINAL_TITLE, "-fa", "DejaVu Sans Mono", "-fs", "14")
TERMINAL_PATIENCE_S = 0.5  # xterm paints when it is mapped: a screen still this long has painted


class DesktopSetupError(DesktopError):
    """A setup step of a task config failed on the desktop."""


class _Params(BaseModel):
    model_config = ConfigDict(extra="forbid")


class UploadItem(_Params):
    local_path: str
    path: str


class DownloadItem(_Params):
    url: str
    path: str


class _UploadParams(_Params):
    files: list[UploadItem]


class UploadFileStep(_Params):
    type: Literal["upload_file"]
    parameters: _UploadParams


class _DownloadParams(_Params):
    files: list[DownloadItem]


class DownloadStep(_Params):
    type: Literal["download"]
    parameters: _DownloadParams


class _CommandParams(_Params):
    command: list[str] | str
    shell: bool = False


class ExecuteStep(_Params):
    type: Literal["execute", "command"]
    parameters: _CommandParams


class LaunchStep(_Params):
    type: Literal["launch"]
    parameters: _CommandParams


class _OpenParams(_Params):
    path: str


class OpenStep(_Params):
    type: Literal["open"]
    parameters: _OpenParams


class _SleepParams(_Params):
    seconds: float = Field(ge=0, le=600)


class SleepStep(_Params):
    type: Literal["sleep"]
    parameters: _SleepParams


class _WindowParams(_Params):
    window_name: str
    strict: bool = False
    by_class: bool = False


class WindowStep(_Params):
    type: Literal["activate_window", "close_window"]
    parameters: _WindowParams


SetupStep = Annotated[
    UploadFileStep | DownloadStep | ExecuteStep | LaunchStep | OpenStep | SleepStep | WindowStep,
    Field(discriminator="type"),
]


class OsworldEvaluator(BaseModel):
    """The part of a config's evaluator a desktop acts on: the steps run before the getters read the
    state (the metric, the getters and the rules are OSWorld's, not ours)."""

    model_config = ConfigDict(extra="ignore")
    postconfig: list[SetupStep] = []


class OsworldTask(BaseModel):
    """The parts of an OSWorld task config a desktop acts on; other keys are kept by OSWorld, not us."""

    model_config = ConfigDict(extra="ignore")
    id: str
    instruction: str = ""
    config: list[SetupStep] = []
    related_apps: list[str] = []
    evaluator: OsworldEvaluator = OsworldEvaluator()


def load_task(path: Path) -> OsworldTask:
    """Parse a config.json; ConfigError with pydantic's explanation when a step is unknown or malformed."""
    try:
        return OsworldTask.model_validate(json.loads(path.read_text(encoding="utf-8")))
    except (OSError, ValueError) as exc:
        detail = str(exc) if not isinstance(exc, ValidationError) else exc.errors(include_url=False)
        raise ConfigError(
            f"{path} is not a task config a desktop can run: {detail}",
            hint="setup steps must be vanilla OSWorld types: upload_file, download, execute, "
            "command, launch, open, sleep, activate_window, close_window",
        ) from None


def run_setup(
    client: DesktopClient, task: OsworldTask, base_dir: Path, *, step_timeout_s: float = 300.0
) -> None:
    """Run every setup step in order; `upload_file` local paths are relative to `base_dir`."""
    for number, step in enumerate(task.config, start=1):
        try:
            _run_step(client, step, base_dir, step_timeout_s)
        except DesktopSetupError:
            raise
        except (DesktopError, OSError, httpx.HTTPError) as exc:
            raise DesktopSetupError(
                f"setup step {number} ({step.type}) of task {task.id} failed: {exc}",
                hint="re-run the step by hand in `cuagym desktop serve` to see why",
            ) from None


def run_postconfig(
    client: DesktopClient, task: OsworldTask, base_dir: Path, *, step_timeout_s: float = 60.0
) -> None:
    """Run the evaluator's postconfig steps but its uploads (of reward.py, which the runner runs as a
    script of its own): what OSWorld does before its getters read the state, such as asking an app
    that keeps its preferences in memory to exit."""
    steps = [step for step in task.evaluator.postconfig if step.type != "upload_file"]
    run_setup(client, task.model_copy(update={"config": steps}), base_dir, step_timeout_s=step_timeout_s)


def _run_step(client: DesktopClient, step: SetupStep, base_dir: Path, timeout_s: float) -> None:
    match step:
        case UploadFileStep(parameters=params):
            for item in params.files:
                client.upload(item.path, (base_dir / item.local_path).read_bytes())
        case DownloadStep(parameters=params):
            for (
                item
            ) in params.files:  # fetched by the host, as OSWorld's controller does: the guest has no network
                response = httpx.get(item.url, timeout=60, follow_redirects=True)
                response.raise_for_status()
                client.upload(item.path, response.content)
        case ExecuteStep(parameters=params):
            result = client.execute(params.command, shell=params.shell, timeout_s=timeout_s)
            if result.returncode != 0:
                raise DesktopSetupError(
                    f"{params.command!r} exited with {result.returncode}: {(result.error or result.output)[-1500:]}",
                    hint="the task's setup script fails on this desktop; run it with `cuagym env run` to debug",
                )
        case LaunchStep(parameters=params):
            client.launch(params.command, shell=params.shell)
        case OpenStep(parameters=params):
            client.open_file(params.path, timeout_s=timeout_s)
        case SleepStep(parameters=params):
            time.sleep(params.seconds)
        case WindowStep(type="activate_window", parameters=params):
            client.activate_window(params.window_name, strict=params.strict, by_class=params.by_class)
        case WindowStep(parameters=params):
            client.close_window(params.window_name, strict=params.strict, by_class=params.by_class)


def task_documents(home: Path, related_apps: list[str]) -> list[str]:
    """Guest paths of the documents a task's apps would open: files under the home (hidden folders
    skipped) whose type belongs to one of `related_apps`, those on the Desktop first."""
    suffixes = {s for app in related_apps for s in APP_SUFFIXES.get(app, ())}
    if not suffixes:
        return []
    found = []
    for path in home.rglob("*"):
        rel = path.relative_to(home)
        if any(part.startswith((".", "~")) for part in rel.parts) or not path.is_file() or path.is_symlink():
            continue
        if path.suffix.lower() in suffixes:
            found.append(rel)
    found.sort(key=lambda rel: (rel.parts[0] != "Desktop", len(rel.parts), str(rel)))
    return [str(PurePosixPath("/home/user") / rel.as_posix()) for rel in found[:MAX_DOCUMENTS]]


def task_terminal(related_apps: list[str]) -> bool:
    """Whether a task's apps are worked from a terminal (see TERMINAL_APPS)."""
    return not TERMINAL_APPS.isdisjoint(related_apps)
