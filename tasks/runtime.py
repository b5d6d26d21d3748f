"""Build what a synthesis run runs on (env provider, agents, scan, warehouse) from its parameters."""

from __future__ import annotations

import hashlib
import json
import subprocess
import tempfile
from pathlib import Path

from infra.envs.local import WEB_APPS, HubRoute, LocalProvider
from infra.errors import ConfigError
from infra.hub.process import HubProcess
from infra.sandbox import Limits
from infra.settings import PROJECT_ROOT, Settings
from skills.kit import load_families
from tasks.agents.isolation import IsolatedDiscriminator
from tasks.agents.procedural import ProceduralGenerator
from tasks.cogen import CogenDeps
from tasks.llm_roles import (
    LLM_PARAM_FIELDS,
    WarehouseCallSink,
    build_llm_discriminator,
    build_llm_generator,
    check_models,
    needed_roles,
    role_backends,
)
from tasks.models import Provenance, SynthParams
from tasks.mutation import MutationSettings
from tasks.publish import local_output_dir
from tasks.sample import select_families
from tasks.synthesize import TupleContext
from tasks.vote import build_critic
from warehouse.store import Warehouse

SCRIPT_LIMITS = Limits(timeout_s=120.0, memory_mb=2048)


def git_revision() -> str:
    try:
        out = subprocess.run(
            ["git", "-C", str(PROJECT_ROOT), "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            timeout=5,
        )
        return out.stdout.strip() or "unknown"
    except (OSError, subprocess.SubprocessError):
        return "unknown"


def run_id_for(params: SynthParams) -> str:
    """Same parameters (seed resolved), same run id: re-running a run resumes it."""
    defaults = {f for f in LLM_PARAM_FIELDS if getattr(params, f) == SynthParams.model_fields[f].default}
    where = {"workers", "out", "runner", "dask_address"}  # where a run executes is not what it makes
    if not params.families:  # runs from before the option keep their ids
        defaults.add("families")
    key = params.model_dump(mode="json", exclude=where | defaults) | {"seed": params.resolved_seed()}
    return "run-" + hashlib.sha256(json.dumps(key, sort_keys=True).encode()).hexdigest()[:12]


def output_dir(params: SynthParams, settings: Settings) -> Path:
    """Where bundles and the Parquet are written (the staging folder of an s3:// `--out`)."""
    return local_output_dir(params.out, settings.output_dir, settings)


def build_deps(
    params: SynthParams, settings: Settings, call_sink=None, *, hub_dir: Path | None = None
) -> CogenDeps:
    """`call_sink` receives the LLM roles' call records (tasks.llm_roles.WarehouseCallSink); `hub_dir`
    holds the hub's sessions (default var/hub/synth; each Dask worker process has its own)."""
    from tasks.scan import scan_source

    if params.env != "local":
        raise ConfigError(
            f"env provider {params.env!r} is not available for co-generation", hint="use --env local"
        )
    backends = role_backends(params)
    check_models(params, settings)
    hub = start_hub_if_needed(params, settings, hub_dir)
    try:
        provider = LocalProvider(
            settings.work_dir,
            settings.guest_venv_path,
            limits=SCRIPT_LIMITS,
            hub=HubRoute(hub.uds, WEB_APPS) if hub else None,
        )
        generator = (
            ProceduralGenerator(settings.skills_dir)
            if backends["generator"] == "procedural"
            else build_llm_generator(params, settings, provider, call_sink)
        )
        discriminator = (
            IsolatedDiscriminator("procedural", settings)
            if backends["discriminator"] == "procedural"
            else build_llm_discriminator(params, settings, call_sink)
        )
    except BaseException:
        if hub is not None:  # nothing else will stop it: the run never got its deps
            hub.stop()
        raise
    return CogenDeps(
        hub=hub,
        provider=provider,
        generator=generator,
        discriminator=discriminator,
        scan=scan_source,
        limits=SCRIPT_LIMITS,
        max_rounds=params.max_rounds,
        mutation=MutationSettings(max_partial=params.mutants, max_corruptions=params.corruption_mutants)
        if params.mutants or params.corruption_mutants
        else None,
        mutants_reject_at_once=backends["discriminator"] == "procedural",
    )


def start_hub_if_needed(
    params: SynthParams, settings: Settings, hub_dir: Path | None = None
) -> HubProcess | None:
    """A hub for the run when any family it may sample touches a web app (unix socket under /tmp:
    socket paths are limited to 108 bytes and var/ may be deep)."""
    families = select_families(load_families(settings.skills_dir), params.apps)
    if not any(app in WEB_APPS for family in families.values() for app in family.apps):
        return None
    socket_dir = Path(tempfile.mkdtemp(prefix="cuagym-hub-"))
    return HubProcess(hub_dir or settings.var_dir / "hub" / "synth", socket_dir / "hub.sock").start()


def build_context(params: SynthParams, settings: Settings, run_id: str, warehouse: Warehouse) -> TupleContext:
    sink = WarehouseCallSink(warehouse, run_id)
    deps = build_deps(params, settings, call_sink=sink)
    try:
        return _context(params, settings, run_id, warehouse, deps, sink)
    except BaseException:
        deps.close()
        raise


def _context(params, settings, run_id, warehouse, deps: CogenDeps, sink) -> TupleContext:
    models = {"generator": deps.generator.name, "discriminator": deps.discriminator.name}
    models |= {
        role: f"llm:{model}"
        for role, model in check_models(params, settings).models().items()
        if role in needed_roles(params) and role not in models
    }
    return TupleContext(
        warehouse=warehouse,
        deps=deps,
        skills_dir=settings.skills_dir,
        final_dir=output_dir(params, settings) / "final",
        run_id=run_id,
        provenance=Provenance(backend=params.backend, models=models, run_id=run_id, git_rev=git_revision()),
        export=params.export,
        critic=build_critic(params, settings, sink),
    )
