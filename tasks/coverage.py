"""Coverage and yield of a run, as rows for tables and as a PNG chart of coverage against quota."""

from __future__ import annotations

from pathlib import Path

from infra.library_env import apply_library_defaults
from warehouse.query import QueryResult
from warehouse.reports import run_report

DIMENSIONS = ("app", "domain", "difficulty", "scope", "scenario")


def coverage(warehouse: Path, run_id: str | None = None) -> list[dict]:
    return _dicts(run_report(warehouse, "report_coverage", {"run_id": run_id}))


def yield_by_stage(warehouse: Path, run_id: str | None = None) -> list[dict]:
    return _dicts(run_report(warehouse, "report_yield", {"run_id": run_id}))


def _dicts(result: QueryResult) -> list[dict]:
    return [dict(zip(result.columns, row, strict=True)) for row in result.rows]


def coverage_chart(rows: list[dict], target: Path) -> Path:
    """One panel per dimension: bars are shares of the batch, red lines the (effective) quotas."""
    apply_library_defaults()
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    dims = [d for d in DIMENSIONS if any(r["dimension"] == d for r in rows)]
    fig, axes = plt.subplots(1, len(dims), figsize=(4.2 * len(dims), 4.2), squeeze=False)
    run = rows[0]["run_id"] if rows else "no run"
    for ax, dim in zip(axes[0], dims, strict=True):
        cells = [r for r in rows if r["dimension"] == dim]
        names = [str(r["value"]) for r in cells]
        shares = [r["share"] for r in cells]
        colors = ["#c0392b" if r["within_quota"] is False else "#2e86c1" for r in cells]
        ax.bar(names, shares, color=colors)
        for i, r in enumerate(cells):
            if r["quota_effective"] is not None:
                style = "-" if r["bound"] == "max" else "--"
                ax.hlines(r["quota_effective"], i - 0.4, i + 0.4, colors="#c0392b", linestyles=style)
                if (
                    abs(r["quota_asked"] - r["quota_effective"]) > 1e-6
                ):  # relaxed: show the paper's target too
                    ax.hlines(r["quota_asked"], i - 0.4, i + 0.4, colors="#7f8c8d", linestyles=":")
        ax.set_title(dim)
        ax.set_ylim(0, max([*shares, *[r["quota_effective"] or 0 for r in cells], 0.05]) * 1.2)
        ax.tick_params(axis="x", rotation=60, labelsize=8)
        ax.set_ylabel("share of batch")
    fig.suptitle(
        f"coverage of {run} — red line: quota max, red dashes: quota min, grey dots: asked quota "
        "where infeasible; red bar: outside quota"
    )
    fig.tight_layout()
    target.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(target, dpi=110)
    plt.close(fig)
    return target


def quota_notes(warehouse: Path, run_id: str | None = None) -> list[dict]:
    return _dicts(run_report(warehouse, "report_quotas", {"run_id": run_id}))
