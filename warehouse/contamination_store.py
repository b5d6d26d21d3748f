"""The decontamination stage's rows, mixed into `Warehouse` (warehouse/store.py): one verdict per
checked tuple, and a contaminated tuple's status, in one transaction."""

from __future__ import annotations

from warehouse.db import sql
from warehouse.values import now as _now


class ContaminationRows:
    """Contamination rows (see the module docstring); needs `_write`."""

    def save_contamination(self, row: dict) -> None:
        """Record a verdict; a `contaminated` one also takes the tuple out of the export."""
        now = _now()
        with self._write() as con:
            con.execute(sql("insert_contamination"), row | {"created_at": now})
            if row["decision"] == "contaminated":
                con.execute(sql("mark_contaminated"), {"tuple_id": row["tuple_id"], "now": now})
                con.execute(sql("mark_attempt_contaminated"), {"tuple_id": row["tuple_id"]})
