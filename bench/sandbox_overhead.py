"""Overhead of one sandboxed script run over a bare `python3 -c pass` (issue: target <= 30 ms).

Both are measured in the same process, interleaved, so machine noise hits both alike; the figure
that matters is the difference of medians. Run: `.venv/bin/python bench/sandbox_overhead.py [N]`.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

from infra.guest_python import ensure_guest_python
from infra.sandbox import Limits, run_in_sandbox
from infra.settings import get_settings


def main(runs: int = 60) -> None:
    guest = ensure_guest_python(get_settings().guest_venv_path)
    python = str(guest / "bin" / "python3")
    home = Path(tempfile.mkdtemp(prefix="bench-sandbox-")) / "home"
    limits = Limits(timeout_s=30)
    bare, boxed = [], []
    for _ in range(3):  # warm caches for both paths
        subprocess.run([python, "-c", "pass"], check=True)
        run_in_sandbox(["python3", "-c", "pass"], home=home, guest_python=guest, limits=limits)
    for _ in range(runs):
        t = time.perf_counter()
        subprocess.run([python, "-c", "pass"], check=True)
        bare.append(time.perf_counter() - t)
        t = time.perf_counter()
        result = run_in_sandbox(["python3", "-c", "pass"], home=home, guest_python=guest, limits=limits)
        boxed.append(time.perf_counter() - t)
        assert result.exit_code == 0, result.stderr
    med_bare, med_boxed = statistics.median(bare), statistics.median(boxed)
    table = Table(title=f"sandbox overhead, median of {runs} interleaved runs")
    for col in ("what", "median ms", "p90 ms"):
        table.add_column(col, justify="right" if col != "what" else "left")
    for name, xs in (("bare python3 -c pass", bare), ("sandboxed python3 -c pass", boxed)):
        table.add_row(
            name, f"{statistics.median(xs) * 1e3:.1f}", f"{sorted(xs)[int(0.9 * len(xs))] * 1e3:.1f}"
        )
    table.add_row("overhead (difference of medians)", f"{(med_boxed - med_bare) * 1e3:.1f}", "")
    table.add_row("ratio sandboxed / bare", f"{med_boxed / med_bare:.2f}x", "")
    Console().print(table)


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 60)
