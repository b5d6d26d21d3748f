"""DuckDB reads Parquet from the S3-protocol server through the httpfs extension of the
duckdb-ext-httpfs wheel, configured from the same AWS_* variables as boto3."""

from __future__ import annotations

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from infra.errors import ConfigError
from infra.storage import ObjectStore, S3Url
from warehouse.s3 import connect_s3, s3_secret_options


def test_duckdb_queries_parquet_published_to_s3(bucket, tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    table = pa.table({"task_id": ["a-1", "b-2", "c-3"], "status": ["exported", "rejected", "exported"]})
    pq.write_table(table, out / "tuples.parquet")
    ObjectStore(S3Url.parse(f"s3://{bucket}/runs/one")).publish(out)

    rows = connect_s3().execute(
        f"SELECT status, count(*) FROM read_parquet('s3://{bucket}/runs/one/tuples.parquet') "
        "GROUP BY ALL ORDER BY ALL"
    )
    assert rows.fetchall() == [("exported", 2), ("rejected", 1)]


def test_secret_options_follow_the_endpoint_url():
    local = s3_secret_options({"AWS_ENDPOINT_URL": "http://127.0.0.1:9000", "AWS_ACCESS_KEY_ID": "k"})
    assert local["ENDPOINT"] == "127.0.0.1:9000" and local["USE_SSL"] == "false"
    assert local["URL_STYLE"] == "path" and local["KEY_ID"] == "k" and "SECRET" not in local
    assert s3_secret_options({"AWS_ENDPOINT_URL_S3": "https://s3.example.org"})["USE_SSL"] == "true"
    assert "ENDPOINT" not in s3_secret_options({})  # AWS itself: DuckDB's defaults
    with pytest.raises(ConfigError, match="not an http"):
        s3_secret_options({"AWS_ENDPOINT_URL": "minio:9000"})
