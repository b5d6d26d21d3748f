"""The quality flow's unit of work: one family over its seeds (tasks/quality/sweep.py per seed, and a
GUI teacher episode on the first `teacher_seeds` of them), each seed's row written to the warehouse
as it finishes. Also what the run stands on: the families it covers and the envs it checks them in."""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from infra.envs.desktop import DesktopProvider
from infra.envs.local import WEB_APPS, HubRoute, LocalProvider
from infra.errors import ConfigError, CuagymError
from infra.hub.process import HubProcess
from infra.settings import Settings
from skills.kit import Family
from tasks.models import FamilyQuality, QualityParams, SeedQuality
from tasks.quality.sweep import SCRIPT_LIMITS, check_instance
from tasks.quality.teachers import teach_instance
from tasks.rollout.desktops import rollout_provider
from warehouse.store import Warehouse


@dataclass
class QualityContext:
    """What every family's check shares: the sandbox and desktop providers (one hub behind both),
    the warehouse and the run's id; `on_seed` hears of every finished seed (progress)."""

    run_id: str
    warehouse: Warehouse
    provider: LocalProvider
    desktops: DesktopProvider | None
    hub: HubProcess | None = None
    on_seed: Callable[[SeedQuality], None] | None = None

    def close(self) -> None:
        if self.hub is not None:
            self.hub.stop()


def quality_run_id() -> str:
    """A run per invocation: the flow checks the tree as it is now, so nothing is resumed."""
    return "quality-" + datetime.now(UTC).strftime("%Y%m%dT%H%M%S%f")


def select_quality_families(families: dict[str, Family], params: QualityParams) -> list[Family]:
    """The families named (all when none), narrowed to those touching `params.apps`."""
    unknown = sorted(set(params.families) - set(families))
    if unknown:
        raise ConfigError(
            f"unknown family id(s) {unknown}", hint="list them with `cuagym sql` or skills/*/families/"
        )
    chosen = [families[f] for f in sorted(params.families or families)]
    if params.apps:
        chosen = [f for f in chosen if set(f.apps) & set(params.apps)]
    if not chosen:
        raise ConfigError(
            f"no family touches {params.apps} among those named", hint="drop --app or name other families"
        )
    return chosen


def build_context(
    params: QualityParams, settings: Settings, families: list[Family], run_id: str, warehouse: Warehouse
) -> QualityContext:
    """A hub when any family touches a web app; desktops only when teachers run."""
    hub = None
    if any(app in WEB_APPS for family in families for app in family.apps):
        socket_dir = Path(tempfile.mkdtemp(prefix="cuagym-hub-"))  # unix socket paths: <= 108 bytes
        hub = HubProcess(settings.var_dir / "hub" / run_id, socket_dir / "hub.sock").start()
    try:
        route = HubRoute(hub.uds, WEB_APPS) if hub else None
        provider = LocalProvider(settings.work_dir, settings.guest_venv_path, limits=SCRIPT_LIMITS, hub=route)
        taught = params.teacher_seeds and any(f.teacher is not None for f in families)
        desktops = rollout_provider(settings, hub) if taught else None
    except BaseException:
        if hub is not None:  # nothing else would stop it: the run never got its context
            hub.stop()
        raise
    return QualityContext(run_id, warehouse, provider, desktops, hub)


def check_family(family: Family, params: QualityParams, ctx: QualityContext) -> FamilyQuality:
    """Every seed of `family`, in order; a seed's row is in the warehouse before the next starts."""
    result = FamilyQuality(family=family.id, app=family.apps[0])
    for index, seed in enumerate(range(params.seed_base, params.seed_base + params.seeds)):
        row = check_instance(family, seed, ctx.provider)
        if index < params.teacher_seeds and family.teacher is not None and ctx.desktops is not None:
            _teach(row, family, seed, ctx.desktops)
        ctx.warehouse.save_quality(ctx.run_id, row.model_dump(mode="json"))
        result.seeds.append(row)
        result.seconds += row.mutation_s + (row.teacher_s or 0.0)
        if ctx.on_seed:
            ctx.on_seed(row)
    result.seconds = round(result.seconds, 3)
    return result


def _teach(row: SeedQuality, family: Family, seed: int, desktops: DesktopProvider) -> None:
    row.teacher_ran = True
    try:
        row.teacher_passed, row.teacher_error, row.teacher_s = teach_instance(family, seed, desktops)
    except CuagymError as exc:  # a desktop that would not start or set up: the run is a failed one
        row.teacher_passed, row.teacher_error = False, f"{type(exc).__name__}: {exc.message}"
