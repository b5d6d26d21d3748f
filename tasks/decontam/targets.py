"""Normalising what is compared: instructions to word 3-grams, and what a task checks to targets.

A target is a typed token — `file:report.xlsx`, `cell:d11`, `url:example.com/a`, `value:114479.57` —
so a tuple and a benchmark task that check the same file, cell, value or page share a token however
differently they are worded. Paths are reduced to their file names (our guest paths and OSWorld's
differ in the folder, not in the name), URLs lose their scheme and trailing slash.
"""

from __future__ import annotations

import ast
import re
import unicodedata
from collections.abc import Iterable, Iterator
from typing import Any

NGRAM = 3
_WORD = re.compile(r"[a-z0-9]+(?:[._'-][a-z0-9]+)*")
_SUFFIXES = (
    "xlsx|xls|ods|csv|tsv|docx|doc|odt|rtf|pptx|ppt|odp|pdf|txt|md|json|jsonc|yaml|yml|xml|html|htm|"
    "py|js|ts|sh|ini|cfg|conf|toml|png|jpg|jpeg|gif|svg|mp3|mp4|zip|tar|gz|ics|vcf|eml|log|sql|db"
)
_FILE = re.compile(rf"[\w.~-]*\w\.(?:{_SUFFIXES})\b", re.IGNORECASE)
_URL = re.compile(r"https?://[^\s\"'<>)\]]+", re.IGNORECASE)
_CELL = re.compile(r"\b\$?([A-Z]{1,3})\$?([1-9][0-9]{0,5})\b")  # upper case only: "a1" is a word
_QUOTED = re.compile(r"[\"“‘']([^\"“”‘’']{4,60})[\"”’']")
_NUMBER = re.compile(r"(?<![\w.])-?\d[\d,]*(?:\.\d+)?(?![\w.])")
# leaves that say nothing about one task in particular
_GENERIC = {"true", "false", "none", "null", "yes", "no", "sheet1", "default", "utf-8"}
MAX_DEPTH = 4  # params' nested worlds (a whole mailbox) are state, not what the reward checks
MAX_LEAVES = 400


def normalise(text: str) -> str:
    return unicodedata.normalize("NFKC", text).lower()


def words(text: str) -> list[str]:
    return _WORD.findall(normalise(text))


def word_ngrams(text: str, n: int = NGRAM) -> list[str]:
    """The distinct word n-grams of `text` (a shorter text is one gram of all its words)."""
    tokens = words(text)
    if len(tokens) < n:
        return [" ".join(tokens)] if tokens else []
    return sorted({" ".join(tokens[i : i + n]) for i in range(len(tokens) - n + 1)})


def _number(raw: str) -> str | None:
    value = raw.replace(",", "")
    try:
        number = float(value)
    except ValueError:
        return None
    if number.is_integer() and abs(number) < 10:  # counts and indexes: every task has them
        return None
    return f"value:{int(number)}" if number.is_integer() else f"value:{number:.12g}"


def _url(raw: str) -> str:
    url = re.sub(r"^https?://", "", raw.lower()).rstrip("/.,;")
    return f"url:{url}"


def text_targets(text: str) -> set[str]:
    """Files, URLs, cells, quoted strings and non-trivial numbers named in free text."""
    found: set[str] = set()
    urls = _URL.findall(text)
    found |= {_url(u) for u in urls}
    rest = _URL.sub(" ", text)
    found |= {"file:" + m.rsplit("/", 1)[-1].lower() for m in _FILE.findall(rest)}
    found |= {f"cell:{col.lower()}{row}" for col, row in _CELL.findall(rest)}
    found |= {f"value:{normalise(q).strip()}" for q in _QUOTED.findall(rest) if q.strip()}
    found |= {t for raw in _NUMBER.findall(_FILE.sub(" ", rest)) if (t := _number(raw))}
    return {t for t in found if t.split(":", 1)[1] not in _GENERIC}


def value_targets(value: Any) -> set[str]:
    """A checked leaf (a param, an evaluator's expected value, a JSONL target) as targets: its files,
    URLs and cells, or the whole leaf as a value when it is short."""
    if isinstance(value, bool) or value is None:
        return set()
    if isinstance(value, int | float):
        return {t} if (t := _number(repr(value))) else set()
    text = str(value).strip()
    found = text_targets(text)
    if not found and 3 <= len(text) <= 60 and normalise(text) not in _GENERIC:
        found = {f"value:{normalise(text)}"}
    return found


def leaves(data: Any, *, skip_keys: frozenset[str] = frozenset(), depth: int = 0) -> Iterator[Any]:
    """Scalar leaves of nested dicts/lists, at most MAX_DEPTH deep, without the `skip_keys` fields."""
    if depth > MAX_DEPTH:
        return
    if isinstance(data, dict):
        for key, item in data.items():
            if key not in skip_keys:
                yield from leaves(item, skip_keys=skip_keys, depth=depth + 1)
    elif isinstance(data, list | tuple):
        for item in data:
            yield from leaves(item, skip_keys=skip_keys, depth=depth + 1)
    else:
        yield data


def leaf_targets(values: Iterable[Any]) -> set[str]:
    found: set[str] = set()
    for count, value in enumerate(values):
        if count >= MAX_LEAVES:
            break
        found |= value_targets(value)
    return found


def reward_targets(reward_py: str) -> set[str]:
    """The files, URLs and cells reward.py's string constants name (what it opens and reads); its
    other strings are messages and component names, not targets."""
    try:
        tree = ast.parse(reward_py)
    except SyntaxError:
        return set()  # a verified tuple's reward parses; an unparsable one adds nothing
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and len(node.value) <= 200:
            found |= {t for t in text_targets(node.value) if not t.startswith("value:")}
    return found


def spec_targets(instruction: str, params: dict, reward_py: str = "") -> frozenset[str]:
    """What a tuple checks: named in its instruction, pinned by its params, opened by its reward."""
    return frozenset(text_targets(instruction) | leaf_targets(leaves(params)) | reward_targets(reward_py))
