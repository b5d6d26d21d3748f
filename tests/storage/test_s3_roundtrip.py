"""`cuagym synth --out s3://…` end to end against a real S3-protocol server: bundles and the tuples
Parquet published, a re-run skipping every object already there, DuckDB reading the Parquet from S3,
and `cuagym verify` re-checking the bundles read back in fresh sandboxes."""

from __future__ import annotations

import json

import boto3
import pytest
from click.testing import CliRunner

from flows.cli import main
from infra.storage import MANIFEST
from tasks.export import BUNDLE_FILES
from warehouse.s3 import connect_s3

from .conftest import versions

pytestmark = pytest.mark.slow

SYNTH = ["synth", "--count", "3", "--seed", "11", "--workers", "1", "--teacher-k", "0"]
SYNTH += ["--mutants", "0", "--corruption-mutants", "0"]


def test_synth_to_s3_resumes_reads_back_and_verifies(prefect_harness, isolated_settings, bucket):
    out = f"s3://{bucket}/runs/nightly"
    first = CliRunner().invoke(main, [*SYNTH, "--out", out])
    assert first.exit_code == 0, first.output
    assert f"uploaded:  {out}" in first.output
    assert not (isolated_settings.output_dir / "final").exists()  # written to staging, not ./output

    s3 = boto3.client("s3")
    manifest = json.loads(s3.get_object(Bucket=bucket, Key=f"runs/nightly/{MANIFEST}")["Body"].read())
    ids = sorted({rel.split("/")[1] for rel in manifest["files"] if rel.startswith("final/")})
    assert len(ids) == 3
    assert {f"final/{i}/{name}" for i in ids for name in BUNDLE_FILES} <= set(manifest["files"])
    assert "tuples.parquet" in manifest["files"]
    bundle_keys = [f"runs/nightly/final/{i}/{name}" for i in ids for name in BUNDLE_FILES]
    before = versions(bucket)
    assert all(before[key] == 1 for key in bundle_keys)  # the run's second publish skipped them

    rows = connect_s3().execute(
        f"SELECT task_id, status, bundle_path FROM read_parquet('{out}/tuples.parquet') ORDER BY task_id"
    )
    # the Parquet names where the bundles were published, not this machine's staging folder
    assert rows.fetchall() == [(i, "exported", f"{out}/final/{i}") for i in ids]

    again = CliRunner().invoke(main, [*SYNTH, "--out", out])
    assert again.exit_code == 0, again.output
    after = versions(bucket)
    assert all(after[key] == 1 for key in bundle_keys)  # resumed: no bundle uploaded again
    assert after[f"runs/nightly/{MANIFEST}"] > before[f"runs/nightly/{MANIFEST}"]

    verified = CliRunner().invoke(main, ["verify", f"{out}/final"])
    assert verified.exit_code == 0, verified.output
    assert "3/3 bundles verified" in verified.output
    for task_id in ids:  # each bundle read back: initial 0.0, golden 1.0 in fresh sandboxes
        row = next(line for line in verified.output.splitlines() if task_id in line)
        assert [cell.strip() for cell in row.split("│") if cell.strip()] == [task_id, "0.0", "1.0", "ok"]

    # An object changed behind the manifest's back is refused before anything runs.
    s3.put_object(Bucket=bucket, Key=f"runs/nightly/final/{ids[0]}/reward.py", Body=b"print('REWARD: 1.0')\n")
    tampered = CliRunner().invoke(main, ["verify", f"{out}/final/{ids[0]}"])
    assert tampered.exit_code == 1
    assert "does not hold the bytes its MANIFEST.json lists" in " ".join(tampered.output.split())
