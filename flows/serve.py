"""Serve every deployment of prefect.yaml from one process (`cuagym serve`), so the schedules and
UI-triggered runs work without a work pool. prefect.yaml stays the one place deployments are defined."""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any

import yaml

from infra.errors import ConfigError
from infra.settings import PROJECT_ROOT

PREFECT_YAML = PROJECT_ROOT / "prefect.yaml"


def load_deployment_specs(path: Path = PREFECT_YAML) -> list[dict[str, Any]]:
    data = yaml.safe_load(path.read_text())
    if not isinstance(data, dict) or not data.get("deployments"):
        raise ConfigError(f"{path} defines no deployments", hint="see the `deployments:` list format")
    return data["deployments"]


def resolve_entrypoint(entrypoint: str):
    """`flows/synthesis.py:synthesis_flow` -> the flow object."""
    file, _, name = entrypoint.partition(":")
    module = importlib.import_module(file.removesuffix(".py").replace("/", "."))
    try:
        return getattr(module, name)
    except AttributeError:
        raise ConfigError(
            f"{entrypoint}: {module.__name__} has no {name}", hint="fix the entrypoint"
        ) from None


def build_deployments(path: Path = PREFECT_YAML) -> list:
    deployments = []
    for spec in load_deployment_specs(path):
        flow = resolve_entrypoint(spec["entrypoint"])
        crons = [s["cron"] for s in spec.get("schedules", []) if "cron" in s]
        deployments.append(
            flow.to_deployment(
                name=spec["name"],
                description=spec.get("description"),
                parameters=spec.get("parameters", {}),
                cron=crons or None,
            )
        )
    return deployments


def serve_all() -> None:
    from prefect import serve

    serve(*build_deployments())
