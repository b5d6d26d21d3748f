"""Publishing real bundles to a real S3-protocol server: a re-run uploads only what is missing or
changed, a publish killed before its manifest never reads back as complete, big files go multipart,
and each way it can be misconfigured says what to fix."""

from __future__ import annotations

import json
import os
from pathlib import Path

import boto3
import pytest
import requests
from boto3.s3.transfer import TransferConfig

from infra.errors import ConfigError
from infra.storage import (
    MANIFEST,
    NothingPublishedError,
    ObjectStore,
    S3Url,
    StorageError,
    StorageUnreachableError,
    file_sha256,
    s3_client,
)
from tasks.export import BUNDLE_FILES, read_bundle, write_bundle

from .conftest import record_calls, versions

FAMILIES = ("calc.padded_ids", "writer.heading_styles", "files.sort_desktop")


def export_bundles(families, final: Path) -> list[Path]:
    """Real bundles of three families, written the way the export step writes them."""
    bundles = []
    for family_id in FAMILIES:
        family = families[family_id]
        spec = family.instantiate(7)
        bundles.append(
            write_bundle(
                final,
                spec,
                initial_setup_py=family.script("initial_setup", spec),
                golden_patch_py=family.script("golden_patch", spec),
                reward_py=family.script("reward", spec),
                review_md="# review\n",
                provenance={"backend": "procedural"},
            )
        )
    return bundles


def puts(calls) -> list[str]:
    return sorted(key for op, key in calls if op in ("PutObject", "CreateMultipartUpload"))


def test_a_rerun_uploads_only_what_is_missing_or_changed(families, bucket, tmp_path):
    out = tmp_path / "out"
    bundles = export_bundles(families, out / "final")
    (out / "final" / ".staging-x-1234").mkdir()  # a writer's temporary: never published
    (out / "final" / ".staging-x-1234" / "task.json").write_text("{}")
    url = S3Url.parse(f"s3://{bucket}/runs/nightly")
    keys = sorted(f"runs/nightly/final/{b.name}/{name}" for b in bundles for name in BUNDLE_FILES)

    first = ObjectStore(url).publish(out)
    assert len(first.uploaded) == len(keys) and not first.skipped
    assert versions(bucket) == {key: 1 for key in [*keys, f"runs/nightly/{MANIFEST}"]}
    head = boto3.client("s3").head_object(Bucket=bucket, Key=keys[0])
    rel = keys[0].removeprefix("runs/nightly/")
    assert head["Metadata"]["sha256"] == file_sha256(out / rel)

    store = ObjectStore(url)
    calls = record_calls(store.client)
    again = store.publish(out)
    assert not again.uploaded and len(again.skipped) == len(keys)
    assert puts(calls) == [f"runs/nightly/{MANIFEST}"]  # only the manifest is rewritten
    assert all(versions(bucket)[key] == 1 for key in keys)

    changed = bundles[1] / "reward.py"
    changed.write_text(changed.read_text() + "\n# edited\n")
    # a key another writer left holding other bytes (same size, no hash): re-uploaded, not trusted
    half = f"runs/nightly/final/{bundles[2].name}/golden_patch.py"
    size = (out / half.removeprefix("runs/nightly/")).stat().st_size
    boto3.client("s3").put_object(Bucket=bucket, Key=half, Body=b"x" * size)
    store = ObjectStore(url)
    calls = record_calls(store.client)
    third = store.publish(out)
    changed_key = f"runs/nightly/final/{bundles[1].name}/reward.py"
    assert puts(calls) == sorted([changed_key, half, f"runs/nightly/{MANIFEST}"])
    assert sorted(third.uploaded) == sorted(k.removeprefix("runs/nightly/") for k in (changed_key, half))
    after = versions(bucket)
    assert after[changed_key] == 2 and after[half] == 3
    assert all(after[key] == 1 for key in keys if key not in (changed_key, half))


def test_a_publish_killed_before_its_manifest_never_reads_back_as_complete(families, bucket, tmp_path):
    out = tmp_path / "out"
    bundles = export_bundles(families, out / "final")
    url = S3Url.parse(f"s3://{bucket}/runs")
    ObjectStore(url).publish(out)
    reward = bundles[0] / "reward.py"
    reward.write_text(reward.read_text().replace("REWARD", "REWARD ", 1))

    class Killed(Exception):
        pass

    def kill_at_manifest(params, **_):
        if params.get("Key", "").endswith(MANIFEST):
            raise Killed("the process died here")

    killed = ObjectStore(url)
    killed.client.meta.events.register("before-parameter-build.s3.PutObject", kill_at_manifest)
    with pytest.raises(Killed):
        killed.publish(out)  # every object uploaded, the manifest still the old one

    with pytest.raises(StorageError, match="does not hold the bytes its MANIFEST.json lists"):
        ObjectStore(url.child(f"final/{bundles[0].name}")).download(tmp_path / "early")
    assert not (tmp_path / "early" / "reward.py").exists()  # no half-read file left behind

    store = ObjectStore(url)
    calls = record_calls(store.client)
    rerun = store.publish(out)
    assert rerun.uploaded == [] and puts(calls) == [f"runs/{MANIFEST}"]
    got = ObjectStore(url.child("final")).download(tmp_path / "back", names=set(BUNDLE_FILES))
    assert len(got) == len(bundles) * len(BUNDLE_FILES)
    for bundle in bundles:
        spec, scripts = read_bundle(tmp_path / "back" / bundle.name)
        assert spec.id == bundle.name
        assert scripts["reward.py"] == (bundle / "reward.py").read_text()


def test_big_files_go_multipart_with_their_hash_and_a_stale_upload_is_aborted(bucket, tmp_path):
    out = tmp_path / "dataset"
    out.mkdir()
    shard = out / "screenshots-0000.tar"
    shard.write_bytes(os.urandom(11 * 2**20))  # three parts of 5 MiB (S3's smallest) at most
    small = TransferConfig(multipart_threshold=5 * 2**20, multipart_chunksize=5 * 2**20)
    url = S3Url.parse(f"s3://{bucket}/rollouts")
    client = boto3.client("s3")
    stale = client.create_multipart_upload(Bucket=bucket, Key="rollouts/screenshots-0000.tar")
    client.upload_part(
        Bucket=bucket, Key=stale["Key"], UploadId=stale["UploadId"], PartNumber=1, Body=b"y" * 5 * 2**20
    )  # a killed run's parts: no object shows them

    store = ObjectStore(url, transfer=small)
    calls = record_calls(store.client)
    store.publish(out)
    ops = [op for op, key in calls if key == "rollouts/screenshots-0000.tar"]
    assert ops.count("CreateMultipartUpload") == 1 and ops.count("UploadPart") == 3
    assert ops.count("CompleteMultipartUpload") == 1 and "PutObject" not in ops
    assert ops.count("AbortMultipartUpload") == 1
    assert not client.list_multipart_uploads(Bucket=bucket).get("Uploads")
    head = client.head_object(Bucket=bucket, Key="rollouts/screenshots-0000.tar")
    assert head["Metadata"]["sha256"] == file_sha256(shard) and head["ContentLength"] == 11 * 2**20

    again = ObjectStore(url, transfer=small).publish(out)
    assert again.skipped == ["screenshots-0000.tar"]
    ObjectStore(url, transfer=small).download(tmp_path / "back")
    assert (tmp_path / "back" / "screenshots-0000.tar").read_bytes() == shard.read_bytes()
    manifest = json.loads(client.get_object(Bucket=bucket, Key=f"rollouts/{MANIFEST}")["Body"].read())
    assert manifest["files"]["screenshots-0000.tar"]["sha256"] == file_sha256(shard)


def test_a_missing_bucket_says_so(s3_env, tmp_path):
    (tmp_path / "a.txt").write_text("a")
    with pytest.raises(StorageError, match="bucket 'no-such-bucket' does not exist") as info:
        ObjectStore(S3Url.parse("s3://no-such-bucket/x")).publish(tmp_path)
    assert "aws s3 mb s3://no-such-bucket" in info.value.hint
    with pytest.raises(StorageError, match="does not exist"):
        ObjectStore(S3Url.parse("s3://no-such-bucket/x")).download(tmp_path / "back")


def test_refused_credentials_say_which_variables_to_fix(bucket, s3_endpoint, tmp_path):
    (tmp_path / "a.txt").write_text("a")
    requests.post(f"{s3_endpoint}/moto-api/reset-auth", data=b"0", timeout=10)  # the server checks keys now
    try:
        with pytest.raises(StorageError, match="refused the credentials") as info:
            ObjectStore(S3Url.parse(f"s3://{bucket}/x")).check()
    finally:
        requests.post(f"{s3_endpoint}/moto-api/reset-auth", data=b"inf", timeout=10)
    assert "AWS_ACCESS_KEY_ID" in info.value.hint


def test_no_credentials_at_all(s3_env, monkeypatch, tmp_path):
    monkeypatch.delenv("AWS_ACCESS_KEY_ID")
    monkeypatch.delenv("AWS_SECRET_ACCESS_KEY")
    with pytest.raises(StorageError, match="no S3 credentials"):
        ObjectStore(S3Url.parse("s3://some-bucket/x")).check()


def test_an_unreachable_endpoint_names_the_variable(s3_env, monkeypatch, tmp_path):
    from tests.storage.conftest import _free_port

    monkeypatch.setenv("AWS_ENDPOINT_URL", f"http://127.0.0.1:{_free_port()}")  # nothing listens there
    store = ObjectStore(S3Url.parse("s3://some-bucket/x"), client=s3_client(max_attempts=1))
    with pytest.raises(StorageUnreachableError, match="cannot reach the S3 endpoint") as info:
        store.check()
    assert "AWS_ENDPOINT_URL" in info.value.hint


def test_nothing_published_and_bad_urls(bucket, tmp_path):
    with pytest.raises(NothingPublishedError, match="no MANIFEST.json at or above"):
        ObjectStore(S3Url.parse(f"s3://{bucket}/never/published")).download(tmp_path)
    for bad in ("s3://Bad_Bucket/x", "s3://ab", "s3://bucket/a/../b", "/local/path"):
        with pytest.raises(ConfigError):
            S3Url.parse(bad)
    assert str(S3Url.parse("s3://my-bucket//a/b/")) == "s3://my-bucket/a/b"


def test_a_teacher_dataset_on_s3_is_restored_before_it_is_appended_to(bucket, tmp_path):
    """synth's teacher stage appends to `rollouts/` under its --out: on a machine whose staging
    folder is empty, what earlier runs published there comes back first (tasks/publish.py)."""
    from tasks.publish import output_child, publish_output, restore_output

    out = f"s3://{bucket}/nightly"
    first = tmp_path / "first"
    (first / "rollouts").mkdir(parents=True)
    (first / "rollouts" / "trajectories.jsonl").write_text('{"id": "r0"}\n')
    (first / "tuples.parquet").write_bytes(b"PAR1")
    publish_output(out, first)

    assert output_child(None, "rollouts") is None and output_child("out", "rollouts") is None
    assert output_child(out, "rollouts") == f"s3://{bucket}/nightly/rollouts"
    fresh = tmp_path / "second" / "rollouts"
    assert restore_output(output_child(out, "rollouts"), fresh) == 1
    assert (fresh / "trajectories.jsonl").read_text() == '{"id": "r0"}\n'
    assert not (fresh / "tuples.parquet").exists()  # only what lies under rollouts/
    assert restore_output(output_child(out, "rollouts"), fresh) == 0  # a staging folder with files is kept
