"""The host's client of one desktop's in-guest server, over its Unix socket (no TCP, no forwarder) or,
for a VM whose server QEMU forwards to a loopback port (the `libvirt` provider), over TCP.

Every call has a timeout; every failure raises: `DesktopServerError` (status and body of the HTTP
error) when the server answered with one, `DesktopError` when it could not be reached. A command
that ran and exited non-zero is not an error here — `ExecResult.returncode` carries it, as in
OSWorld's /execute.
"""

from __future__ import annotations

import json
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import httpx
from pydantic import BaseModel

from infra.envs.base import EnvRole, FolderEnv
from infra.errors import DesktopError, DesktopServerError
from infra.sandbox import EXIT_TIMEOUT, SandboxResult

# Headroom on top of a route's own time budget, so the server's answer (even a 500 for its own
# timeout) arrives before the client gives up.
_MARGIN_S = 15.0


class ExecResult(BaseModel):
    returncode: int
    output: str
    error: str
    duration_s: float = 0.0


class CommandTimeout(DesktopError):
    """A command run through /execute outlived its timeout and was killed (with its process group)."""


class DesktopClient:
    """Typed calls to the OSWorld routes. Thread-safe (httpx.Client is).

    `DesktopClient(socket_path, token)` speaks over a Unix socket; `DesktopClient.over_tcp(host, port,
    token)` over TCP (proxy variables ignored: the server is always on this machine's loopback)."""

    def __init__(
        self,
        socket_path: Path | None,
        token: str,
        *,
        timeout_s: float = 60.0,
        tcp: tuple[str, int] | None = None,
    ) -> None:
        if (socket_path is None) == (tcp is None):
            raise ValueError("give exactly one of socket_path and tcp")
        self.socket_path = socket_path
        self.tcp = tcp
        self.address = str(socket_path) if tcp is None else f"{tcp[0]}:{tcp[1]}"
        self._http = httpx.Client(
            transport=httpx.HTTPTransport(uds=str(socket_path)) if tcp is None else httpx.HTTPTransport(),
            base_url="http://desktop" if tcp is None else f"http://{tcp[0]}:{tcp[1]}",
            headers={"Authorization": f"Bearer {token}"},
            timeout=timeout_s,
            trust_env=False,
        )

    @classmethod
    def over_tcp(cls, host: str, port: int, token: str, *, timeout_s: float = 60.0) -> DesktopClient:
        return cls(None, token, timeout_s=timeout_s, tcp=(host, port))

    def _call(
        self, method: str, path: str, *, timeout_s: float | None = None, **kwargs: Any
    ) -> httpx.Response:
        try:
            response = self._http.request(
                method, path, timeout=timeout_s or httpx.USE_CLIENT_DEFAULT, **kwargs
            )
        except httpx.TimeoutException as exc:
            raise DesktopError(
                f"{method} {path} got no answer in time: {exc}",
                hint="the desktop may be overloaded; see its desktop.log",
            ) from None
        except httpx.TransportError as exc:
            raise DesktopError(
                f"cannot reach the desktop's server at {self.address}: {exc}",
                hint="the desktop is closed or crashed; reset it or provision a new one",
            ) from None
        if response.status_code >= 400:
            body = response.text[:2000]
            raise DesktopServerError(
                f"{method} {path} failed with HTTP {response.status_code}: {body}",
                hint=_hint(response.status_code),
                status=response.status_code,
                body=body,
            )
        return response

    def health(self) -> dict[str, Any]:
        return self._call("GET", "/cuagym/health", timeout_s=10).json()

    def screenshot(self) -> bytes:
        return self._call("GET", "/screenshot", timeout_s=30).content

    def execute(
        self,
        command: list[str] | str,
        *,
        shell: bool = False,
        timeout_s: float = 120.0,
        env: Mapping[str, str] | None = None,
    ) -> ExecResult:
        """Run a command to completion in the guest; raises CommandTimeout after `timeout_s`."""
        payload: dict[str, Any] = {"command": command, "shell": shell, "timeout": timeout_s}
        if env:
            payload["env"] = dict(env)
        try:
            response = self._call("POST", "/execute", json=payload, timeout_s=timeout_s + _MARGIN_S)
        except DesktopServerError as exc:
            body = parse_json(exc.body)
            if exc.status == 500 and isinstance(body, dict) and body.get("timed_out"):
                raise CommandTimeout(
                    f"{command!r} timed out after {timeout_s:g} s",
                    hint="raise the timeout, or check the command does not wait for input",
                ) from None
            raise
        data = response.json()
        return ExecResult(
            returncode=data["returncode"],
            output=data["output"],
            error=data["error"],
            duration_s=response.elapsed.total_seconds(),
        )

    def run_script(
        self, argv: list[str], *, timeout_s: float, env: Mapping[str, str] | None = None
    ) -> SandboxResult:
        """`execute` as an env's run_script reports it: a timeout is a result (timed_out, the
        sandbox's timeout exit code), not an exception."""
        started = time.monotonic()
        try:
            result = self.execute(argv, timeout_s=timeout_s, env=env)
        except CommandTimeout as exc:
            return SandboxResult(
                exit_code=EXIT_TIMEOUT,
                stdout="",
                stderr=str(exc),
                timed_out=True,
                duration_s=round(time.monotonic() - started, 4),
            )
        return SandboxResult(
            exit_code=result.returncode,
            stdout=result.output,
            stderr=result.error,
            duration_s=round(time.monotonic() - started, 4),
        )

    def upload(self, guest_path: str, data: bytes) -> None:
        files = {"file_data": (Path(guest_path).name, data)}
        self._call("POST", "/setup/upload", data={"file_path": guest_path}, files=files, timeout_s=120)

    def read_file(self, guest_path: str) -> bytes:
        return self._call("POST", "/file", data={"file_path": guest_path}, timeout_s=120).content

    def list_directory(self, guest_path: str) -> dict[str, Any]:
        return self._call("POST", "/list_directory", json={"path": guest_path}).json()["directory_tree"]

    def launch(self, command: list[str] | str, *, shell: bool = False) -> None:
        self._call("POST", "/setup/launch", json={"command": command, "shell": shell})

    def open_file(self, guest_path: str, *, timeout_s: float = 120.0, window_name: str | None = None) -> None:
        """Open a file in its app and return once its window is up and active."""
        payload: dict[str, Any] = {"path": guest_path, "timeout_seconds": timeout_s}
        if window_name:
            payload["window_name"] = window_name
        self._call("POST", "/setup/open_file", json=payload, timeout_s=timeout_s + _MARGIN_S)

    def activate_window(self, window_name: str, *, strict: bool = False, by_class: bool = False) -> None:
        self._call(
            "POST",
            "/setup/activate_window",
            json={"window_name": window_name, "strict": strict, "by_class": by_class},
        )

    def close_window(self, window_name: str, *, strict: bool = False, by_class: bool = False) -> None:
        self._call(
            "POST",
            "/setup/close_window",
            json={"window_name": window_name, "strict": strict, "by_class": by_class},
        )

    def accessibility_tree(self) -> str:
        return self._call("GET", "/accessibility", timeout_s=150).json()["AT"]

    def screen_size(self) -> tuple[int, int]:
        data = self._call("POST", "/screen_size").json()
        return data["width"], data["height"]

    def cursor_position(self) -> tuple[int, int]:
        x, y = self._call("GET", "/cursor_position").json()
        return x, y

    def close(self) -> None:
        self._http.close()


def _hint(status: int) -> str:
    return {
        400: "the request was malformed; see the message for the missing or bad field",
        401: "the token is wrong: use the token of this desktop (env.token)",
        404: "the file, program or window does not exist in the guest",
        422: "the guest has no application for that file type",
        503: "the desktop was started without accessibility (or at-spi2-core is missing)",
    }.get(status, "see the message; the desktop's desktop.log has the server side")


def parse_json(text: str) -> Any:
    """JSON of a server body, or the raw text when it is not JSON (plain-text replies)."""
    try:
        return json.loads(text)
    except ValueError:
        return text


class ServerEnv(FolderEnv):
    """A folder env whose guest runs the in-guest server (the desktop and libvirt envs): `client`
    reaches it while the guest runs, and closing closes the client before the guest is released."""

    kind = "guest"  # what the error calls the env
    not_running_hint = "start it through its provider"

    def __init__(self, provider: Any, env_id: str, task_id: str, role: EnvRole, root: Path) -> None:
        super().__init__(provider, env_id, task_id, role, root)
        self._client: DesktopClient | None = None

    @property
    def client(self) -> DesktopClient:
        self._check_open()
        if self._client is None:
            raise DesktopError(f"{self.kind} {self.id} is not running", hint=self.not_running_hint)
        return self._client

    def _release(self) -> None:
        if self._client is not None:
            self._client.close()
            self._client = None
