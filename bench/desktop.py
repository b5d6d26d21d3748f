"""Desktop env figures (issue target: reset <= 3 s), with 1 and 3 desktops side by side.

Measured in one run on this machine: cold start to first screenshot, reset to first screenshot,
opening a generated .xlsx in LibreOffice Calc, screenshot latency (over the Unix socket, and over the
loopback TCP port with the token as OSWorld's controllers use it), action latency (one xdotool key
through /execute), and memory per desktop (PSS, which splits shared pages between desktops, so the
per-desktop figures add up) idle and with Calc open.
Run: `.venv/bin/python bench/desktop.py [ROUNDS]`.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

import httpx
from rich.console import Console
from rich.table import Table

from infra.desktop_venv import ensure_desktop_python
from infra.envs.base import EnvRole
from infra.envs.desktop import DesktopEnv, DesktopProvider
from infra.envs.desktop.actions import KeyPress
from infra.settings import PROJECT_ROOT, get_settings
from skills.kit import load_families
from tasks.quality.teachers import bundle_for


def _ms(xs: list[float]) -> str:
    xs = sorted(xs)
    return f"{statistics.median(xs) * 1e3:.0f} / {xs[int(0.95 * (len(xs) - 1))] * 1e3:.0f}"


def _s(xs: list[float]) -> str:
    return f"{statistics.median(xs):.2f}" + (f" (max {max(xs):.2f})" if len(xs) > 1 else "")


def _bundle(out: Path, seed: int) -> Path:
    return bundle_for(load_families(PROJECT_ROOT / "skills")["calc.padded_ids"], seed, out, review="bench\n")


def _timed(fn) -> float:
    started = time.perf_counter()
    fn()
    return time.perf_counter() - started


def measure(provider: DesktopProvider, count: int, rounds: int, work: Path) -> dict[str, str]:
    started = time.perf_counter()
    envs: list[DesktopEnv] = provider.provision_many(f"bench-{count}", EnvRole.ROLLOUT, count)
    for env in envs:
        env.screenshot()
    cold = time.perf_counter() - started  # all `count` desktops up and screenshotted
    try:
        idle = [env.memory() for env in envs]
        bundles = [_bundle(work / f"final-{count}-{i}", seed=i) for i in range(count)]
        opens = []
        for env, bundle in zip(envs, bundles, strict=True):
            opens.append(_timed(lambda env=env, bundle=bundle: env.setup_from_config(bundle / "config.json")))
            env.mark_initial()
        with_calc = [env.memory() for env in envs]
        # Latencies with Calc on screen: a busy screen costs more to encode than an empty one.
        shots, tcp_shots, actions = [], [], []
        for _ in range(rounds):
            for env in envs:
                shots.append(_timed(env.screenshot))
                actions.append(_timed(lambda env=env: env.gui_input(KeyPress(keys=["shift"]))))
        for env in envs:
            vm_ip, port = env.osworld_address()
            with httpx.Client(base_url=f"http://{vm_ip}:{port}", timeout=30) as tcp:
                for _ in range(rounds):
                    tcp_shots.append(_timed(lambda tcp=tcp: tcp.get("/screenshot").raise_for_status()))
        resets, reopens = [], []
        for _ in range(max(2, rounds // 10)):
            for env in envs:
                resets.append(_timed(lambda env=env: (env.reset(), env.screenshot())))
                reopens.append(_timed(lambda env=env: (env.reset(reopen=True), env.screenshot())))
    finally:
        for env in envs:
            env.close()
    return {
        "cold start → first screenshot, s": f"{cold:.2f}" + (f" (all {count})" if count > 1 else ""),
        "reset → first screenshot, s": _s(resets),
        "reset + reopen the task's .xlsx in Calc, s": _s(reopens),
        "open .xlsx in Calc (setup + window painted), s": _s(opens),
        "screenshot of Calc, ms (median / p95), Unix socket": _ms(shots),
        "screenshot of Calc, ms (median / p95), TCP + token": _ms(tcp_shots),
        "action (xdotool key via /execute), ms": _ms(actions),
        "memory per desktop idle, PSS MB": f"{statistics.mean(m.pss_mb for m in idle):.0f}",
        "memory per desktop with Calc open, PSS MB": f"{statistics.mean(m.pss_mb for m in with_calc):.0f}",
        "  (RSS MB, for comparison)": f"{statistics.mean(m.rss_mb for m in with_calc):.0f}",
    }


def main(rounds: int = 20) -> None:
    settings = get_settings()
    python = ensure_desktop_python(settings.desktop_venv_path)
    work = Path(tempfile.mkdtemp(prefix="bench-desktop-"))
    provider = DesktopProvider(work / "envs", python)
    provider.provision("warm-up", EnvRole.DEBUG).close()  # page cache, as on any machine in use
    one = measure(provider, 1, rounds, work)
    three = measure(provider, 3, rounds, work)
    table = Table(title=f"desktop env ({provider.config.width}x{provider.config.height}), {rounds} rounds")
    table.add_column("what")
    table.add_column("1 desktop", justify="right")
    table.add_column("3 side by side (per desktop)", justify="right")
    for key in one:
        table.add_row(key, one[key], three[key])
    Console(width=120).print(table)


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 20)
