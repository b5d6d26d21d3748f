"""Build what a synthesis run runs on (env provider, agents, scan, warehouse) from its parameters."""

from __future__ import annotations

import hashlib
import json
import subprocess
from pathlib import Path

from infra.envs.local import LocalProvider
from infra.errors import ConfigError
from infra.sandbox import Limits
from infra.settings import PROJECT_ROOT, Settings
from tasks.agents.isolation import IsolatedDiscriminator
from tasks.agents.procedural import ProceduralGenerator
from tasks.cogen import CogenDeps
from tasks.models import Provenance, SynthParams
from tasks.synthesize import TupleContext
from warehouse.store import Warehouse

SCRIPT_LIMITS = Limits(timeout_s=120.0, memory_mb=2048)


def git_revision() -> str:
    try:
        out = subprocess.run(["git", "-C", str(PROJECT_ROOT), "rev-parse", "--short", "HEAD"],
                             capture_output=True, text=True, timeout=5)  # fmt: skip
        return out.stdout.strip() or "unknown"
    except (OSError, subprocess.SubprocessError):
        return "unknown"


def run_id_for(params: SynthParams) -> str:
    """Same parameters (seed resolved), same run id: re-running a run resumes it."""
    key = params.model_dump(mode="json", exclude={"workers", "out"}) | {"seed": params.resolved_seed()}
    return "run-" + hashlib.sha256(json.dumps(key, sort_keys=True).encode()).hexdigest()[:12]


def output_dir(params: SynthParams, settings: Settings) -> Path:
    return Path(params.out).resolve() if params.out else settings.output_dir.resolve()


def build_deps(params: SynthParams, settings: Settings) -> CogenDeps:
    from tasks.scan import scan_source

    if params.env != "local":
        raise ConfigError(f"env provider {params.env!r} is not available for co-generation",
                          hint="use --env local")  # fmt: skip
    if params.backend != "procedural":
        raise ConfigError(f"unknown backend {params.backend!r}", hint="use --backend procedural")
    provider = LocalProvider(settings.work_dir, settings.guest_venv_path, limits=SCRIPT_LIMITS)
    return CogenDeps(
        provider=provider,
        generator=ProceduralGenerator(settings.skills_dir),
        discriminator=IsolatedDiscriminator(params.backend, settings),
        scan=scan_source,
        limits=SCRIPT_LIMITS,
        max_rounds=params.max_rounds,
    )


def build_context(params: SynthParams, settings: Settings, run_id: str, warehouse: Warehouse) -> TupleContext:
    deps = build_deps(params, settings)
    models = {"generator": deps.generator.name, "discriminator": deps.discriminator.name}
    return TupleContext(
        warehouse=warehouse, deps=deps, skills_dir=settings.skills_dir,
        final_dir=output_dir(params, settings) / "final", run_id=run_id,
        provenance=Provenance(backend=params.backend, models=models, run_id=run_id, git_rev=git_revision()),
        export=params.export,
    )  # fmt: skip
