"""Per desktop app: how long a desktop of one of its tasks takes to come back (issue target: reset to
first screenshot <= 3 s for each app) and what it costs in memory with the app open.

For each desktop app (skills/<app>/app.yaml, kind desktop) the bench exports a bundle of its first
taught family (seed 0; else its first family) and, ROUNDS times, does what a rollout does before its
first step: a fresh desktop, set up from the bundle's config.json (the setup scripts, the app started
with the profile they wrote, its window painted), and one screenshot:
- reset to first screenshot: that, from provisioning to the screenshot, median of ROUNDS (a
  desktop's `reset()` restores a home and starts the apps again the same way; here the home is
  the setup's, so an app never starts over a profile it left running);
- memory: PSS of the desktop's processes with the app open (PSS splits shared pages between
  desktops, so per-desktop figures add up);
- with a standby (`cuagym rollout --standby`, tasks/rollout/standby.py): episodes of one tuple in a
  row, each EPISODE_S long (a policy thinking on another machine: the desktop idles), and the
  desktop of the next set up meanwhile; from the end of one episode to the next one's first
  screenshot, median over ROUNDS (the first episode, which sets its own desktop up, not counted).
With vscode among the apps, the bench also times VS Code's reset without its seeded browser profile
(infra/envs/desktop/code_seed.py: an empty profile made before setup, so the window starts from
none), alternating rounds with the seeded one, and prints the ratio.
Desktops run one at a time. Run: `.venv/bin/python bench/apps.py [ROUNDS] [APP ...]`.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

from infra import apps
from infra.apps import AppKind
from infra.desktop_venv import ensure_desktop_python
from infra.envs.base import EnvRole
from infra.envs.desktop import DesktopProvider
from infra.settings import PROJECT_ROOT, get_settings
from skills.kit import load_families
from tasks.quality.teachers import bundle_for
from tasks.rollout.standby import Standby

EPISODE_S = 8.0  # a short episode: a few model steps of a policy served elsewhere


def _family(app: str, families: dict) -> str | None:
    own = sorted(fid for fid, f in families.items() if tuple(f.apps) == (app,))
    taught = [fid for fid in own if families[fid].teacher is not None]
    return (taught or own or [None])[0]


def _reset(provider: DesktopProvider, spec, bundle: Path, before_setup: list[str] | None = None):
    """Seconds from provisioning to the first screenshot, and the desktop's memory then."""
    started = time.perf_counter()
    env = provider.provision(spec.id, EnvRole.ROLLOUT, apps=spec.apps)
    try:
        if before_setup:
            env.client.execute(before_setup, timeout_s=30)
        env.setup_from_config(bundle / "config.json", timeout_s=300)
        env.screenshot()
        return time.perf_counter() - started, env.memory()
    finally:
        env.close()


def _standby_reset(provider: DesktopProvider, spec, bundle: Path, rounds: int) -> list[float]:
    standby = Standby(provider)
    standby.expect(bundle, rounds + 1)
    resets = []
    try:
        for n in range(rounds + 1):
            started = time.perf_counter()
            desktop = standby.take(spec, bundle)
            desktop.screenshot()
            if n > 0:
                resets.append(time.perf_counter() - started)
            time.sleep(EPISODE_S)
            desktop.close()
    finally:
        standby.close()
    return resets


def measure(provider: DesktopProvider, app: str, family_id: str, rounds: int, work: Path) -> dict[str, str]:
    families = load_families(PROJECT_ROOT / "skills")
    bundle = bundle_for(families[family_id], 0, work / app, review="bench\n")
    spec = families[family_id].instantiate(0)
    resets = []
    for _ in range(rounds):
        seconds, memory = _reset(provider, spec, bundle)
        resets.append(seconds)
    standby = _standby_reset(provider, spec, bundle, rounds)
    return {
        "family": family_id,
        "reset to first screenshot": f"{statistics.median(resets):.2f} s (max {max(resets):.2f})",
        "PSS / RSS": f"{memory.pss_mb:.0f} / {memory.rss_mb:.0f} MB ({memory.processes} processes)",
        "within 3 s": "yes" if statistics.median(resets) <= 3.0 else "NO",
        "with a standby": f"{statistics.median(standby):.2f} s (max {max(standby):.2f})",
    }


def main(argv: list[str]) -> None:
    rounds = int(argv[0]) if argv else 3
    wanted = argv[1:] or [a for a in apps.all_apps() if apps.app(a).kind is AppKind.DESKTOP]
    families = load_families(PROJECT_ROOT / "skills")
    provider = DesktopProvider(Path(tempfile.mkdtemp(prefix="bench-apps-")), ensure_desktop_python(
        get_settings().desktop_venv_path))  # fmt: skip
    table = Table(title=f"desktop apps: reset and memory, median of {rounds} resets")
    for column in (
        "app",
        "family",
        "reset to first screenshot",
        "PSS / RSS",
        "within 3 s",
        "with a standby",
    ):
        table.add_column(column)
    with tempfile.TemporaryDirectory() as work:
        for app in wanted:
            family_id = _family(app, families)
            if family_id is None:
                table.add_row(app, "(no family)", "", "", "", "")
                continue
            row = measure(provider, app, family_id, rounds, Path(work))
            table.add_row(app, *row.values())
        Console().print(table)
        if "vscode" in wanted and (family_id := _family("vscode", families)) is not None:
            _seed_ratio(provider, families, family_id, rounds, Path(work))


def _seed_ratio(provider: DesktopProvider, families: dict, family_id: str, rounds: int, work: Path) -> None:
    bundle = bundle_for(families[family_id], 0, work / "vscode-seed", review="bench\n")
    spec = families[family_id].instantiate(0)
    empty_profile = ["mkdir", "-p", "/tmp/code-chromium"]  # code_editor.py seeds only a new profile
    seeded, unseeded = [], []
    for n in range(rounds):  # alternating, so the machine's noise falls on both
        for profile in ("seeded", "unseeded") if n % 2 == 0 else ("unseeded", "seeded"):
            if profile == "seeded":
                seeded.append(_reset(provider, spec, bundle)[0])
            else:
                unseeded.append(_reset(provider, spec, bundle, empty_profile)[0])
    a, b = statistics.median(seeded), statistics.median(unseeded)
    Console().print(
        f"VS Code reset to first screenshot, median of {rounds}: seeded browser profile {a:.2f} s, "
        f"a new one {b:.2f} s (seeded / new = {a / b:.2f})"
    )


if __name__ == "__main__":
    main(sys.argv[1:])
