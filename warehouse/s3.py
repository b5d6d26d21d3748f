"""DuckDB on Parquet in object storage: a connection that reads `s3://…` (analysts' queries of the
published tuples.parquet).

The httpfs extension comes from the `duckdb-ext-httpfs` wheel (warehouse/extensions.py: nothing is
downloaded at run time), which is built for one DuckDB version: pyproject.toml pins duckdb to it. The endpoint and credentials
are the AWS_* variables boto3 reads (infra/storage.py), so both see the same server.
"""

from __future__ import annotations

import os
from urllib.parse import urlsplit

import duckdb

from infra.errors import ConfigError
from warehouse.extensions import load_extensions


def s3_secret_options(environ: os._Environ | dict[str, str] = os.environ) -> dict[str, str]:
    """CREATE SECRET options (TYPE S3) from the AWS_* variables: a custom endpoint (AWS_ENDPOINT_URL_S3
    or AWS_ENDPOINT_URL) is addressed path-style, over plain HTTP when its URL says http."""
    options = {
        "TYPE": "S3",
        "REGION": environ.get("AWS_REGION") or environ.get("AWS_DEFAULT_REGION") or "us-east-1",
    }
    for option, var in (
        ("KEY_ID", "AWS_ACCESS_KEY_ID"),
        ("SECRET", "AWS_SECRET_ACCESS_KEY"),
        ("SESSION_TOKEN", "AWS_SESSION_TOKEN"),
    ):
        if environ.get(var):
            options[option] = environ[var]
    endpoint = environ.get("AWS_ENDPOINT_URL_S3") or environ.get("AWS_ENDPOINT_URL")
    if endpoint:
        url = urlsplit(endpoint)
        if url.scheme not in ("http", "https") or not url.netloc:
            raise ConfigError(
                f"AWS_ENDPOINT_URL={endpoint!r} is not an http(s) URL", hint="write it as http://host:port"
            )
        options |= {
            "ENDPOINT": url.netloc,
            "URL_STYLE": "path",
            "USE_SSL": str(url.scheme == "https").lower(),
        }
    return options


def _literal(value: str) -> str:
    return "'" + value.replace("'", "''") + "'"


def connect_s3(environ: os._Environ | dict[str, str] = os.environ) -> duckdb.DuckDBPyConnection:
    """An in-memory DuckDB connection with httpfs loaded and an S3 secret for the configured endpoint.

    Example:

        con = connect_s3()
        con.sql("SELECT status, count(*) FROM read_parquet('s3://my-bucket/runs/tuples.parquet') GROUP BY ALL")
    """
    con = duckdb.connect()
    load_extensions(con, "httpfs")
    add_s3_secret(con, environ)
    return con


def add_s3_secret(con: duckdb.DuckDBPyConnection, environ: os._Environ | dict[str, str] = os.environ) -> None:
    """An S3 secret on `con` for the endpoint and credentials of the AWS_* variables."""
    options = s3_secret_options(environ)
    # CREATE SECRET takes no bound parameters: values are quoted literals (booleans bare).
    body = ", ".join(
        f"{name} {value if name == 'USE_SSL' or name == 'TYPE' else _literal(value)}"
        for name, value in options.items()
    )
    con.execute(f"CREATE SECRET cuagym_s3 ({body})")
