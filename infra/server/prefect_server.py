"""`prefect server start` on a PostgreSQL database, as a detached process that is up once
`/api/health` answers. The database URL (it holds the password) goes to the server process only."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import httpx

from infra.errors import CuagymError
from infra.server.daemon import Daemon


class PrefectServerError(CuagymError):
    """The Prefect server (or its worker, or a deploy) did not come up."""


def prefect_cli(*args: str) -> list[str]:
    """Prefect's CLI in our interpreter: the server, the worker and its flow runs share one venv."""
    return [sys.executable, "-m", "prefect", *args]


def start_server(
    *, host: str, port: int, database_url: str, env: dict[str, str], cwd: Path, log: Path
) -> Daemon:
    server_env = {
        **env,
        "PREFECT_API_DATABASE_CONNECTION_URL": database_url,
        "PREFECT_SERVER_ANALYTICS_ENABLED": "false",
    }
    argv = prefect_cli("server", "start", "--host", host, "--port", str(port))
    return Daemon.spawn("prefect-server", argv, env=server_env, cwd=cwd, log=log)


def wait_healthy(api_url: str, server: Daemon, *, timeout_s: float = 240.0) -> None:
    """Poll /api/health; the first start also runs the database migrations (~15 s on 2 cores)."""

    def healthy(client: httpx.Client) -> bool:
        try:
            return client.get(f"{api_url}/health").status_code == 200
        except httpx.HTTPError:
            return False  # not listening yet

    poll_until(
        healthy, server, what="`prefect server start`", timeout_s=timeout_s,
        late=f"the Prefect server did not answer {api_url}/health within {timeout_s:g} s",
    )  # fmt: skip


def poll_until(ready, daemon: Daemon, *, what: str, late: str, timeout_s: float) -> None:
    """Call `ready(client)` every 0.5 s until it is true; `daemon` exiting first, or `timeout_s`
    passing, is a PrefectServerError that points at its log."""
    deadline = time.monotonic() + timeout_s
    with httpx.Client(timeout=5.0) as client:
        while time.monotonic() < deadline:
            if not daemon.running():
                raise PrefectServerError(f"{what} exited:\n{daemon.log_tail()}", hint=f"see {daemon.log}")
            if ready(client):
                return
            time.sleep(0.5)
    raise PrefectServerError(late, hint=f"see {daemon.log}")
