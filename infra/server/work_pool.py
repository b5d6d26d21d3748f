"""The deployments of prefect.yaml on a process work pool, and the worker that runs them.

`prefect deploy --all` registers what prefect.yaml says (entrypoints, default parameters, the
nightly cron, the pull step that enters the checkout) exactly as an operator would by hand. The
worker runs each flow run as a child process of its own interpreter, with the worker's environment:
that is how flow runs find the checkout (`CUAGYM_CHECKOUT`, read by the pull step) and the
`CUAGYM_*` settings that say which warehouse and output folder they write.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import httpx

from infra.server.daemon import Daemon
from infra.server.prefect_server import PrefectServerError, poll_until, prefect_cli


def ensure_process_pool(api_url: str, pool: str, *, env: dict[str, str], cwd: Path) -> None:
    """Create the pool unless it exists (an operator's edits to it in the UI are kept)."""
    if httpx.get(f"{api_url}/work_pools/{pool}", timeout=10.0).status_code == 200:
        return
    _cli(["work-pool", "create", pool, "--type", "process"], env=env, cwd=cwd, what="work-pool create")


def deploy_all(project: Path, *, env: dict[str, str]) -> None:
    """`prefect deploy --all` from the checkout (it reads ./prefect.yaml and imports each flow)."""
    _cli(["--no-prompt", "deploy", "--all"], env=env, cwd=project, what="deploy --all")


def start_worker(pool: str, *, env: dict[str, str], cwd: Path, log: Path) -> Daemon:
    argv = prefect_cli("worker", "start", "--pool", pool, "--type", "process")
    return Daemon.spawn("prefect-worker", argv, env=env, cwd=cwd, log=log)


def wait_worker_ready(api_url: str, pool: str, worker: Daemon, *, timeout_s: float = 120.0) -> None:
    """A pool turns READY once a worker polls it: then runs created now will be picked up."""

    def ready(client) -> bool:
        reply = client.get(f"{api_url}/work_pools/{pool}")
        return reply.status_code == 200 and reply.json().get("status") == "READY"

    poll_until(
        ready, worker, what="`prefect worker start`", timeout_s=timeout_s,
        late=f"no worker polled the `{pool}` work pool within {timeout_s:g} s",
    )  # fmt: skip


def _cli(args: list[str], *, env: dict[str, str], cwd: Path, what: str) -> None:
    try:
        out = subprocess.run(
            prefect_cli(*args), env=env, cwd=cwd, capture_output=True, text=True, timeout=600
        )
    except subprocess.TimeoutExpired:
        raise PrefectServerError(
            f"`prefect {what}` did not finish in 600 s", hint="is the server up?"
        ) from None
    if out.returncode != 0:
        raise PrefectServerError(
            f"`prefect {what}` failed:\n{(out.stdout + out.stderr).strip()[-3000:]}",
            hint="see the output above (a flow that fails to import fails its deployment)",
        )
