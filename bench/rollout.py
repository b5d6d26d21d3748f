"""Rollout figures (issue target: per-step overhead <= 100 ms, policy time excluded).

One run on this machine, over real desktops set up from real bundles:
- per model step, what the rollout machinery costs around the policy: the screenshot (over the
  desktop's socket), encoding it for a model (base64 data URL, as the LLM policy sends it),
  executing the step's calls (a click and a key, each with `cursor_before` read from X first), and
  writing the step to the dataset (its PNG into the WebDataset shard, its record line); the settle
  pause between steps is the runner's choice (0.3 s by default) and is not counted;
- steps per second with 1 and 2 desktops side by side (each driven by its own thread, settle off);
- memory per desktop (PSS, which splits shared pages between desktops) with Calc showing a workbook
  and with Chromium showing a hub web app.
The policy replays a fixed step (a click on the sheet, then `shift`) and takes no time itself.
Run: `.venv/bin/python bench/rollout.py [STEPS]`.
"""

from __future__ import annotations

import base64
import sys
import tempfile
import threading
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

from infra.computer_use.coords import Geometry, Space
from infra.computer_use.formats import ToolFormat, render_calls
from infra.contracts.policy import Observation, PolicyStep
from infra.desktop_venv import ensure_desktop_python
from infra.envs.base import EnvRole
from infra.envs.desktop import DesktopEnv, DesktopProvider
from infra.envs.local import WEB_APPS, HubRoute
from infra.hub.process import HubProcess
from infra.settings import PROJECT_ROOT, get_settings
from infra.trajectories import TrajectoryWriter
from skills.kit import load_families
from tasks.export import write_bundle
from tasks.rollout.runner import run_episode

STEP = [{"action": "left_click", "coordinate": [700, 500]}, {"action": "key", "keys": ["shift"]}]


class ReplayPolicy:
    """The same step every time, then terminate: the machinery's cost with no model behind it."""

    name, model, space, fmt = "scripted", "bench:replay", Space.SCREEN, ToolFormat.XML
    geometry = Geometry(space=Space.SCREEN)

    def __init__(self, steps: int) -> None:
        self.steps = steps
        self.encode_s = 0.0

    def start(self, task, screen, desktop) -> None:
        self.encode_s = 0.0

    def step(self, observation: Observation) -> PolicyStep:
        started = time.perf_counter()  # what an LLM policy does with every screenshot before sending it
        self.last_url = "data:image/png;base64," + base64.b64encode(observation.screenshot_png).decode()
        self.encode_s += time.perf_counter() - started
        done = observation.step >= self.steps - 1
        calls = [{"action": "terminate", "status": "success"}] if done else STEP
        return PolicyStep(assistant_raw=render_calls(calls, self.fmt), calls=calls)

    def close(self) -> None:
        pass


def _bundle(out: Path, family_id: str, seed: int) -> tuple[Path, object, str]:
    family = load_families(PROJECT_ROOT / "skills")[family_id]
    spec = family.instantiate(seed)
    bundle = write_bundle(
        out,
        spec,
        initial_setup_py=family.script("initial_setup", spec),
        golden_patch_py=family.script("golden_patch", spec),
        reward_py=family.script("reward", spec),
        review_md="bench\n",
        provenance={},
    )
    return bundle, spec, family.script("reward", spec)


def _set_up(
    provider: DesktopProvider, work: Path, family_id: str, seed: int
) -> tuple[DesktopEnv, object, str]:
    bundle, spec, reward = _bundle(work / f"final-{family_id}-{seed}", family_id, seed)
    env = provider.provision(spec.id, EnvRole.ROLLOUT, apps=spec.apps)
    env.setup_from_config(bundle / "config.json", timeout_s=240)
    return env, spec, reward


def per_step(provider: DesktopProvider, work: Path, steps: int) -> dict[str, float]:
    env, spec, reward = _set_up(provider, work, "calc.padded_ids", 0)
    writer = TrajectoryWriter(work / "dataset-overhead")
    try:
        policy = ReplayPolicy(steps)
        episode = run_episode(env, spec, reward, policy, max_steps=steps, settle_s=0.0, grade_after_s=0.0)
        started = time.perf_counter()
        writer.write(episode.trajectory, episode.screenshots)
        write_s = time.perf_counter() - started
    finally:
        writer.close()
        env.close()
    t, n = episode.timings, episode.timings.model_steps
    out = {
        "screenshot": t.screenshot_s / n,
        "encode for the model": policy.encode_s / n,
        "execute (click + key, cursor_before each)": t.execute_s / n,
        "dataset write (shard + record)": write_s / n,
    }
    out["total"] = sum(out.values())
    return out


def steps_per_second(provider: DesktopProvider, work: Path, count: int, steps: int) -> float:
    desktops = [_set_up(provider, work, "calc.padded_ids", 10 + i) for i in range(count)]
    writer = TrajectoryWriter(work / f"dataset-{count}")
    done: list[int] = []

    def drive(env, spec, reward) -> None:
        episode = run_episode(
            env, spec, reward, ReplayPolicy(steps), max_steps=steps, settle_s=0.0, grade_after_s=0.0
        )
        writer.write(episode.trajectory, episode.screenshots)
        done.append(episode.timings.model_steps)

    try:
        threads = [threading.Thread(target=drive, args=d) for d in desktops]
        started = time.perf_counter()
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        wall = time.perf_counter() - started  # includes each episode's grading (one reward.py run)
    finally:
        writer.close()
        for env, _, _ in desktops:
            env.close()
    return sum(done) / wall


def memory(provider: DesktopProvider, work: Path) -> dict[str, float]:
    out = {}
    for label, family_id in (
        ("Calc (workbook open)", "calc.padded_ids"),
        ("Chromium (chat open)", "chat.thread_reply_react"),
    ):
        env, _, _ = _set_up(provider, work, family_id, 0)
        try:
            time.sleep(2.0)  # let the app finish its start-up allocations
            out[label] = env.memory().pss_mb
        finally:
            env.close()
    return out


def main(steps: int = 40) -> None:
    settings = get_settings()
    python = ensure_desktop_python(settings.desktop_venv_path)
    work = Path(tempfile.mkdtemp(prefix="bench-rollout-"))
    console = Console()
    with HubProcess(work / "hub", Path(tempfile.mkdtemp(prefix="cuagym-hub-")) / "hub.sock") as hub:
        provider = DesktopProvider(work / "envs", python, hub=HubRoute(hub.uds, WEB_APPS))
        provider.provision("warm-up", EnvRole.DEBUG).close()
        overhead = per_step(provider, work, steps)
        rates = {n: steps_per_second(provider, work, n, steps) for n in (1, 2)}
        mem = memory(provider, work)
    table = Table(title=f"rollout machinery per model step ({steps} steps, Calc, policy time excluded)")
    table.add_column("part")
    table.add_column("ms", justify="right")
    for part, seconds in overhead.items():
        table.add_row(part, f"{seconds * 1e3:.1f}")
    console.print(table)
    verdict = "within" if overhead["total"] <= 0.100 else "OVER"
    console.print(f"per-step overhead {overhead['total'] * 1e3:.0f} ms: {verdict} the 100 ms target")
    rate = Table(title="steps per second (settle off, grading included)")
    rate.add_column("desktops side by side", justify="right")
    rate.add_column("steps/s in all", justify="right")
    rate.add_column("per desktop", justify="right")
    for n, r in rates.items():
        rate.add_row(str(n), f"{r:.1f}", f"{r / n:.1f}")
    console.print(rate)
    console.print(f"2 desktops / 1 desktop: {rates[2] / rates[1]:.2f}× the steps per second")
    memt = Table(title="memory per desktop (PSS)")
    memt.add_column("desktop")
    memt.add_column("MB", justify="right")
    for label, mb in mem.items():
        memt.add_row(label, f"{mb:.0f}")
    console.print(memt)


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 40)
