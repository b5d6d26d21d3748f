"""Benchmark sets as inputs: OSWorld's own layout, or a plain JSONL.

OSWorld: `evaluation_examples/test_*.json` map a domain to its task ids, and
`evaluation_examples/examples/<domain>/<id>.json` hold `instruction`, `config` (setup steps) and
`evaluator` (func, result, expected, options). A path may be the checkout or its evaluation_examples/.
JSONL: one `{"id", "instruction", "targets"?}` object a line. Every problem (a missing path, a bad
line, a listed task without its file) is a `BenchmarkSetError` naming the path and what is wrong, raised
while loading — before a run starts any work.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from infra.errors import ConfigError
from tasks.decontam.targets import leaf_targets, leaves, text_targets, value_targets

# evaluator fields that name a getter or a metric, not something the task must produce
_EVALUATOR_NOISE = frozenset({"type", "func", "result_type", "conj"})
# where OSWorld keeps its input and gold files: a download URL there is storage, not a checked page
_FILE_HOSTS = ("url:drive.google.com", "url:drive.usercontent.google.com", "url:huggingface.co")


class BenchmarkSetError(ConfigError):
    """A benchmark set given to decontamination is missing or malformed."""


@dataclass(frozen=True)
class BenchmarkTask:
    benchmark: str  # the set's name: "osworld" or the JSONL file's stem
    task_id: str
    instruction: str
    targets: frozenset[str]
    domain: str = ""


def load_sets(paths: list[Path]) -> list[BenchmarkTask]:
    """Every task of every set; a set given twice is loaded once."""
    tasks: list[BenchmarkTask] = []
    for path in dict.fromkeys(p.resolve() for p in paths):
        tasks += load_set(path)
    return tasks


def load_set(path: Path) -> list[BenchmarkTask]:
    if not path.exists():
        raise BenchmarkSetError(
            f"benchmark set {path} does not exist",
            hint="pass an OSWorld checkout (or its evaluation_examples/) or a JSONL file to --decontaminate",
        )
    tasks = _load_osworld(_examples_root(path)) if path.is_dir() else _load_jsonl(path)
    if not tasks:
        raise BenchmarkSetError(f"benchmark set {path} holds no task", hint="point at a non-empty set")
    return tasks


def _examples_root(path: Path) -> Path:
    root = path / "evaluation_examples" if (path / "evaluation_examples").is_dir() else path
    if not sorted(root.glob("test_*.json")) or not (root / "examples").is_dir():
        raise BenchmarkSetError(
            f"{path} is not an OSWorld evaluation_examples folder: it needs test_*.json and examples/",
            hint="pass the OSWorld checkout, its evaluation_examples/ folder, or a JSONL file",
        )
    return root


def _read_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise BenchmarkSetError(f"cannot read {path}: {exc}", hint="the file must be valid JSON") from None


def _load_osworld(root: Path) -> list[BenchmarkTask]:
    listed: dict[tuple[str, str], None] = {}
    for index in sorted(root.glob("test_*.json")):
        mapping = _read_json(index)
        if not isinstance(mapping, dict) or not all(
            isinstance(ids, list) and all(isinstance(i, str) for i in ids) for ids in mapping.values()
        ):
            raise BenchmarkSetError(
                f"{index} must map each domain to a list of task ids",
                hint='the OSWorld format is {"libreoffice_calc": ["<id>", ...], ...}',
            )
        listed |= {(domain, task_id): None for domain, ids in mapping.items() for task_id in ids}
    return [_osworld_task(root / "examples" / d / f"{i}.json", d, i) for d, i in listed]


def _osworld_task(path: Path, domain: str, task_id: str) -> BenchmarkTask:
    if not path.is_file():
        raise BenchmarkSetError(
            f"{path} is missing: the test lists task {task_id} of domain {domain}",
            hint="use a complete OSWorld checkout (git clone xlang-ai/OSWorld)",
        )
    example = _read_json(path)
    instruction = example.get("instruction") if isinstance(example, dict) else None
    if not isinstance(instruction, str) or not instruction.strip():
        raise BenchmarkSetError(f"{path} has no instruction", hint="an OSWorld example needs `instruction`")
    evaluator = example.get("evaluator") or {}
    if not isinstance(evaluator, dict | list):
        raise BenchmarkSetError(f"{path}: `evaluator` must be an object", hint="see OSWorld's examples")
    checked = {
        t
        for t in leaf_targets(leaves(evaluator, skip_keys=_EVALUATOR_NOISE))
        if not t.startswith(_FILE_HOSTS)
    }
    # the files its setup downloads or opens are what the task works on (their names, not their URLs:
    # those point at OSWorld's file host, not at anything the task checks)
    setup = {t for t in leaf_targets(leaves(example.get("config") or [])) if t.startswith("file:")}
    targets = frozenset(text_targets(instruction) | checked | setup)
    return BenchmarkTask("osworld", str(example.get("id") or task_id), instruction, targets, domain)


def _load_jsonl(path: Path) -> list[BenchmarkTask]:
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise BenchmarkSetError(f"cannot read {path}: {exc}", hint="a JSONL set is UTF-8 text") from None
    tasks, seen = [], set()
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        where = f"{path}, line {number}"
        try:
            row = json.loads(line)
        except json.JSONDecodeError as exc:
            raise BenchmarkSetError(f"{where} is not JSON: {exc}", hint="one JSON object a line") from None
        tasks.append(_jsonl_task(row, where, path.stem))
        if tasks[-1].task_id in seen:
            raise BenchmarkSetError(f"{where}: id {tasks[-1].task_id!r} repeats", hint="ids must be unique")
        seen.add(tasks[-1].task_id)
    return tasks


def _jsonl_task(row: Any, where: str, benchmark: str) -> BenchmarkTask:
    hint = 'each line is {"id": "...", "instruction": "...", "targets": ["file or value", ...]}'
    if not isinstance(row, dict):
        raise BenchmarkSetError(f"{where} is not a JSON object", hint=hint)
    task_id, instruction, targets = row.get("id"), row.get("instruction"), row.get("targets", [])
    if not isinstance(task_id, str | int) or isinstance(task_id, bool) or str(task_id) == "":
        raise BenchmarkSetError(f"{where} has no `id`", hint=hint)
    if not isinstance(instruction, str) or not instruction.strip():
        raise BenchmarkSetError(f"{where} has no `instruction`", hint=hint)
    if not isinstance(targets, list) or not all(isinstance(t, str | int | float) for t in targets):
        raise BenchmarkSetError(f"{where}: `targets` must be a list of strings", hint=hint)
    found = set(text_targets(instruction))
    for target in targets:
        found |= value_targets(target)
    domain = row.get("domain") if isinstance(row.get("domain"), str) else ""
    return BenchmarkTask(benchmark, str(task_id), instruction, frozenset(found), domain)
