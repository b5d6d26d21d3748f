"""The error vocabulary shared by every layer.

A `CuagymError` is something a user can act on: its `hint` says what to do next. A `TransientError`
is something a retry may fix (a busy sandbox, a timeout at a network edge); Prefect retries only
those (see flows/), everything else fails at once because a retry can only repeat it.
"""

from __future__ import annotations


class CuagymError(Exception):
    """An error the user can act on; `hint` says what to do next."""

    def __init__(self, message: str, *, hint: str) -> None:
        super().__init__(f"{message} (hint: {hint})")
        self.message = message
        self.hint = hint


class TransientError(Exception):
    """Retrying may succeed (timeouts, 5xx, a sandbox that failed to start)."""


class ConfigError(CuagymError):
    """A setting or parameter is invalid."""


class SandboxUnavailableError(CuagymError):
    """bubblewrap (or the guest Python) is not installed on this machine."""


class SandboxStartError(CuagymError, TransientError):
    """The sandbox itself failed to start (not the script inside it)."""


class EnvError(CuagymError):
    """An env provider cannot do what was asked (unknown env, closed env, unsupported capability)."""


class WarehouseLockedError(CuagymError, TransientError):
    """Another process holds the warehouse file for writing."""


class WarehouseError(CuagymError):
    """The warehouse file is missing, corrupt, or a query failed."""


class DesktopError(EnvError):
    """A desktop env (X server, window manager, in-guest server, an app) could not do what was asked."""


class DesktopStartError(DesktopError, TransientError):
    """A desktop did not come up (X server, window manager or in-guest server) within its timeout."""


class DesktopServerError(DesktopError):
    """The in-guest server answered a request with an HTTP error; `status` and `body` say which."""

    def __init__(self, message: str, *, hint: str, status: int = 0, body: str = "") -> None:
        super().__init__(message, hint=hint)
        self.status = status
        self.body = body
