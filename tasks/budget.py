"""When a budgeted synthesis run may stop: enough verified tuples, and every app at its minimum."""

from __future__ import annotations

from collections import Counter

from infra.settings import get_settings
from tasks.models import RunSummary, SynthParams, TeacherSummary, TupleStatus
from tasks.plan import quotas_path
from tasks.quotas import load_quotas

VERIFIED = (TupleStatus.VERIFIED, TupleStatus.EXPORTED)


def budget_shortfall(params: SynthParams, batches: list[RunSummary]) -> str:
    """What is still missing ('' when the run may stop): the verified budget and per-app minima."""
    outcomes = [o for b in batches for o in b.outcomes]
    verified = [o for o in outcomes if o.status in VERIFIED]
    missing = []
    if params.verified_budget and len(verified) < params.verified_budget:
        missing.append(f"{len(verified)}/{params.verified_budget} verified")
    minimum = load_quotas(quotas_path(params, get_settings())).min_per_app
    per_app = Counter(app for o in verified for app in o.apps)
    apps = sorted({app for o in outcomes for app in o.apps})
    short = [app for app in apps if per_app[app] < minimum]
    if short:
        missing.append(f"apps below {minimum} verified: {', '.join(short)}")
    return "; ".join(missing)


def merge_summaries(batches: list[RunSummary]) -> RunSummary:
    """One summary for the CLI: every batch's outcomes, the last batch's run id, checks and chart."""
    if len(batches) == 1:
        return batches[0]
    last = batches[-1]
    return last.model_copy(
        update={
            "outcomes": [o for b in batches for o in b.outcomes],
            "seconds": round(sum(b.seconds for b in batches), 3),
            "checks_failed": sorted({f for b in batches for f in b.checks_failed}),
            "teacher": merge_teacher([b.teacher for b in batches if b.teacher is not None]),
        }
    )


def merge_teacher(stages: list[TeacherSummary]) -> TeacherSummary | None:
    if not stages:
        return None
    return TeacherSummary(
        dataset=stages[-1].dataset,
        rollouts=sum(s.rollouts for s in stages),
        solved=[t for s in stages for t in s.solved],
        failed=[t for s in stages for t in s.failed],
        untaught=sum(s.untaught for s in stages),
        disagreements=[t for s in stages for t in s.disagreements],
        errors=sum(s.errors for s in stages),
    )
