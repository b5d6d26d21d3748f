"""`cuagym report mutation`: mutation scores per family and app, the surviving mutants, and a chart."""

from __future__ import annotations

from pathlib import Path

from infra.library_env import apply_library_defaults
from warehouse.reports import run_report


def _dicts(result) -> list[dict]:
    return [dict(zip(result.columns, row, strict=True)) for row in result.rows]


def mutation_by_family(warehouse: Path, run_id: str | None = None) -> list[dict]:
    return _dicts(run_report(warehouse, "report_mutation", {"run_id": run_id}))


def surviving_mutants(warehouse: Path, run_id: str | None = None) -> list[dict]:
    return _dicts(run_report(warehouse, "report_survivors", {"run_id": run_id}))


def mutation_chart(rows: list[dict], target: Path) -> Path:
    """One bar per family (its mutation score), coloured by app; lines at the 95 % and 80 % targets."""
    import matplotlib.pyplot as plt

    fig = mutation_figure(rows)
    target.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(target, dpi=110)
    plt.close(fig)
    return target


def mutation_figure(rows: list[dict]):
    """The chart of `mutation_chart` as a matplotlib Figure (its legend names the apps)."""
    apply_library_defaults()
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = [r for r in rows if r["mutation_score"] is not None]
    apps = sorted({r["app"] for r in rows})
    palette = plt.get_cmap("tab10")
    fig, ax = plt.subplots(figsize=(max(6.0, 0.32 * len(rows) + 2), 4.8))
    ax.bar(
        [r["family"] for r in rows],
        [r["mutation_score"] for r in rows],
        color=[palette(apps.index(r["app"]) % 10) for r in rows],
    )
    ax.axhline(0.95, color="#2e7d32", linestyle="--", linewidth=1, label="95 % (overall target)")
    ax.axhline(0.80, color="#c0392b", linestyle=":", linewidth=1, label="80 % (per-family floor)")
    ax.set_ylim(0, 1.05)
    ax.set_ylabel("mutants killed / mutants")
    ax.tick_params(axis="x", rotation=75, labelsize=7)
    # the bars' colours name the apps: one legend entry per app beside the two target lines
    from matplotlib.patches import Patch

    handles = [Patch(color=palette(i % 10), label=app) for i, app in enumerate(apps)]
    ax.legend(handles=ax.get_legend_handles_labels()[0] + handles, loc="lower right", fontsize=8)
    total = sum(r["mutants"] or 0 for r in rows)
    killed = sum(r["killed"] or 0 for r in rows)
    overall = killed / total if total else float("nan")
    ax.set_title(f"mutation score per family — overall {killed}/{total} = {overall:.1%}")
    fig.tight_layout()
    return fig
