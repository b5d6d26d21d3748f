"""Mutation testing of a reward (the stage after the five agreement conditions hold).

The five conditions test a reward at two points: initial -> 0 and golden -> 1. A reward that checks
one of three required changes, or accepts any non-empty cell, passes both. So the stage builds
*mutants* of the golden state and grades each with the reward:

- partial-revert mutants hold a non-empty strict subset of the golden's changes (the golden with one
  change unit reverted, or the initial with one applied) at the granularity that matters per kind of
  state: files and folders, spreadsheet cells and sheets, document paragraphs, tables and sections,
  slides and shapes, JSON keys (built inside the sandbox by tasks/mutation/guest/mutator/, since the
  states were written by untrusted scripts), and hub records and fields (from the golden session's
  /go diff, here);
- corruption mutants damage the golden the way a careless agent would: a formula replaced by its
  value, an off-by-one range, the right extension on the wrong format, an extra change the task
  never asked for.

A faithful reward scores every mutant below 1.0. A mutant is *killed* when it scores below 1.0,
*errored* when the reward gave no score (a broken check or output; such a state never earns a
reward, so it counts as killed, and it is listed), and *survives* when it scores 1.0. Incidental
changes (document metadata, lock files, volatile hub keys) are excluded declaratively, per kind
(guest/mutator/incidental.yaml).
"""

from __future__ import annotations

import json
import logging
import shutil
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from functools import cache
from pathlib import Path

import yaml
from pydantic import BaseModel, Field

from infra.envs.base import EnvRole, Snapshot
from infra.envs.home import walk_state
from infra.envs.local import LocalEnv, LocalProvider
from infra.errors import CuagymError, EnvError
from infra.sandbox import Bind, Limits, run_in_sandbox
from skills.kit import guest as kit_guest
from tasks.grading import parse_grade
from tasks.models import MutantResult, MutationReport, TaskSpec
from tasks.mutation.hub import HubStates, applied, bystanders_deleted, put_states, read_states, reverted

log = logging.getLogger(__name__)

GUEST_LIB = Path(__file__).with_name("guest")
KIT_GUEST = Path(kit_guest.__file__).parent  # the reward kit's guest helpers (the formula evaluator)
INCIDENTAL = GUEST_LIB / "mutator" / "incidental.yaml"
MOUNT = "/opt/cuagym/mutation"
PLAN_BYTES = 4 * 1024 * 1024


class MutationSettings(BaseModel):
    max_partial: int = Field(
        default=8, ge=0, description="partial-revert mutants per tuple (a spread when cut)"
    )
    max_corruptions: int = Field(default=3, ge=0, description="corruption mutants per tuple")
    workers: int = Field(default=2, ge=1, description="mutants graded side by side")
    # A skipped mutant is a part of the task whose check went untested: a reward weak exactly where
    # mutants could not be built (a state the hub refuses, a home that cannot be copied) would pass.
    # With the default budget of about 11 mutants, 10 % lets one odd mutant go on a full budget, but
    # never a stage that tested only part of the reward.
    max_skipped_share: float = Field(
        default=0.10, ge=0.0, le=1.0, description="skipped / planned mutants above which the round fails"
    )


@cache
def incidental_rules() -> dict[str, list[str]]:
    return yaml.safe_load(INCIDENTAL.read_text(encoding="utf-8"))


def run_mutation_tests(
    spec: TaskSpec,
    reward_py: str,
    initial_env: LocalEnv,
    golden_env: LocalEnv,
    provider: LocalProvider,
    *,
    limits: Limits,
    settings: MutationSettings | None = None,
) -> MutationReport:
    """Build the tuple's mutants and grade each with `reward_py`; never raises for what the reward
    or the states do, only for a sandbox that could not start. A stage that could not build or grade
    its mutants says so in the report (`error`, `truncated`, `skipped`; see
    MutationReport.stage_failure), which fails the round: it never passes for want of mutants."""
    settings = settings or MutationSettings()
    started = time.monotonic()
    hub_states = _hub_states(golden_env, provider)
    hub_units = [
        (states, unit) for states in hub_states for unit in states.units(incidental_rules().get("hub") or [])
    ]
    scratch = Path(tempfile.mkdtemp(prefix="mutants-", dir=provider.root))
    results: list[MutantResult | dict] = []
    try:
        unlisted = _truncated_views(initial_env, golden_env)
        plan = _plan_file_mutants(
            spec,
            initial_env,
            golden_env,
            provider,
            scratch,
            settings,
            len(hub_units),
            [s.app for s in hub_states],
        )
        plan["truncated"] = unlisted + plan["truncated"]
        if not plan["error"] and not plan["truncated"]:
            jobs = [_file_job(m, scratch / "home" / "out" / m["id"], hub_states) for m in plan["mutants"]]
            jobs += _hub_jobs(spec, hub_states, hub_units, initial_env, golden_env, settings, plan)
            with ThreadPoolExecutor(max_workers=settings.workers) as pool:
                results = list(pool.map(lambda job: _grade(spec, reward_py, provider, limits, *job), jobs))
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    report = MutationReport(
        units=plan["file_units"] + len(hub_units),
        mutants=[r for r in results if isinstance(r, MutantResult)],
        skipped=plan["skipped"] + [r for r in results if isinstance(r, dict)],
        error=plan["error"],
        truncated=plan["truncated"],
        max_skipped_share=settings.max_skipped_share,
        seconds=round(time.monotonic() - started, 3),
    )
    log.debug(
        "%s: %d/%d mutants killed, %d skipped", spec.id, report.killed, report.total, report.skipped_mutants
    )
    return report


def _truncated_views(initial_env: LocalEnv, golden_env: LocalEnv) -> list[str]:
    """The host's state views (what the Discriminator was shown) must be whole as well: a reward
    written from part of a state cannot be trusted on the rest of it."""
    return [
        f"the {label} state view is truncated (too many entries, too deep, or unreadable)"
        for label, env in (("initial", initial_env), ("golden", golden_env))
        if walk_state(env.home)[1]
    ]


def _hub_states(golden_env: LocalEnv, provider: LocalProvider) -> list[HubStates]:
    if not golden_env.web_apps or provider.hub is None:
        return []
    with provider.hub.client() as client:
        return [read_states(client, app, golden_env.sid) for app in golden_env.web_apps]


def _plan_file_mutants(
    spec, initial_env, golden_env, provider, scratch, settings, other_units, hub_apps
) -> dict:
    config = {
        "initial": f"{MOUNT}/initial",
        "golden": f"{MOUNT}/golden",
        "out": "/home/user/out",
        "seed": spec.id,
        "max_partial": settings.max_partial,
        "max_corruptions": max(settings.max_corruptions - bool(hub_apps), 0),
        "incidental": incidental_rules(),
        "other_units": other_units,
    }
    binds = [
        Bind(initial_env.home, f"{MOUNT}/initial"),
        Bind(golden_env.home, f"{MOUNT}/golden"),
        Bind(GUEST_LIB, f"{MOUNT}/lib"),
        Bind(KIT_GUEST, f"{MOUNT}/kit"),
    ]
    result = run_in_sandbox(
        ["python3", "-m", "mutator", json.dumps(config)],
        home=scratch / "home",
        limits=Limits(timeout_s=120, memory_mb=2048),
        env={"PYTHONPATH": f"{MOUNT}/lib"},
        binds=binds,
        guest_python=provider.guest_python,
        identity_dir=provider.root / ".identity",
    )
    plan_file = scratch / "home" / "out" / "plan.json"
    if not result.ok or not plan_file.is_file() or plan_file.stat().st_size > PLAN_BYTES:
        why = result.stderr.strip().splitlines()[-3:] if result.stderr else [f"exit {result.exit_code}"]
        if result.ok:
            why = [f"no plan.json of at most {PLAN_BYTES} bytes"]
        log.warning("%s: the mutator failed (%s)", spec.id, " | ".join(why)[:400])
        return _failed_plan("the mutator failed: " + " | ".join(why)[:400])
    try:
        plan = json.loads(plan_file.read_text(encoding="utf-8"))
    except ValueError as exc:
        return _failed_plan(f"the mutator's plan.json does not parse: {exc}"[:400])
    return {
        "mutants": plan["mutants"],
        "skipped": plan["skipped"],
        "file_units": len(plan["units"]),
        "truncated": plan.get("truncated") or [],
        "error": None,
    }


def _failed_plan(error: str) -> dict:
    return {"mutants": [], "skipped": [], "file_units": 0, "truncated": [], "error": error}


def _file_job(mutant: dict, home: Path, hub_states: list[HubStates]):
    """A file mutant keeps the hub state of its base: golden's current, or the initial one."""
    return (
        mutant,
        home,
        {s.app: (s.initial, [s.golden if mutant["base"] == "golden" else s.initial]) for s in hub_states},
    )


def _hub_jobs(spec, hub_states, hub_units, initial_env, golden_env, settings, plan):
    """Hub mutants: the golden hub state with one unit reverted (home: golden's), the initial with one
    applied (home: initial's), and a deleted bystander record; what the file mutants left of the
    budgets, with the same spread rules."""
    total = plan["file_units"] + len(hub_units)
    golden_hub = {s.app: (s.initial, [s.golden]) for s in hub_states}
    initial_hub = {s.app: (s.initial, [s.initial]) for s in hub_states}
    drops, onlys = [], []
    for n, (states, unit) in enumerate(hub_units if total >= 2 else []):
        record = {"kind": "partial_revert", "unit_kind": "hub.path", "path": f"{unit.app}:{unit.path}"}
        drops.append(
            (
                record
                | {"id": f"hub-drop-{n:03d}", "base": "golden", "what": f"all changes but: {unit.what}"},
                golden_env.home,
                golden_hub | {states.app: (states.initial, [reverted(states, unit)])},
            )
        )
        if total > 2:
            onlys.append(
                (
                    record
                    | {
                        "id": f"hub-only-{n:03d}",
                        "base": "initial",
                        "what": f"only this change: {unit.what}",
                    },
                    initial_env.home,
                    initial_hub | {states.app: (states.initial, [applied(states, unit)])},
                )
            )
    partial_left = settings.max_partial - sum(m["kind"] == "partial_revert" for m in plan["mutants"])
    jobs = _spread(drops, onlys, max(partial_left, 1 if drops else 0), spec.id)
    corruptions_left = settings.max_corruptions - sum(m["kind"] == "corruption" for m in plan["mutants"])
    for states in hub_states[:1] if corruptions_left > 0 else []:
        candidates = bystanders_deleted(states)
        if candidates:
            record = {
                "id": "hub-corrupt-000",
                "base": "golden",
                "kind": "corruption",
                "unit_kind": "corrupt.extra_change",
                "path": states.app,
                "what": candidates[0][0],
            }
            jobs.append((record, golden_env.home, golden_hub | {states.app: (states.initial, candidates)}))
    return jobs


def _spread(drops: list, onlys: list, limit: int, seed: str) -> list:
    import random

    if len(drops) + len(onlys) <= limit:
        return drops + onlys
    rng = random.Random(seed)
    keep = rng.sample(drops, min(len(drops), (limit + 1) // 2 if onlys else limit))
    return keep + rng.sample(onlys, min(len(onlys), limit - len(keep)))


def _put_first(client, app: str, sid: str, baseline: dict, currents: list) -> dict:
    """Put the first candidate state the hub accepts (a state a UI could not reach is refused, e.g.
    a record deleted while another still refers to it); returns the mutant's updated description."""
    for n, current in enumerate(currents):
        what, state = current if isinstance(current, tuple) else (None, current)
        try:
            put_states(client, app, sid, baseline=baseline, current=state)
        except EnvError:
            if n == len(currents) - 1:
                raise
            continue
        return {"what": what} if what else {}
    return {}


def _grade(spec, reward_py, provider, limits, mutant: dict, home: Path, hub: dict) -> MutantResult | dict:
    """Grade one mutant in a fresh env (its own home copy and, for web tasks, its own session); a
    mutant that cannot be provisioned or put into the hub comes back as a skip record (counted)."""
    try:
        env = provider.provision(
            spec.id, EnvRole.DEBUG, apps=spec.apps, from_snapshot=Snapshot(env_id="mutant", ref=str(home))
        )
    except (OSError, CuagymError) as exc:
        log.warning("%s: mutant %s could not be provisioned: %s", spec.id, mutant["id"], exc)
        return _skip(mutant, f"could not be provisioned: {exc}")
    try:
        if hub:  # {app: (baseline, candidate currents)}
            with provider.hub.client() as client:
                for app, (baseline, currents) in hub.items():
                    mutant = mutant | _put_first(client, app, env.sid, baseline, currents)
        grade = parse_grade(env.run_script(reward_py, name="reward.py", limits=limits))
    except EnvError as exc:
        log.warning("%s: mutant %s skipped: %s", spec.id, mutant["id"], exc.message)
        return _skip(mutant, exc.message)
    finally:
        env.close()
    outcome = "errored" if grade.score is None else "survived" if grade.score >= 1.0 else "killed"
    return MutantResult(**mutant, score=grade.score, outcome=outcome, error=grade.error)


def _skip(mutant: dict, why: str) -> dict:
    return {"path": mutant["path"], "mutant": mutant["id"], "why": why[:300]}
