"""The rollout flow end to end: bundles rolled out by their GUI teacher on real desktops, the dataset
and the warehouse written, the views answering, and a second run resuming instead of redoing."""

from __future__ import annotations

import pytest

from flows.rollout import rollout_flow
from infra.trajectories import Screenshots, read_trajectories
from tasks.models import RolloutParams
from warehouse.query import run_query

from .conftest import export_bundle

pytestmark = pytest.mark.slow


def test_rollouts_are_written_counted_and_resumed(
    prefect_harness, isolated_settings, families, tmp_path, desktop_python, monkeypatch
):
    from infra.settings import get_settings

    monkeypatch.setenv("CUAGYM_DESKTOP_VENV", str(desktop_python))  # the shared one, not a new build
    get_settings.cache_clear()
    bundles = [str(export_bundle(families, "calc.padded_ids", seed, tmp_path / "final")) for seed in (1, 2)]
    broken = tmp_path / "final" / "broken-bundle"
    broken.mkdir()
    (broken / "task.json").write_text("{not json")
    bundles.append(str(broken))
    params = RolloutParams(bundles=bundles, k=2, workers=2, out=str(tmp_path / "dataset"))
    summary = rollout_flow(params)
    assert len(summary.outcomes) == 4 and summary.solved == 4, summary.outcomes
    assert [tuple_id for tuple_id, _ in summary.skipped] == [str(broken)], summary.skipped

    records = list(read_trajectories(tmp_path / "dataset"))
    assert sorted(r.task_id for r in records) == sorted(o.rollout_id for o in summary.outcomes)
    assert all(r.reward == 1.0 and r.terminated and r.model.startswith("scripted:") for r in records)
    shots = Screenshots(tmp_path / "dataset")
    assert all(shots.read(s.shard, s.member).startswith(b"\x89PNG") for r in records for s in r.steps)
    shots.close()

    path = isolated_settings.warehouse_path
    (row,) = run_query(path, "SELECT rollouts, success_rate, pass_at_k FROM rollout_by_family").rows
    assert row == (4, 1.0, 1.0)
    assert run_query(path, "SELECT count(*) FROM rollout_steps").rows[0][0] == sum(
        len(r.steps) for r in records
    )
    assert run_query(path, "SELECT null_rate FROM rollout_null_rewards").rows == [(0.0,)]

    again = rollout_flow(params)
    assert all(o.resumed for o in again.outcomes) and len(again.outcomes) == 4
    assert len(list(read_trajectories(tmp_path / "dataset"))) == 4


def test_rollouts_run_on_docker_containers_as_on_sandboxes(
    prefect_harness,
    isolated_settings,
    families,
    tmp_path,
    desktop_python,
    desktop_image,
    docker_engine,
    monkeypatch,
):
    """`--env docker`: the same flow, teachers and grading, each episode in a container of the
    desktop image — a Calc tuple and a web tuple (its container reaches the flow's hub)."""
    from infra.envs.docker.container import OWNER_LABEL, owner_label
    from infra.settings import get_settings

    monkeypatch.setenv("CUAGYM_DESKTOP_VENV", str(desktop_python))
    get_settings.cache_clear()
    bundles = [
        str(export_bundle(families, family, 4, tmp_path / "final"))
        for family in ("calc.padded_ids", "chat.thread_reply_react")
    ]
    params = RolloutParams(bundles=bundles, env="docker", out=str(tmp_path / "dataset"))
    summary = rollout_flow(params)
    assert len(summary.outcomes) == 2 and summary.solved == 2, summary.outcomes
    records = list(read_trajectories(tmp_path / "dataset"))
    assert sorted(r.reward for r in records) == [1.0, 1.0] and all(r.steps for r in records)
    assert not isolated_settings.work_dir.joinpath("desktops").exists()  # no sandbox desktop was made
    ours = docker_engine.containers.list(all=True, filters={"label": f"{OWNER_LABEL}={owner_label()}"})
    assert ours == []  # every episode's container was removed


def test_a_tuple_whose_family_has_no_teacher_is_skipped_with_the_reason(families, tmp_path):
    from tasks.rollout.batch import plan_jobs

    bundle = export_bundle(families, "calc.padded_ids", 1, tmp_path / "final")
    taught = RolloutParams(bundles=[str(bundle)], k=3)
    jobs, skipped = plan_jobs(taught, warehouse=None, families=families)
    assert [job.rollout_id for job in jobs] == [f"{jobs[0].spec.id}__r{k}" for k in range(3)] and not skipped
    jobs, skipped = plan_jobs(taught, warehouse=None, families={})  # as for a family without demonstrate
    assert not jobs and skipped == [(jobs_spec_id(bundle), "family calc.padded_ids has no GUI teacher")]


def jobs_spec_id(bundle) -> str:
    from tasks.export import read_bundle

    return read_bundle(bundle)[0].id
