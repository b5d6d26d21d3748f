"""Reference files: where a setup script leaves what the agent is not meant to see (hidden files
under the home that are not an application's configuration) and files named like an answer key.
A check must not take its expected values from them (the answer_key rule)."""

from __future__ import annotations

import re

APP_DIRS = {
    ".config",
    ".local",
    ".mozilla",
    ".thunderbird",
    ".vscode",
    ".ssh",
    ".gnupg",
    ".pki",
    ".bashrc",
    ".bash_profile",
    ".bash_aliases",
    ".profile",
    ".zshrc",
    ".gitconfig",
    ".vimrc",
    ".inputrc",
    ".npmrc",
    ".themes",
    ".icons",
    ".fonts",
}


ANSWER_RE = re.compile(
    r"(?<![a-z])(answers?|answer[_-]?key|solutions?|expected|golden|gold|ground[_-]?truth|truth|oracle|cheat)"
    r"(?![a-z])",
    re.I,
)


def _home_parts(path: str) -> list[str] | None:
    for prefix in ("/home/user/", "~/"):
        if path.startswith(prefix):
            path = path[len(prefix) :]
            break
    else:
        if path.startswith("/"):
            return None
    return [p for p in path.split("/") if p not in ("", ".", "..", "*")]


def is_hidden(path: str) -> bool:
    """A hidden file under the home that is not an application's own configuration: where a setup
    script leaves what the agent is not meant to see (`~/.answers.json`, `Desktop/.ref.csv`)."""
    parts = _home_parts(path)
    if not parts or parts[0] in APP_DIRS:
        return False
    return any(p.startswith(".") for p in parts)


def answer_named(path: str) -> bool:
    """A file whose name says it holds the expected answers (answers, solution, expected, golden)."""
    return bool(ANSWER_RE.search(path.rsplit("/", 1)[-1]))


def is_reference(path: str) -> bool:
    """A path a check should not take its expected values from: hidden, or named like an answer key.
    (A visible answers.docx the agent must fill in is read as output; it is compared with the
    task's parameters, not used as the expected side, so only comparisons make this a finding.)"""
    return is_hidden(path) or answer_named(path)
