"""The trajectory dataset round-trips: written shards read back with webdataset and with tarfile,
every step's member exists, a writer killed mid-shard is repaired, and null rewards stay null."""

from __future__ import annotations

import io
import json
import tarfile

import webdataset as wds
from PIL import Image

from infra.trajectories import (
    RECORDS,
    Screenshots,
    Trajectory,
    TrajectoryStep,
    TrajectoryWriter,
    read_trajectories,
    rollout_id,
)


def _png(shade: int) -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (64, 36), (shade, 0, 0)).save(buffer, format="PNG")
    return buffer.getvalue()


def _rollout(tuple_id: str, repeat: int, steps: int, reward: float | None):
    rid = rollout_id(tuple_id, repeat)
    members = {f"{rid}/step_{n:03d}.png": _png(n * 20) for n in range(steps)}
    trajectory = Trajectory(
        task_id=rid,
        instruction="do it",
        reward=reward,
        terminated=reward is not None,
        screen=(1920, 1080),
        model="scripted:test",
        tuple_id=tuple_id,
        repeat=repeat,
        steps=[
            TrajectoryStep(
                step=n,
                model_step=n,
                screenshot=f"screenshots/step_{n:03d}.png",
                shard="",
                member=member,
                cursor_before=(10 * n, 5),
                action="left_click",
                coordinate_screen=(961, 541),
                raw_action_args={"action": "left_click", "coordinate": [500, 500]},
            )
            for n, member in enumerate(members)
        ],
    )
    return trajectory, members


def test_written_shards_read_back_with_webdataset_and_tarfile(tmp_path):
    with TrajectoryWriter(tmp_path, shard_bytes=2_000) as writer:  # tiny shards: several are written
        for n, reward in enumerate([1.0, 0.25, None]):
            writer.write(*_rollout(f"calc.t-{n}", 0, 4, reward))
    records = list(read_trajectories(tmp_path))
    assert [r.reward for r in records] == [1.0, 0.25, None]  # null stays null, never 0
    assert len({s.shard for r in records for s in r.steps}) >= 2
    shots = Screenshots(tmp_path)
    for record in records:
        for step in record.steps:
            image = Image.open(io.BytesIO(shots.read(step.shard, step.member)))
            assert image.size == (64, 36)
    shots.close()
    shards = sorted(str(p) for p in tmp_path.glob("screenshots-*.tar"))
    samples = list(wds.WebDataset(shards, shardshuffle=False, empty_check=False))
    keys = {s["__key__"] for s in samples}
    assert keys == {step.member.removesuffix(".png") for r in records for step in r.steps}
    assert all("png" in s for s in samples)
    with tarfile.open(shards[0]) as tar:
        assert all(m.name.endswith(".png") and m.isfile() for m in tar.getmembers())


def test_a_writer_killed_mid_member_is_repaired_and_resumes(tmp_path):
    writer = TrajectoryWriter(tmp_path)
    writer.write(*_rollout("files.a", 0, 3, 1.0))
    shard = tmp_path / writer.shard_name
    writer._tar.fileobj.flush()
    with open(shard, "ab") as fh:  # half a member, as a kill during the next rollout leaves it
        header = tarfile.TarInfo("files.b__r0/step_000.png")
        header.size = 5000
        fh.write(header.tobuf() + b"\x89PNG" * 100)
    with open(tmp_path / RECORDS, "a") as fh:
        fh.write(json.dumps({"task_id": "files.b__r0"})[:20])  # and half a line
    resumed = TrajectoryWriter(tmp_path)
    assert resumed.done() == {"files.a__r0"}
    with tarfile.open(shard) as tar:  # cut back to the last whole member
        assert [m.name for m in tar.getmembers()] == [f"files.a__r0/step_{n:03d}.png" for n in range(3)]
    resumed.write(*_rollout("files.b", 0, 2, 0.5))
    resumed.close()
    records = list(read_trajectories(tmp_path))
    assert [r.task_id for r in records] == ["files.a__r0", "files.b__r0"]
    with tarfile.open(shard) as tar:
        assert len(tar.getmembers()) == 5
