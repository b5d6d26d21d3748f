"""Rollouts on the Dask runner: a worker process plays the episode on a desktop of its own and sends
it back; the flow process writes the dataset and the warehouse, and the episode is the one the local
runner plays."""

from __future__ import annotations

import pytest

from flows.rollout import rollout_flow
from infra.trajectories import read_trajectories
from tasks.models import RolloutParams
from warehouse.query import run_query

from .conftest import export_bundle

pytestmark = pytest.mark.slow


def _steps(dataset) -> dict[str, list]:
    return {r.task_id: [(s.action, s.coordinate_screen) for s in r.steps] for r in read_trajectories(dataset)}


def test_an_episode_played_on_a_dask_worker_is_recorded_here(
    prefect_harness, isolated_settings, families, tmp_path, desktop_python, monkeypatch
):
    from distributed import Client, LocalCluster, get_task_stream

    from infra.settings import get_settings

    monkeypatch.setenv("CUAGYM_DESKTOP_VENV", str(desktop_python))  # the shared one, not a new build
    get_settings.cache_clear()
    bundle = str(export_bundle(families, "files.sort_desktop", 1, tmp_path / "final"))
    local = rollout_flow(RolloutParams(bundles=[bundle], out=str(tmp_path / "local")))
    with (
        LocalCluster(n_workers=1, processes=True, threads_per_worker=1, dashboard_address=":0") as cluster,
        Client(cluster) as client,
        get_task_stream(client) as stream,
    ):
        dask = rollout_flow(
            RolloutParams(
                bundles=[bundle],
                out=str(tmp_path / "dask"),
                runner="dask",
                dask_address=cluster.scheduler_address,
            )
        )
    assert [t["key"] for t in stream.data if "play_episode" in t["key"]], "no episode ran on the worker"
    assert dask.solved == local.solved == 1, (dask.outcomes, local.outcomes)
    assert _steps(tmp_path / "dask") == _steps(tmp_path / "local") != {}
    # The same rollout id and model in two runs (two datasets): each run keeps its row and its steps.
    path = isolated_settings.warehouse_path
    rows = run_query(path, "SELECT dataset, reward FROM rollouts ORDER BY dataset").rows
    assert rows == [(str(tmp_path / "dask"), 1.0), (str(tmp_path / "local"), 1.0)]
    (steps,) = _steps(tmp_path / "dask").values()
    assert run_query(path, "SELECT count(*) FROM rollout_steps").rows == [(2 * len(steps),)]
