"""The publish step every flow with an `--out` ends its coarse stages with (tasks/publish.py)."""

from __future__ import annotations

from pathlib import Path

from prefect import task
from prefect.cache_policies import NO_CACHE

from flows.retry_policy import retry_transient
from infra.storage import PublishReport
from tasks.publish import publish_output, restore_output


@task(
    name="publish-output",
    cache_policy=NO_CACHE,
    retries=2,
    retry_delay_seconds=[5, 30],
    retry_condition_fn=retry_transient,
)
def publish_output_task(out: str | None, local: Path) -> PublishReport | None:
    return publish_output(out, local)


@task(
    name="restore-output",
    cache_policy=NO_CACHE,
    retries=2,
    retry_delay_seconds=[5, 30],
    retry_condition_fn=retry_transient,
)
def restore_output_task(out: str | None, local: Path) -> int:
    return restore_output(out, local)
