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
    deadline = time.monotonic() + timeout_s
    with httpx.Client(timeout=5.0) as client:
        while time.monotonic() < deadline:
            if not server.running():
                raise PrefectServerError(
                    f"`prefect server start` exited:\n{server.log_tail()}", hint=f"see {server.log}"
                )
            try:
                if client.get(f"{api_url}/health").status_code == 200:
                    return
            except httpx.HTTPError:
                pass  # not listening yet
            time.sleep(0.5)
    raise PrefectServerError(
        f"the Prefect server did not answer {api_url}/health within {timeout_s:g} s",
        hint=f"see {server.log}",
    )
