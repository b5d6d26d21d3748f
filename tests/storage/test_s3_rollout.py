"""`cuagym rollout --out s3://…` on a real desktop: the trajectory dataset is published, and a run
resumed on a machine without the local copy appends to it instead of replacing it."""

from __future__ import annotations

import shutil

import pytest
from click.testing import CliRunner

from flows.cli import main
from infra.storage import ObjectStore, S3Url
from infra.trajectories import RECORDS, Screenshots, read_trajectories
from tasks.publish import local_output_dir
from tests.desktop import conftest as desktop_fixtures
from tests.desktop.conftest import export_bundle

from .conftest import versions

desktop_python = desktop_fixtures.desktop_python

pytestmark = pytest.mark.slow


def test_rollouts_to_s3_are_published_and_resumed_elsewhere(
    prefect_harness, isolated_settings, families, desktop_python, bucket, tmp_path, monkeypatch
):
    from infra.settings import get_settings

    monkeypatch.setenv("CUAGYM_DESKTOP_VENV", str(desktop_python))  # the shared one, not a new build
    get_settings.cache_clear()
    bundle = export_bundle(families, "calc.padded_ids", 3, tmp_path / "final")
    out = f"s3://{bucket}/datasets/teacher"
    first = CliRunner().invoke(main, ["rollout", str(bundle), "--k", "1", "--out", out])
    assert first.exit_code == 0, first.output
    assert versions(bucket)[f"datasets/teacher/{RECORDS}"] == 1
    ObjectStore(S3Url.parse(out)).download(tmp_path / "first")
    (done,) = read_trajectories(tmp_path / "first")

    staging = local_output_dir(out, tmp_path, get_settings())
    shutil.rmtree(staging)  # another machine: no local copy of the dataset
    second = CliRunner().invoke(main, ["rollout", str(bundle), "--k", "2", "--out", out])
    assert second.exit_code == 0, second.output
    assert versions(bucket)[f"datasets/teacher/{RECORDS}"] == 2

    back = tmp_path / "back"
    ObjectStore(S3Url.parse(out)).download(back)
    records = list(read_trajectories(back))
    assert sorted(r.task_id for r in records) == [f"{bundle.name}__r0", f"{bundle.name}__r1"]
    assert all(r.reward == 1.0 for r in records), [(r.task_id, r.reward, r.reward_error) for r in records]
    assert records[0] == done  # restored from S3 and kept, not rolled out again
    shots = Screenshots(back)
    assert all(shots.read(s.shard, s.member).startswith(b"\x89PNG") for r in records for s in r.steps)
    shots.close()
