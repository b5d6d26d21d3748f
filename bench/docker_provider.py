"""The `docker` provider against the `desktop` provider, in one run (issue 15: "reset → first
screenshot and memory per env vs the desktop provider").

Both run the same in-guest server and apps; the desktop comes from a bubblewrap sandbox over the
host's /usr, or from a container of the locally built image. Measured, with the two providers
interleaved round by round so machine load falls on both alike: cold start → first screenshot,
reset → first screenshot (a new sandbox / a new container over the restored home), the same with the
task's .xlsx reopened in Calc, and memory per env (PSS: shared pages split between the envs mapping
them; the container's own cgroup charge too), idle and with Calc open, 1 env and 3 side by side.
Run: `.venv/bin/python bench/docker_provider.py [ROUNDS]`.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

from desktop import _bundle, _timed  # bench/desktop.py: `python bench/…` puts bench/ on sys.path
from rich.console import Console
from rich.table import Table

from infra.desktop_venv import ensure_desktop_python
from infra.envs.base import EnvRole
from infra.envs.desktop import DesktopProvider
from infra.envs.docker import DockerProvider, docker_client, ensure_image
from infra.settings import get_settings


def _side_by_side(provider, count: int, work: Path) -> dict[str, float]:
    """Memory per env, idle and with Calc open, for `count` envs of `provider` at once."""
    started = time.perf_counter()
    envs = provider.provision_many(f"bench-{provider.name}-{count}", EnvRole.ROLLOUT, count)
    for env in envs:
        env.screenshot()
    cold = time.perf_counter() - started
    try:
        idle = [env.memory() for env in envs]
        for i, env in enumerate(envs):
            env.setup_from_config(_bundle(work / f"{provider.name}-{count}-{i}", seed=i) / "config.json")
        calc = [env.memory() for env in envs]
    finally:
        for env in envs:
            env.close()
    figures = {
        "cold": cold,
        "idle_pss": statistics.mean(m.pss_mb for m in idle),
        "calc_pss": statistics.mean(m.pss_mb for m in calc),
    }
    if calc[0].cgroup_mb is not None:
        figures["calc_cgroup"] = statistics.mean(m.cgroup_mb or 0 for m in calc)
    return figures


def main(rounds: int = 10) -> None:
    settings = get_settings()
    python = ensure_desktop_python(settings.desktop_venv_path)
    client = docker_client()
    image = ensure_image(client, desktop_python=python)
    work = Path(tempfile.mkdtemp(prefix="bench-docker-"))
    providers = {
        "desktop": DesktopProvider(work / "desktops", python),
        "docker": DockerProvider(work / "containers", image=image, client=client),
    }
    for provider in providers.values():
        provider.provision("warm-up", EnvRole.DEBUG).close()  # page cache, as on any machine in use

    envs = {name: p.provision(f"bench-{name}", EnvRole.ROLLOUT) for name, p in providers.items()}
    resets: dict[str, list[float]] = {name: [] for name in providers}
    reopens: dict[str, list[float]] = {name: [] for name in providers}
    try:
        for name, env in envs.items():
            env.setup_from_config(_bundle(work / f"reset-{name}", seed=0) / "config.json")
            env.mark_initial()
        for _ in range(rounds):
            for name, env in envs.items():  # interleaved: load falls on both alike
                resets[name].append(_timed(lambda env=env: (env.reset(), env.screenshot())))
                reopens[name].append(_timed(lambda env=env: (env.reset(reopen=True), env.screenshot())))
    finally:
        for env in envs.values():
            env.close()
    side = {(name, n): _side_by_side(p, n, work) for n in (1, 3) for name, p in providers.items()}

    def median(xs: list[float]) -> float:
        return statistics.median(xs)

    rows = [
        ("reset → first screenshot, s (median)", median(resets["desktop"]), median(resets["docker"])),
        ("reset + reopen the .xlsx in Calc, s", median(reopens["desktop"]), median(reopens["docker"])),
    ]
    for n in (1, 3):
        d, k = side[("desktop", n)], side[("docker", n)]
        rows += [
            (f"cold start → first screenshot, s ({n} env{'s' if n > 1 else ''})", d["cold"], k["cold"]),
            (f"memory per env idle, PSS MB ({n})", d["idle_pss"], k["idle_pss"]),
            (f"memory per env with Calc open, PSS MB ({n})", d["calc_pss"], k["calc_pss"]),
        ]
        if "calc_cgroup" in k:
            rows.append(
                (
                    f"  cgroup charge with Calc open, MB ({n})",
                    d.get("calc_cgroup", float("nan")),
                    k["calc_cgroup"],
                )
            )
    table = Table(title=f"docker vs desktop provider, {rounds} interleaved reset rounds")
    for column in ("what", "desktop", "docker", "docker / desktop"):
        table.add_column(column, justify="left" if column == "what" else "right")
    for what, d, k in rows:
        table.add_row(what, f"{d:.2f}", f"{k:.2f}", f"{k / d:.2f}×" if d == d and d else "—")
    Console(width=120).print(table)


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 10)
