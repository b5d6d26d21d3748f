"""The contamination report's data and chart (`cuagym report contamination`)."""

from __future__ import annotations

from pathlib import Path

from infra.library_env import apply_library_defaults
from warehouse.reports import contaminated_tuples, contamination_report


def _dicts(result) -> list[dict]:
    return [dict(zip(result.columns, row, strict=True)) for row in result.rows]


def contamination_by_family(warehouse: Path, app: str | None = None) -> list[dict]:
    return _dicts(contamination_report(warehouse, app))


def contaminated(warehouse: Path, app: str | None = None) -> list[dict]:
    return _dicts(contaminated_tuples(warehouse, app))


def contamination_chart(rows: list[dict], target: Path) -> Path:
    """One bar per family: tuples checked, the contaminated part stacked in red, labelled by share."""
    apply_library_defaults()
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    labels = [f"{r['family']} ({r['app']})" for r in rows]
    clean = [r["checked"] - r["contaminated"] for r in rows]
    dirty = [r["contaminated"] for r in rows]
    fig, ax = plt.subplots(figsize=(max(6.0, 0.4 * len(rows) + 2), 4.8))
    ax.bar(labels, clean, color="#90a4ae", label="clean")
    ax.bar(labels, dirty, bottom=clean, color="#c0392b", label="contaminated")
    for x, r in enumerate(rows):
        ax.text(x, r["checked"], f"{r['contaminated_share']:.0%}", ha="center", va="bottom", fontsize=7)
    ax.set_ylabel("tuples checked")
    checked = sum(r["checked"] for r in rows)
    share = sum(dirty) / checked if checked else 0.0
    ax.set_title(f"decontamination: {sum(dirty)}/{checked} tuples contaminated ({share:.1%})")
    ax.tick_params(axis="x", rotation=75, labelsize=7)
    ax.legend(loc="upper right", fontsize=8)
    fig.tight_layout()
    target.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(target, dpi=110)
    plt.close(fig)
    return target
