"""A real S3-protocol server for the object-storage tests: moto's server mode on a free local port,
reached over HTTP through the same AWS_* variables a user sets for MinIO or AWS."""

from __future__ import annotations

import socket
import uuid
from collections import Counter

import boto3
import pytest
from moto.server import ThreadedMotoServer


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture(scope="session")
def s3_endpoint():
    port = _free_port()
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=port, verbose=False)
    server.start()
    yield f"http://127.0.0.1:{port}"
    server.stop()


@pytest.fixture
def s3_env(s3_endpoint, monkeypatch):
    """The standard AWS variables pointing at the local server (and no ~/.aws files)."""
    monkeypatch.setenv("AWS_ENDPOINT_URL", s3_endpoint)
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "cuagym-test")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "cuagym-test-secret")
    monkeypatch.setenv("AWS_DEFAULT_REGION", "us-east-1")
    monkeypatch.setenv("AWS_CONFIG_FILE", "/nonexistent")
    monkeypatch.setenv("AWS_SHARED_CREDENTIALS_FILE", "/nonexistent")
    for var in ("AWS_PROFILE", "AWS_SESSION_TOKEN", "AWS_ENDPOINT_URL_S3", "AWS_REGION"):
        monkeypatch.delenv(var, raising=False)
    return s3_endpoint


@pytest.fixture
def bucket(s3_env) -> str:
    """A fresh versioned bucket: every PUT that reaches the server leaves a version to count."""
    name = f"cuagym-{uuid.uuid4().hex[:12]}"
    client = boto3.client("s3")
    client.create_bucket(Bucket=name)
    client.put_bucket_versioning(Bucket=name, VersioningConfiguration={"Status": "Enabled"})
    return name


def versions(bucket: str) -> Counter[str]:
    """How many times the server stored each key (its versions)."""
    pages = boto3.client("s3").get_paginator("list_object_versions").paginate(Bucket=bucket)
    return Counter(v["Key"] for page in pages for v in page.get("Versions", []))


def record_calls(client) -> list[tuple[str, str]]:
    """(operation, key) of every S3 request the client makes from now on."""
    calls: list[tuple[str, str]] = []
    client.meta.events.register(
        "before-parameter-build.s3",
        lambda model, params, **_: calls.append((model.name, params.get("Key", ""))),
    )
    return calls
