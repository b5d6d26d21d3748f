"""The quality flow's rows, mixed into `Warehouse` (warehouse/store.py): one row per family instance
checked, written as each finishes (one short transaction), read back per run."""

from __future__ import annotations

from warehouse.db import sql
from warehouse.values import now as _now
from warehouse.values import to_json as _json


class QualityRows:
    """Quality rows (see the module docstring); needs `_write` and `_rows`."""

    def save_quality(self, run_id: str, row: dict) -> None:
        """One checked instance; the same run checking it again replaces its row."""
        with self._write() as con:
            con.execute(
                sql("insert_quality"),
                row | {"run_id": run_id, "survivors": _json(row["survivors"]), "created_at": _now()},
            )

    def quality_rows(self, run_id: str) -> list[dict]:
        return self._rows("quality_rows", {"run_id": run_id})
