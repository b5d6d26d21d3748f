"""Teacher sweep (issue target: every GUI teacher reaches reward 1.0 in >= 90 % of runs over 3 seeds).

Exports a bundle for seeds 0..N-1 of every family that has a `demonstrate`, then runs
`cuagym rollout` on all of them — the real command, real desktops, each bundle's own reward.py — in
a scratch var dir (its own warehouse), and prints the command's per-family table plus the families
without a teacher. Run: `.venv/bin/python bench/teachers.py [SEEDS] [WORKERS]`.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from rich.console import Console

from infra.settings import PROJECT_ROOT
from skills.kit import load_families
from tasks.export import write_bundle


def main(seeds: int = 3, workers: int = 2) -> int:
    console = Console()
    families = load_families(PROJECT_ROOT / "skills")
    taught = sorted(fid for fid, f in families.items() if f.teacher is not None)
    untaught = sorted(fid for fid, f in families.items() if f.teacher is None)
    work = Path(tempfile.mkdtemp(prefix="bench-teachers-"))
    bundles = []
    for family_id in taught:
        family = families[family_id]
        for seed in range(seeds):
            spec = family.instantiate(seed)
            bundles.append(
                write_bundle(
                    work / "final",
                    spec,
                    initial_setup_py=family.script("initial_setup", spec),
                    golden_patch_py=family.script("golden_patch", spec),
                    reward_py=family.script("reward", spec),
                    review_md="teacher sweep\n",
                    provenance={"backend": "procedural"},
                )
            )
    console.print(f"{len(taught)} families with a GUI teacher × {seeds} seeds = {len(bundles)} rollouts")
    env = os.environ | {"CUAGYM_VAR_DIR": str(work / "var"), "CUAGYM_OUTPUT_DIR": str(work / "output")}
    cmd = [str(PROJECT_ROOT / ".venv/bin/cuagym"), "rollout", *map(str, bundles), "--workers", str(workers)]
    code = subprocess.run([*cmd, "--out", str(work / "dataset")], env=env, check=False).returncode
    records = [json.loads(line) for line in (work / "dataset" / "trajectories.jsonl").open()]
    solved = sum(r["reward"] == 1.0 for r in records)
    console.print(f"reward 1.0 in {solved}/{len(records)} runs ({solved / max(len(records), 1):.1%})")
    console.print(f"families without a teacher ({len(untaught)}): {', '.join(untaught)}")
    return code


if __name__ == "__main__":
    args = [int(a) for a in sys.argv[1:3]]
    sys.exit(main(*args))
