"""The operator's Prefect server, brought up in order and recorded so another process can stop it:
PostgreSQL -> `prefect server start` on it -> the `cuagym` process work pool -> `prefect deploy
--all` -> `prefect worker start`. `start()` returns once the worker polls the pool; the processes
keep running until `stop()` (possibly in a later command, from `<state_dir>/server.json`).

    stack = OperatorServer(Path("var/prefect-server"), port=4200)
    state = stack.start()   # state.ui_url: http://127.0.0.1:4200
    stack.stop()
"""

from __future__ import annotations

import contextlib
import logging
import os
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import yaml
from pydantic import BaseModel

from infra.errors import ConfigError
from infra.server.daemon import Daemon
from infra.server.postgres import PostgresCluster
from infra.server.prefect_server import PrefectServerError, start_server, wait_healthy
from infra.server.work_pool import deploy_all, ensure_process_pool, start_worker, wait_worker_ready
from infra.settings import PROJECT_ROOT

DATABASE = "prefect"
HOST = "127.0.0.1"

log = logging.getLogger(__name__)


class ServerState(BaseModel):
    """What `start` leaves in server.json for `stop` (and for an operator to read)."""

    api_url: str
    ui_url: str
    pool: str
    postgres_dir: Path
    postgres_port: int
    server: Daemon
    worker: Daemon


class OperatorServer:
    """`env` is added to the environment of the server, the deploy and the worker (and so of every
    flow run): the CUAGYM_* settings and PREFECT_HOME go there."""

    def __init__(
        self,
        state_dir: Path,
        *,
        port: int = 4200,
        pool: str = "cuagym",
        postgres_dir: Path | None = None,
        env: dict[str, str] | None = None,
        project: Path = PROJECT_ROOT,
    ) -> None:
        self.state_dir = state_dir.resolve()
        self.port = port
        self.pool = pool
        self.postgres_dir = (postgres_dir or self.state_dir / "postgres").resolve()
        self.extra_env = env or {}
        self.project = project
        self.state_file = self.state_dir / "server.json"

    @property
    def api_url(self) -> str:
        return f"http://{HOST}:{self.port}/api"

    def read_state(self) -> ServerState | None:
        if not self.state_file.is_file():
            return None
        return ServerState.model_validate_json(self.state_file.read_text())

    def running_state(self) -> ServerState | None:
        """The recorded stack's state while its server and worker are both up, else None."""
        state = self.read_state()
        return state if state and state.server.running() and state.worker.running() else None

    def start(self) -> ServerState:
        """Bring everything up, or return the running stack's state if it is up already."""
        if (state := self.running_state()) is not None:
            return state
        if self.read_state():  # a stack that half died (a reboot, a kill): clear it before starting afresh
            self.stop()
        _check_port_free(self.port)
        self.state_dir.mkdir(parents=True, exist_ok=True)
        postgres = PostgresCluster(self.postgres_dir, port=_free_port())
        with _step(f"PostgreSQL on 127.0.0.1:{postgres.port} ({self.postgres_dir})"):
            postgres.ensure_initialised()
            postgres.start()
        try:
            postgres.create_database(DATABASE)
            server, worker = self._start_prefect(postgres.url(DATABASE))
        except BaseException:
            postgres.stop()
            raise
        state = ServerState(
            api_url=self.api_url,
            ui_url=f"http://{HOST}:{self.port}",
            pool=self.pool,
            postgres_dir=self.postgres_dir,
            postgres_port=postgres.port,
            server=server,
            worker=worker,
        )
        self.state_file.write_text(state.model_dump_json(indent=2))
        return state

    def _start_prefect(self, database_url: str) -> tuple[Daemon, Daemon]:
        """The server, the pool and its deployments, the worker; on any failure none is left running."""
        env, logs = self._env(), self.state_dir / "logs"
        started: list[Daemon] = []
        try:
            with _step(f"prefect server on {self.api_url}"):
                server = start_server(
                    host=HOST, port=self.port, database_url=database_url, env=env, cwd=self.state_dir,
                    log=logs / "server.log",
                )  # fmt: skip
                started.append(server)
                wait_healthy(self.api_url, server)
            with _step(f"prefect.yaml's deployments on the `{self.pool}` process work pool"):
                ensure_process_pool(self.api_url, self.pool, env=env, cwd=self.state_dir)
                deploy_all(self.project, env=env)
                _check_all_deployed(self.api_url, self.project)
            with _step("a process worker"):
                worker = start_worker(self.pool, env=env, cwd=self.project, log=logs / "worker.log")
                started.append(worker)
                wait_worker_ready(self.api_url, self.pool, worker)
        except BaseException:
            for daemon in reversed(started):
                daemon.stop()
            raise
        return server, worker

    def stop(self) -> bool:
        """Stop the worker, then the server, then PostgreSQL; False if nothing was recorded."""
        state = self.read_state()
        if state is None:
            return False
        state.worker.stop()
        state.server.stop()
        PostgresCluster(state.postgres_dir, port=state.postgres_port).stop()
        self.state_file.unlink()
        return True

    def _env(self) -> dict[str, str]:
        return {
            **os.environ,
            **self.extra_env,
            "PREFECT_API_URL": self.api_url,
            "CUAGYM_CHECKOUT": str(self.project),  # prefect.yaml's pull step enters it
        }


@contextlib.contextmanager
def _step(what: str) -> Iterator[None]:
    started = time.monotonic()
    yield
    log.info("%s: up in %.1f s", what, time.monotonic() - started)


def _check_all_deployed(api_url: str, project: Path) -> None:
    """Every deployment prefect.yaml names is on the server (`deploy --all` skips an unnamed one and
    still exits 0), so an operator finds in the UI what the file promises."""
    specs = yaml.safe_load((project / "prefect.yaml").read_text())["deployments"]
    wanted = {spec.get("name", "<unnamed>") for spec in specs}
    reply = httpx.post(f"{api_url}/deployments/filter", json={"limit": 200}, timeout=10.0)
    reply.raise_for_status()
    missing = wanted - {d["name"] for d in reply.json()}
    if missing:
        raise PrefectServerError(
            f"prefect.yaml's {', '.join(sorted(missing))} did not deploy",
            hint="run `prefect deploy --all` in the checkout with PREFECT_API_URL set to see why",
        )


def _check_port_free(port: int) -> None:
    with socket.socket() as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as the server binds: TIME_WAIT is free
        try:
            sock.bind((HOST, port))
        except OSError:
            raise ConfigError(
                f"port {port} on {HOST} is taken", hint="stop what uses it or pass --port"
            ) from None


def _free_port() -> int:
    with contextlib.closing(socket.socket()) as sock:
        sock.bind((HOST, 0))
        return sock.getsockname()[1]
