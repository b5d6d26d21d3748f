"""Domain skills: the SKILL.md text both agents read, and its hash recorded on every tuple."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

from infra.errors import ConfigError


@dataclass(frozen=True)
class Skill:
    apps: tuple[str, ...]
    text: str
    hashes: dict[str, str]  # app -> sha256 of its SKILL.md (provenance)


def load_skill(skills_dir: Path, apps: list[str] | tuple[str, ...]) -> Skill:
    """The SKILL.md of every app the task touches, concatenated in the task's app order."""
    parts, hashes = [], {}
    for app in apps:
        path = skills_dir / app / "SKILL.md"
        if not path.exists():
            raise ConfigError(f"no SKILL.md for app {app!r} at {path}", hint=f"write skills/{app}/SKILL.md")
        text = path.read_text(encoding="utf-8")
        hashes[app] = hashlib.sha256(text.encode()).hexdigest()
        parts.append(text.strip())
    return Skill(tuple(apps), "\n\n---\n\n".join(parts) + "\n", hashes)
