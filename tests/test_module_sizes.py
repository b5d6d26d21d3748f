"""Modules stay small (DESIGN.md §6, issue 25): no Python file of the package folders is longer than
500 lines. A module past that is split by what its parts hold, not trimmed."""

from __future__ import annotations

from pathlib import Path

from infra.settings import PROJECT_ROOT

MAX_LINES = 500
PACKAGES = ("infra", "tasks", "skills", "flows", "training", "warehouse")

# Files being split right now by other work, each with why; remove an entry once its split lands.
BEING_SPLIT: set[str] = set()


def line_count(path: Path) -> int:
    return len(path.read_text(encoding="utf-8").splitlines())


def oversized(root: Path) -> list[str]:
    """'path: N lines' for each .py file under the package folders of `root` past MAX_LINES."""
    found = []
    for package in PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            count = line_count(path)
            if count > MAX_LINES:
                found.append(f"{path.relative_to(root).as_posix()}: {count} lines")
    return found


def test_no_module_is_longer_than_500_lines():
    for package in PACKAGES:
        assert (PROJECT_ROOT / package).is_dir(), f"package folder {package}/ is missing"
    offences = [o for o in oversized(PROJECT_ROOT) if o.split(":")[0] not in BEING_SPLIT]
    assert not offences, "split these by what their parts hold:\n" + "\n".join(offences)


def test_the_allow_list_names_only_files_that_exist_and_are_too_long():
    """An entry whose split has landed (or whose file is gone) must leave the list, so the list
    never grows into a silent exemption."""
    stale = [
        name
        for name in sorted(BEING_SPLIT)
        if not (PROJECT_ROOT / name).is_file() or line_count(PROJECT_ROOT / name) <= MAX_LINES
    ]
    assert not stale, f"remove from BEING_SPLIT (now <= {MAX_LINES} lines or gone): {stale}"


def test_an_oversized_module_is_found(tmp_path):
    (tmp_path / "tasks" / "deep").mkdir(parents=True)
    (tmp_path / "tasks" / "deep" / "big.py").write_text("x = 1\n" * (MAX_LINES + 1), encoding="utf-8")
    (tmp_path / "tasks" / "small.py").write_text("x = 1\n" * MAX_LINES, encoding="utf-8")
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "long_test.py").write_text("x = 1\n" * 900, encoding="utf-8")  # not a package
    assert oversized(tmp_path) == [f"tasks/deep/big.py: {MAX_LINES + 1} lines"]
