"""Progress events: flows log one record per finished unit on this logger; whoever shows progress
(the CLI's rich bar, the Prefect UI's logs) listens. Keeps UI code out of flows and tasks."""

from __future__ import annotations

import logging

progress_log = logging.getLogger("tasks.progress")


def emit_progress(kind: str, done: int, total: int, **fields: object) -> None:
    """Emit `<kind> done/total` with structured fields under `record.cuagym_progress`."""
    summary = " ".join(f"{k}={v}" for k, v in fields.items())
    progress_log.info(
        "%s %d/%d %s",
        kind,
        done,
        total,
        summary,
        extra={"cuagym_progress": {"kind": kind, "done": done, "total": total, **fields}},
    )
