"""Retry policy: only transient failures (a sandbox that failed to start, a timeout at a network
edge) are retried; anything else would fail the same way again."""

from __future__ import annotations

from infra.errors import TransientError


def retry_transient(task, task_run, state) -> bool:
    try:
        state.result()
    except TransientError:
        return True
    except Exception:
        return False
    return False
