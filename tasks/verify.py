"""Re-check an exported bundle from its own files, in fresh sandboxes (`cuagym verify`):
initial_setup.py alone must score 0.0, initial_setup.py then golden_patch.py must score 1.0, and
with `--mutants N` no mutant of the golden state may score 1.0."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from pathlib import Path

from pydantic import BaseModel

from infra.envs.base import EnvProvider, EnvRole
from infra.envs.local import WEB_APPS, HubRoute, LocalProvider
from infra.hub.process import HubProcess
from infra.sandbox import Limits
from tasks.export import read_bundle
from tasks.grading import parse_grade
from tasks.models import MutationReport
from tasks.mutation import MutationSettings, run_mutation_tests


class BundleCheck(BaseModel):
    task_id: str
    bundle: str
    reward_initial: float | None
    reward_golden: float | None
    problems: list[str]
    mutation: MutationReport | None = None  # with --mutants

    @property
    def ok(self) -> bool:
        return not self.problems


def _prepare(env, scripts: dict[str, str], steps: list[str], label: str, limits, problems: list[str]) -> bool:
    for name in steps:
        run = env.run_script(scripts[name], name=name, limits=limits)
        if not run.ok:
            problems.append(f"{label}: {name} exited {run.exit_code}: {run.stderr.strip()[-300:]}")
            return False
    return True


def verify_bundle(
    bundle: Path, provider: EnvProvider, limits: Limits | None = None, *, mutants: int = 0
) -> BundleCheck:
    """initial -> 0.0 and initial + golden -> 1.0 from the bundle's own files; with `mutants` > 0,
    mutation testing too (up to that many partial-revert mutants, plus corruption mutants), and any
    survivor is a problem, as is a stage that could not build or grade its mutants."""
    spec, scripts = read_bundle(bundle)
    problems: list[str] = []
    scores: dict[str, float | None] = {"initial": None, "golden": None}
    report = None
    with (
        provider.provision(spec.id, EnvRole.DEBUG, apps=spec.apps) as initial_env,
        provider.provision(spec.id, EnvRole.DEBUG, apps=spec.apps) as golden_env,
    ):
        ready = {
            "initial": _prepare(initial_env, scripts, ["initial_setup.py"], "initial", limits, problems),
            "golden": _prepare(
                golden_env, scripts, ["initial_setup.py", "golden_patch.py"], "golden", limits, problems
            ),
        }
        for label, env in (("initial", initial_env), ("golden", golden_env)):
            if not ready[label]:
                continue
            grade = parse_grade(env.run_script(scripts["reward.py"], name="reward.py", limits=limits))
            scores[label] = grade.score
            if grade.score is None:
                problems.append(f"{label}: reward.py gave no score: {grade.error}")
        if mutants and all(ready.values()) and not problems:
            report = run_mutation_tests(
                spec,
                scripts["reward.py"],
                initial_env,
                golden_env,
                provider,
                limits=limits or Limits(),
                settings=MutationSettings(max_partial=mutants),
            )
            failure = report.stage_failure()
            problems += [f"{failure[0].value}: {failure[1]}"] if failure else []
            problems += [f"mutant survived: {m.what}" for m in report.survivors]
    if scores["initial"] is not None and scores["initial"] != 0.0:
        problems.append(f"initial state scores {scores['initial']} (expected 0.0)")
    if scores["golden"] is not None and scores["golden"] != 1.0:
        problems.append(f"golden state scores {scores['golden']} (expected 1.0)")
    return BundleCheck(
        task_id=spec.id,
        bundle=str(bundle),
        reward_initial=scores["initial"],
        reward_golden=scores["golden"],
        problems=problems,
        mutation=report,
    )


def verify_bundles(
    bundles: list[Path], settings, limits: Limits | None = None, *, mutants: int = 0
) -> Iterator[BundleCheck]:
    """Verify bundles in fresh local envs, with a hub running if any bundle is a web task."""
    specs = [read_bundle(b)[0] for b in bundles]
    hub = None
    if any(app in WEB_APPS for spec in specs for app in spec.apps):
        hub = HubProcess(
            settings.var_dir / "hub" / "verify", Path(tempfile.mkdtemp(prefix="cuagym-hub-")) / "hub.sock"
        )
        hub.start()
    try:
        provider = LocalProvider(
            settings.work_dir / "verify",
            settings.guest_venv_path,
            hub=HubRoute(hub.uds, WEB_APPS) if hub else None,
        )
        for bundle in bundles:
            yield verify_bundle(bundle, provider, limits, mutants=mutants)
    finally:
        if hub is not None:
            hub.stop()
