"""Object storage: outputs bound for `s3://bucket/prefix` on any S3-protocol server, through boto3.

Stages write to a local folder as always; `ObjectStore.publish` then mirrors that folder under the
prefix, and `ObjectStore.download` brings a prefix back. What makes a killed-and-rerun publish safe:

- every object carries the sha256 of its bytes in its metadata (`x-amz-meta-sha256`); a file whose
  object already has its hash is skipped, so a re-run uploads only what is missing or changed;
- S3 shows an object whole or not at all (a PUT, or a multipart upload once it is completed), and
  `MANIFEST.json`, written last, says which objects with which hashes form the published set.
  `download` reads only what a manifest lists and checks each file's hash, so an interrupted publish
  reads back as an error, never as a bundle that looks complete.

Endpoint, region and credentials come from boto3's own chain: `AWS_ENDPOINT_URL` (or
`AWS_ENDPOINT_URL_S3`), `AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`, `AWS_SESSION_TOKEN`,
`AWS_REGION`, `AWS_PROFILE`. One publisher per prefix at a time (the factory's single-writer model).
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import re
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

import boto3
from boto3.exceptions import S3UploadFailedError
from boto3.s3.transfer import TransferConfig
from botocore.config import Config
from botocore.exceptions import (
    BotoCoreError,
    ClientError,
    ConnectionClosedError,
    ConnectTimeoutError,
    EndpointConnectionError,
    NoCredentialsError,
    PartialCredentialsError,
    ReadTimeoutError,
)

from infra.errors import ConfigError, CuagymError, TransientError

log = logging.getLogger(__name__)

SCHEME = "s3://"
MANIFEST = "MANIFEST.json"
HASH_KEY = "sha256"  # user metadata; S3 sends it back as x-amz-meta-sha256
# Multipart above 64 MiB in 16 MiB parts: bundles are a few KiB, screenshot shards reach hundreds of MiB.
TRANSFER = TransferConfig(multipart_threshold=64 * 2**20, multipart_chunksize=16 * 2**20, max_concurrency=4)
FILES_AT_ONCE = 8  # small files are latency-bound: several in flight
_BUCKET = re.compile(r"^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$")
_AUTH_CODES = {
    "InvalidAccessKeyId",
    "SignatureDoesNotMatch",
    "InvalidToken",
    "ExpiredToken",
    "AccessDenied",
    "InvalidSecurity",
}


class StorageError(CuagymError):
    """An object-storage request failed (missing bucket, refused credentials, a bad object)."""


class NothingPublishedError(StorageError):
    """No manifest at or above a prefix lists anything under it."""


class StorageUnreachableError(StorageError, TransientError):
    """The S3 endpoint did not answer (after botocore's own retries)."""


def is_s3_url(value: str | os.PathLike | None) -> bool:
    return isinstance(value, str) and value.startswith(SCHEME)


@dataclass(frozen=True)
class S3Url:
    bucket: str
    prefix: str  # no leading or trailing slash; "" is the bucket's root

    @classmethod
    def parse(cls, url: str) -> S3Url:
        if not is_s3_url(url):
            raise ConfigError(f"{url!r} is not an s3:// URL", hint="write it as s3://bucket/prefix")
        bucket, _, prefix = url[len(SCHEME) :].partition("/")
        if not _BUCKET.match(bucket):
            raise ConfigError(
                f"{bucket!r} in {url!r} is not a valid bucket name",
                hint="bucket names are 3-63 lowercase letters, digits, dots and hyphens: s3://my-bucket/runs",
            )
        parts = [p for p in prefix.split("/") if p]
        if any(p in (".", "..") for p in parts):
            raise ConfigError(
                f"{url!r} has a '.' or '..' segment", hint="use a plain prefix: s3://bucket/a/b"
            )
        return cls(bucket, "/".join(parts))

    def key(self, rel: str) -> str:
        return f"{self.prefix}/{rel}" if self.prefix else rel

    def child(self, rel: str) -> S3Url:
        return S3Url(self.bucket, self.key(rel).strip("/"))

    def parents(self) -> Iterator[S3Url]:
        """This prefix, then each one above it up to the bucket's root."""
        parts = self.prefix.split("/") if self.prefix else []
        for n in range(len(parts), -1, -1):
            yield S3Url(self.bucket, "/".join(parts[:n]))

    def __str__(self) -> str:
        return f"{SCHEME}{self.bucket}/{self.prefix}" if self.prefix else f"{SCHEME}{self.bucket}"


def staging_dir(url: S3Url, root: Path) -> Path:
    """The local folder a stage writes output bound for `url` to, before it is published."""
    return root / url.bucket / url.prefix


def file_sha256(path: Path) -> str:
    with open(path, "rb") as fh:
        return hashlib.file_digest(fh, "sha256").hexdigest()


def local_files(root: Path) -> dict[str, Path]:
    """Files under `root` by POSIX path relative to it. Dot-named entries are skipped: they are the
    temporaries that writers rename into place (`.staging-*` bundles, `.tuples.parquet.tmp`)."""
    files = {}
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root)
        hidden = any(part.startswith(".") for part in rel.parts)
        if path.is_file() and not hidden and rel.as_posix() != MANIFEST:  # the manifest is ours to write
            files[rel.as_posix()] = path
    return files


def s3_client(*, max_attempts: int = 5):
    """An S3 client on boto3's standard configuration chain, with standard-mode retries (throttling,
    5xx and dropped connections are retried with backoff, `max_attempts` tries in all)."""
    config = Config(
        retries={"mode": "standard", "max_attempts": max_attempts},
        connect_timeout=10,
        read_timeout=60,
    )
    return boto3.session.Session().client("s3", config=config)


@dataclass
class PublishReport:
    url: str
    uploaded: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)  # already there with the same sha256


class ObjectStore:
    """Publish a local folder to an S3 prefix, and download a prefix back, verified by hash."""

    def __init__(self, url: S3Url, *, client=None, transfer: TransferConfig = TRANSFER) -> None:
        self.url = url
        self.client = client or s3_client()
        self.transfer = transfer

    @property
    def endpoint(self) -> str:
        return self.client.meta.endpoint_url

    def check(self) -> None:
        """Fail now, not after hours of work, when the bucket or the credentials are wrong."""
        with self._errors():
            self.client.head_bucket(Bucket=self.url.bucket)

    def publish(self, local: Path) -> PublishReport:
        """Upload every file under `local` whose object is missing or holds other bytes, then write
        the manifest (the old one's entries kept for objects this folder does not hold)."""
        if not local.is_dir():
            raise ConfigError(
                f"nothing to publish: {local} is not a folder", hint="run the stage that writes it"
            )
        files = local_files(local)
        with self._errors():
            present = self._list_sizes()
            self._abort_stale_multipart()
            manifest = self._read_manifest(self.url) or {}
            manifest = {rel: entry for rel, entry in manifest.items() if self.url.key(rel) in present}
            report = PublishReport(str(self.url))
            with ThreadPoolExecutor(FILES_AT_ONCE) as pool:
                results = pool.map(lambda item: self._sync_file(*item, present), files.items())
                for rel, (entry, uploaded) in zip(files, results, strict=True):
                    manifest[rel] = entry
                    (report.uploaded if uploaded else report.skipped).append(rel)
            self._write_manifest(manifest)
        log.info(
            "published %s: %d uploaded, %d unchanged", self.url, len(report.uploaded), len(report.skipped)
        )
        return report

    def download(self, local: Path, *, names: set[str] | None = None) -> list[Path]:
        """Download what the nearest manifest at or above this prefix lists under it into `local`
        (with `names`, only files of those base names); every file's sha256 is checked."""
        with self._errors():
            root, manifest = self._nearest_manifest()
            below = self.url.prefix[len(root.prefix) :].strip("/")
            wanted = {
                rel: entry
                for rel, entry in manifest.items()
                if (not below or rel == below or rel.startswith(below + "/"))
                and (names is None or PurePosixPath(rel).name in names)
            }
            if not wanted:
                raise NothingPublishedError(
                    f"{MANIFEST} at {root} lists nothing under {self.url}",
                    hint=f"list what is there: aws s3 ls {root}/ (with --endpoint-url {self.endpoint})",
                )
            paths = [self._fetch(root, rel, entry, local, below) for rel, entry in sorted(wanted.items())]
        log.info("downloaded %d files from %s to %s", len(paths), self.url, local)
        return paths

    def _sync_file(self, rel: str, path: Path, present: dict[str, int]) -> tuple[dict, bool]:
        entry = {HASH_KEY: file_sha256(path), "size": path.stat().st_size}
        key = self.url.key(rel)
        if present.get(key) == entry["size"] and self._remote_hash(key) == entry[HASH_KEY]:
            return entry, False
        self.client.upload_file(
            str(path),
            self.url.bucket,
            key,
            ExtraArgs={"Metadata": {HASH_KEY: entry[HASH_KEY]}},
            Config=self.transfer,
        )
        return entry, True

    def _remote_hash(self, key: str) -> str | None:
        head = self.client.head_object(Bucket=self.url.bucket, Key=key)
        return head.get("Metadata", {}).get(HASH_KEY)

    def _list_sizes(self) -> dict[str, int]:
        pages = self.client.get_paginator("list_objects_v2").paginate(
            Bucket=self.url.bucket, Prefix=self.url.key("")
        )
        return {obj["Key"]: obj["Size"] for page in pages for obj in page.get("Contents", [])}

    def _abort_stale_multipart(self) -> None:
        """Parts of uploads a killed run never completed: no object shows them, but S3 bills them."""
        pages = self.client.get_paginator("list_multipart_uploads").paginate(
            Bucket=self.url.bucket, Prefix=self.url.key("")
        )
        for page in pages:
            for upload in page.get("Uploads", []):
                self.client.abort_multipart_upload(
                    Bucket=self.url.bucket, Key=upload["Key"], UploadId=upload["UploadId"]
                )

    def _read_manifest(self, at: S3Url) -> dict[str, dict] | None:
        try:
            body = self.client.get_object(Bucket=at.bucket, Key=at.key(MANIFEST))["Body"].read()
        except ClientError as exc:
            if exc.response["Error"]["Code"] in ("NoSuchKey", "404"):
                return None
            raise
        try:
            return json.loads(body)["files"]
        except (ValueError, KeyError, TypeError) as exc:
            raise StorageError(
                f"{at.child(MANIFEST)} is not a cuagym manifest: {exc}",
                hint="publish there again (cuagym synth / rollout --out …) to rewrite it",
            ) from exc

    def _write_manifest(self, files: dict[str, dict]) -> None:
        body = json.dumps({"version": 1, "files": dict(sorted(files.items()))}, indent=1).encode()
        self.client.put_object(
            Bucket=self.url.bucket,
            Key=self.url.key(MANIFEST),
            Body=body,
            ContentType="application/json",
            Metadata={HASH_KEY: hashlib.sha256(body).hexdigest()},
        )

    def _nearest_manifest(self) -> tuple[S3Url, dict[str, dict]]:
        self.client.head_bucket(Bucket=self.url.bucket)  # a missing bucket says so, not "no manifest"
        for at in self.url.parents():
            manifest = self._read_manifest(at)
            if manifest is not None:
                return at, manifest
        raise NothingPublishedError(
            f"no {MANIFEST} at or above {self.url}: nothing was published there completely",
            hint="publish with `cuagym synth --out s3://…` or `cuagym rollout --out s3://…` (the manifest "
            "is written last, so an interrupted publish has none until it is re-run)",
        )

    def _fetch(self, root: S3Url, rel: str, entry: dict, local: Path, below: str) -> Path:
        inside = rel[len(below) :].strip("/") if below else rel
        target = local / (inside or PurePosixPath(rel).name)
        target.parent.mkdir(parents=True, exist_ok=True)
        tmp = target.with_name(f".{target.name}.{uuid.uuid4().hex[:8]}.part")
        self.client.download_file(root.bucket, root.key(rel), str(tmp), Config=self.transfer)
        if file_sha256(tmp) != entry[HASH_KEY]:
            tmp.unlink()
            raise StorageError(
                f"{root.child(rel)} does not hold the bytes its {MANIFEST} lists: a publish is in "
                "progress there or was interrupted",
                hint="re-run the command that publishes there; it uploads only what differs",
            )
        os.replace(tmp, target)
        return target

    @contextmanager
    def _errors(self) -> Iterator[None]:
        """botocore's exceptions as StorageErrors that say what to fix."""
        try:
            yield
        except StorageError:
            raise
        except S3UploadFailedError as exc:  # boto3 raises it inside `except ClientError`
            cause = exc.__context__
            if isinstance(cause, ClientError):
                raise self._client_error(cause) from exc
            raise StorageError(str(exc), hint="re-run: a publish uploads only what differs") from exc
        except ClientError as exc:
            raise self._client_error(exc) from exc
        except (NoCredentialsError, PartialCredentialsError) as exc:
            raise StorageError(
                f"no S3 credentials for {self.url}: {exc}",
                hint="set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (or AWS_PROFILE)",
            ) from exc
        except (EndpointConnectionError, ConnectTimeoutError, ConnectionClosedError, ReadTimeoutError) as exc:
            raise StorageUnreachableError(
                f"cannot reach the S3 endpoint {self.endpoint} for {self.url}: {exc}",
                hint="check AWS_ENDPOINT_URL (or AWS_ENDPOINT_URL_S3) and that the server is running",
            ) from exc
        except BotoCoreError as exc:
            raise StorageError(
                f"S3 request for {self.url} failed: {exc}", hint="check the AWS_* settings"
            ) from exc

    def _client_error(self, exc: ClientError) -> StorageError:
        error = exc.response.get("Error", {})
        code = str(error.get("Code", ""))
        status = exc.response.get("ResponseMetadata", {}).get("HTTPStatusCode")
        message = error.get("Message") or str(exc)
        if code == "NoSuchBucket" or (code == "404" and exc.operation_name == "HeadBucket"):
            return StorageError(
                f"bucket {self.url.bucket!r} does not exist at {self.endpoint}",
                hint=f"create it (aws s3 mb s3://{self.url.bucket} --endpoint-url {self.endpoint}) "
                "or fix the s3:// URL",
            )
        if code in _AUTH_CODES or status == 403:
            return StorageError(
                f"the S3 server at {self.endpoint} refused the credentials for {self.url}: {code} {message}",
                hint="check AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY (and AWS_SESSION_TOKEN) for this endpoint",
            )
        return StorageError(
            f"S3 {exc.operation_name} on {self.url} failed: {code} {message}",
            hint="re-run: a publish uploads only what differs",
        )
