"""Guest helpers shared by the Files families: the renderer ships each one a script reaches.

Each function imports what it needs inside its body and uses only the standard library.
`fake_content` also runs on the host: skills/files/world.py `make_file` hashes it in draw(), so the
sha256 in the params is the hash of exactly what initial_setup writes.
"""

from __future__ import annotations


def fake_content(name, seed, size):
    """Deterministic bytes for a file called `name`: a real magic header for binary types (so `file`
    and thumbnailers agree with the extension), readable lines for text types."""
    import random

    rng = random.Random(f"{name}:{seed}")
    ext = name.lower().rsplit(".", 1)[-1] if "." in name else ""
    magic = {
        "pdf": b"%PDF-1.4\n",
        "png": b"\x89PNG\r\n\x1a\n",
        "jpg": b"\xff\xd8\xff\xe0\x00\x10JFIF\x00",
        "jpeg": b"\xff\xd8\xff\xe0\x00\x10JFIF\x00",
        "gif": b"GIF89a",
        "zip": b"PK\x03\x04",
        "docx": b"PK\x03\x04",
        "xlsx": b"PK\x03\x04",
        "odt": b"PK\x03\x04",
        "ods": b"PK\x03\x04",
        "pptx": b"PK\x03\x04",
        "gz": b"\x1f\x8b\x08\x00",
        "mp3": b"ID3\x03\x00",
        "wav": b"RIFF",
        "ogg": b"OggS",
        "flac": b"fLaC",
        "mp4": b"\x00\x00\x00\x18ftypmp42",
        "webp": b"RIFF",
    }
    if ext in magic:
        return (magic[ext] + rng.randbytes(size))[:size]
    words = [
        "alpha",
        "budget",
        "client",
        "delta",
        "estimate",
        "figure",
        "growth",
        "header",
        "index",
        "journal",
        "kernel",
        "ledger",
        "margin",
        "notes",
        "output",
        "pending",
        "quarter",
        "review",
    ]
    lines = []
    total = 0
    while total < size:
        line = " ".join(rng.choice(words) for _ in range(rng.randint(3, 9)))
        if ext == "csv":
            line = ",".join(str(rng.randint(0, 9999)) for _ in range(rng.randint(3, 6)))
        elif ext in ("sh", "py"):
            line = f"# {line}"
        lines.append(line)
        total += len(line) + 1
    text = "\n".join(lines) + "\n"
    if ext == "sh":
        text = "#!/bin/bash\nset -euo pipefail\n" + text
    elif ext == "py":
        text = "#!/usr/bin/env python3\n" + text
    return text.encode()[:size]


def sha256_of(path):
    """Hex sha256 of a file's bytes."""
    import hashlib

    return hashlib.sha256(path.read_bytes()).hexdigest()


def same_bytes(path, digest):
    """`path` is a file (after symlinks) whose bytes hash to `digest`."""
    return path.is_file() and sha256_of(path) == digest


def write_files(folder, files, mode=None):
    """Create each {'name', 'seed', 'size'} file under `folder` with its fake content, last modified at
    its 'mtime' (seconds since the epoch) when the spec has one, with permissions `mode` when given."""
    import os

    folder.mkdir(parents=True, exist_ok=True)
    for spec in files:
        path = folder / spec["name"]
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(fake_content(spec["name"], spec["seed"], spec["size"]))
        if "mtime" in spec:
            os.utime(path, (spec["mtime"], spec["mtime"]))
        if mode is not None:
            os.chmod(path, mode)
