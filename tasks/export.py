"""Export verified tuples as OSWorld-compatible bundles (DESIGN.md §3.2) and the dataset as Parquet.

A bundle is self-sufficient: `cuagym verify` re-checks it from its own files, and its config.json
runs on *vanilla* OSWorld (desktop_env): setup is upload_file + execute (+ a `launch` of each program
app, such as Chromium, after its profile is written); the evaluator's postconfig first asks each app
that keeps state in memory to exit (an `execute` of pkill), then uploads reward.py; the evaluator is
`exact_match` on what `vm_command_line` prints for `python3 -c <tasks/reward_contract.py>`, which runs
reward.py, grades its output by cuagym's own rules and prints nothing but its verdict (binary there,
partial credit here). A substring test over reward.py's output would not do: "REWARD: 1.0" inside
its BREAKDOWN, a component name or an echoed file name would pass it. Bundles are written to a temporary sibling and renamed into place, so a
reader never sees half a bundle.
"""

from __future__ import annotations

import json
import os
import shutil
import uuid
from pathlib import Path
from typing import Any

from infra import apps
from infra.errors import CuagymError
from tasks import reward_contract
from tasks.models import TaskSpec
from tasks.reward_contract import OSWORLD_PASS

# OSWorld snapshot / related_apps names for our app ids, as skills/<app>/app.yaml declares them.
OSWORLD_APPS = {app: apps.osworld_name(app) for app in apps.all_apps()}
GUEST_SETUP_DIR = "/tmp/cuagym"
GUEST_REWARD = "/home/user/reward.py"


class BundleError(CuagymError):
    """A bundle directory is incomplete or unreadable."""


BUNDLE_FILES = ("task.json", "config.json", "initial_setup.py", "golden_patch.py", "reward.py", "REVIEW.md")


def osworld_verdict_command() -> list[str]:
    """The evaluator's command: reward_contract.py's own source, ending in a call that prints only
    its verdict (OSWORLD_PASS for a full, well-formed score) for the reward.py the postconfig uploads."""
    source = Path(reward_contract.__file__).read_text(encoding="utf-8")
    call = f"\n\nsys.stdout.write(osworld_verdict({GUEST_REWARD!r}))\n"
    return ["python3", "-c", source + call]


def quit_step(process: str) -> dict[str, Any]:
    """A vanilla `execute` that asks `process` to exit (SIGTERM: it writes what it keeps in memory) and
    waits up to 15 s for it, killing it then; it succeeds whether or not the app was still running.
    Zombies are not waited for (`-r`: the states of a live process): a parent that has not reaped
    the exited app yet would hold the wait for nothing."""
    alive = f"pgrep -r R,S,D,T -x {process} >/dev/null"
    script = (
        f"pkill -TERM -x {process}; for i in $(seq 150); do {alive} || exit 0; sleep 0.1; done; "
        f"pkill -KILL -x {process}; exit 0"
    )
    return {"type": "execute", "parameters": {"command": ["sh", "-c", script]}}


def launch_steps(spec: TaskSpec) -> list[dict[str, Any]]:
    """A vanilla `launch` for each program app of the task (after its setup wrote the app's profile)."""
    programs = [p for app in spec.apps if (p := apps.program(app)) is not None]
    return [{"type": "launch", "parameters": {"command": list(p.command)}} for p in programs]


def osworld_config(spec: TaskSpec) -> dict[str, Any]:
    """The vanilla OSWorld task config for a tuple (keys exactly as desktop_env expects)."""
    names = [apps.osworld_name(app) for app in spec.apps]  # an undeclared app raises, never "chrome"
    return {
        "id": spec.id,
        "snapshot": names[0],
        "instruction": spec.instruction,
        "source": f"cuagym/{spec.family}",
        "config": [
            {
                "type": "upload_file",
                "parameters": {
                    "files": [
                        {"local_path": "initial_setup.py", "path": f"{GUEST_SETUP_DIR}/initial_setup.py"}
                    ]
                },
            },
            {
                "type": "execute",
                "parameters": {"command": ["python3", f"{GUEST_SETUP_DIR}/initial_setup.py"]},
            },
            {
                "type": "execute",
                "parameters": {"command": ["rm", "-f", f"{GUEST_SETUP_DIR}/initial_setup.py"]},
            },
            *launch_steps(spec),
        ],
        "trajectory": "trajectories/",
        "related_apps": sorted(set(names)),
        "evaluator": {
            "postconfig": [
                *(quit_step(process) for process in apps.quit_processes(spec.apps)),
                {
                    "type": "upload_file",
                    "parameters": {"files": [{"local_path": "reward.py", "path": GUEST_REWARD}]},
                },
            ],
            "func": "exact_match",
            "result": {"type": "vm_command_line", "command": osworld_verdict_command()},
            "expected": {"type": "rule", "rules": {"expected": OSWORLD_PASS}},
        },
        "proxy": False,
        "fixed_ip": False,
        "possibility_of_env_change": "low",
    }


def write_bundle(
    final_dir: Path,
    spec: TaskSpec,
    *,
    initial_setup_py: str,
    golden_patch_py: str,
    reward_py: str,
    review_md: str,
    provenance: dict[str, Any],
) -> Path:
    """Write output/final/<task_id>/ atomically (replacing an older export of the same task)."""
    final_dir.mkdir(parents=True, exist_ok=True)
    for stale in [*final_dir.glob(f".staging-{spec.id}-*"), *final_dir.glob(f".replaced-{spec.id}-*")]:
        shutil.rmtree(stale, ignore_errors=True)  # left by a run killed mid-export
    target = final_dir / spec.id
    staging = final_dir / f".staging-{spec.id}-{uuid.uuid4().hex[:8]}"
    staging.mkdir()
    task = {**spec.model_dump(mode="json"), "provenance": provenance}
    files = {
        "task.json": json.dumps(task, indent=2, default=str),
        "config.json": json.dumps(osworld_config(spec), indent=2),
        "initial_setup.py": initial_setup_py,
        "golden_patch.py": golden_patch_py,
        "reward.py": reward_py,
        "REVIEW.md": review_md,
    }
    for name, text in files.items():
        (staging / name).write_text(text, encoding="utf-8")
    if target.exists():
        old = final_dir / f".replaced-{spec.id}-{uuid.uuid4().hex[:8]}"
        os.replace(target, old)
        os.replace(staging, target)
        shutil.rmtree(old, ignore_errors=True)
    else:
        os.replace(staging, target)
    return target


def read_bundle(bundle: Path) -> tuple[TaskSpec, dict[str, str]]:
    """The spec and script texts of an exported bundle; raises if a file is missing."""
    missing = [name for name in BUNDLE_FILES if not (bundle / name).is_file()]
    if missing:
        raise BundleError(
            f"{bundle} is not a complete bundle: missing {missing}", hint="re-export it with `cuagym export`"
        )
    task = json.loads((bundle / "task.json").read_text())
    task.pop("provenance", None)
    spec = TaskSpec.model_validate(task)
    return spec, {
        name: (bundle / name).read_text() for name in ("initial_setup.py", "golden_patch.py", "reward.py")
    }
