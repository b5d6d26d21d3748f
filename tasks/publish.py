"""Where a stage's output goes (`--out`): a local folder, or `s3://bucket/prefix`.

Output bound for S3 is written to a local staging folder (`var/s3/<bucket>/<prefix>`) exactly as it
would be to a local `--out`, then published at the end of each coarse stage (infra/storage.py): a
re-run writes to the same staging folder and uploads only what is missing or changed.
"""

from __future__ import annotations

import logging
from pathlib import Path

from infra.errors import ConfigError
from infra.settings import Settings
from infra.storage import NothingPublishedError, ObjectStore, PublishReport, S3Url, is_s3_url, staging_dir
from tasks.export import BUNDLE_FILES

log = logging.getLogger(__name__)


def local_output_dir(out: str | None, default: Path, settings: Settings) -> Path:
    """The folder a stage writes to: `out` itself, the staging folder of an s3:// `out`, or `default`."""
    if not out:
        return default.resolve()
    if is_s3_url(out):
        return staging_dir(S3Url.parse(out), settings.var_dir / "s3").resolve()
    return Path(out).resolve()


def output_child(out: str | None, rel: str) -> str | None:
    """The s3:// location of `rel` under an s3:// `out`; None for a local `out` (nothing to restore)."""
    return str(S3Url.parse(out).child(rel)) if is_s3_url(out) else None


def check_output(out: str | None) -> None:
    """Raise at once if an s3:// `out` cannot be written (no bucket, refused credentials, no server)."""
    if is_s3_url(out):
        ObjectStore(S3Url.parse(out)).check()


def publish_output(out: str | None, local: Path) -> PublishReport | None:
    """Mirror `local` to an s3:// `out` (None for a local `out`: the files are already in place)."""
    if not is_s3_url(out):
        return None
    return ObjectStore(S3Url.parse(out)).publish(local)


def restore_output(out: str | None, local: Path) -> int:
    """Fill an empty staging folder from what was published to an s3:// `out` before, so a run resumed
    on another machine (or after var/ was cleared) appends to the dataset instead of replacing it.
    Returns the number of files downloaded."""
    if not is_s3_url(out) or (local.is_dir() and any(local.iterdir())):
        return 0
    try:
        return len(ObjectStore(S3Url.parse(out)).download(local))
    except NothingPublishedError:
        return 0


def fetch_bundles(url: str, local: Path) -> list[Path]:
    """Download the bundles published under `url` (a bundle's prefix, or one above several) into
    `local`; returns their folders."""
    ObjectStore(S3Url.parse(url)).download(local, names=set(BUNDLE_FILES))
    bundles = sorted({path.parent for path in local.rglob("task.json")})
    if not bundles:
        raise ConfigError(f"no bundle (task.json) under {url}", hint="pass s3://bucket/prefix/final")
    return bundles


def resolve_bundles(args: list[str], scratch: Path) -> list[Path]:
    """Bundle folders for `cuagym verify`: local folders as given, s3:// URLs downloaded under `scratch`."""
    bundles: list[Path] = []
    for n, arg in enumerate(args):
        if is_s3_url(arg):
            bundles += fetch_bundles(arg, scratch / str(n))
        elif Path(arg).is_dir():
            bundles.append(Path(arg))
        else:
            raise ConfigError(
                f"{arg} is not a bundle folder", hint="pass output/final/<task_id> or s3://…/final"
            )
    return bundles
