"""How long the static reward scan takes, relative to one sandboxed reward run, in one run.

Scans every reward of the corpus and every family reward (seed 0) 5 times each, keeping each file's
best CPU time, and times `python3 -c pass` in the sandbox for scale. Run: `.venv/bin/python
bench/reward_scan.py`.
"""

from __future__ import annotations

import statistics
import tempfile
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

from infra.sandbox import run_in_sandbox
from infra.settings import PROJECT_ROOT, get_settings
from skills.kit import load_families
from tasks.scan import scan_source

CORPUS = PROJECT_ROOT / "tests" / "scan_corpus"


def best_cpu(source: str, repeats: int = 5) -> float:
    times = []
    for _ in range(repeats):
        start = time.process_time()
        scan_source(source)
        times.append(time.process_time() - start)
    return min(times)


def main() -> None:
    settings = get_settings()
    families = load_families(settings.skills_dir)
    sources = {p.name: p.read_text() for p in sorted(CORPUS.rglob("*.py"))}
    sources |= {fid: f.script("reward", f.instantiate(0)) for fid, f in families.items()}
    timed = {name: best_cpu(src) for name, src in sources.items()}
    lines = {name: len(src.splitlines()) for name, src in sources.items()}
    home = Path(tempfile.mkdtemp(prefix="bench-scan-")) / "home"
    runs = []
    for _ in range(10):
        start = time.perf_counter()
        run_in_sandbox(["python3", "-c", "pass"], home=home, guest_python=settings.guest_venv_path)
        runs.append(time.perf_counter() - start)
    sandbox = statistics.median(runs)
    table = Table(title="reward scan (CPU, best of 5 per file)")
    for col in ("files", "mean lines", "median ms", "p95 ms", "max ms (lines)", "median / sandboxed run"):
        table.add_column(col, justify="right")
    values = sorted(timed.values())
    worst = max(timed, key=timed.get)
    table.add_row(
        str(len(values)),
        f"{statistics.mean(lines.values()):.0f}",
        f"{statistics.median(values) * 1e3:.1f}",
        f"{values[int(0.95 * (len(values) - 1))] * 1e3:.1f}",
        f"{timed[worst] * 1e3:.1f} ({lines[worst]})",
        f"{statistics.median(values) / sandbox:.2f}×",
    )
    Console().print(table)
    Console().print(f"sandboxed `python3 -c pass`: {sandbox * 1e3:.1f} ms median of 10")


if __name__ == "__main__":
    main()
