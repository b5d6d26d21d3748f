"""What every command shares: the stderr console, the error handler and the log setup.

A `CuagymError` is expected (bad input, a missing tool): it becomes `error:` / `hint:` and exit 1,
and log records carrying one are printed as one line. Any other exception keeps its traceback,
because those are bugs.
"""

from __future__ import annotations

import functools
import logging
import sys

from rich.console import Console

from infra.errors import CuagymError

console = Console(stderr=True)


class ExpectedErrorsInOneLine(logging.Filter):
    """Log records of an expected, typed failure (a CuagymError, e.g. a task re-raised by Prefect's
    engine) as one line without a traceback: the command ends with `error:`/`hint:` anyway."""

    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        if isinstance(exc, CuagymError):
            record.exc_info = None
            record.exc_text = None
            record.msg, record.args = "%s", (record.getMessage().splitlines()[0],)
        return True


def handle_errors(fn):
    """Print a CuagymError as `error: … / hint: …` and exit 1 instead of a traceback."""

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except CuagymError as exc:
            console.print(f"[bold red]error:[/] {exc.message}")
            console.print(f"[yellow]hint:[/] {exc.hint}")
            sys.exit(1)

    return wrapper


def configure_logging(verbose: int) -> None:
    level = {0: logging.WARNING, 1: logging.INFO}.get(verbose, logging.DEBUG)
    handler = logging.StreamHandler()
    # The handler's level, not the root's, is what filters records propagated from child loggers
    # (Prefect's run loggers are at INFO and would otherwise print every task run).
    handler.setLevel(level)
    handler.setFormatter(logging.Formatter("%(levelname)s %(name)s: %(message)s"))
    handler.addFilter(ExpectedErrorsInOneLine())
    logging.getLogger().addHandler(handler)
