#!/usr/bin/env python3
"""A long rewardkit reward (about 300 lines, like an LLM-written one): a quarterly report in Writer
built from a CSV, with helpers, a precondition and twelve weighted components. Also the scan-time benchmark."""

import csv
import json
import re
import zipfile
from collections import defaultdict
from pathlib import Path

HOME = Path("/home/user")
P = json.loads(
    '{"report": "Documents/q3_report.docx", "data": "Documents/q3_sales.csv", "title": "Q3 sales report", '
    '"author": "Dana Whitfield", "regions": ["North", "South", "East", "West"], "sections": ["Summary", '
    '"Regional results", "Outlook"], "currency": "EUR", "chart": "Documents/q3_chart.png", "decimals": 2, '
    '"highlight": "West", "footer": "Confidential", "font": "Liberation Serif", "data_sha": "3f1c9a"}'
)

# --- rewardkit: weighted, guarded components ---
import json as _json

_COMPONENTS = []
_PRECONDITIONS = []


def component(name, weight):
    """Register a scored check; the function returns a bool or a fraction in [0, 1].

    Registering in a loop? Bind the loop variable as a default (`def check(item=item):`), or every
    component will check the last item.
    """

    def register(fn):
        _COMPONENTS.append((name, float(weight), fn))
        return fn

    return register


def precondition(name):
    """Register a check that must hold on every state the task can reach (not credit)."""

    def register(fn):
        _PRECONDITIONS.append((name, fn))
        return fn

    return register


def _evaluate(fn):
    """(fraction, status, error) of one check; status is ok | missing_output | check_error."""
    try:
        value = fn()
    except FileNotFoundError as exc:  # the output does not exist yet: normal on an initial state
        return 0.0, "missing_output", f"{exc.filename or exc}"[:500]
    except Exception as exc:  # a broken check: reported, never mistaken for "task undone"
        return 0.0, "check_error", f"{type(exc).__name__}: {exc}"[:500]
    if isinstance(value, bool):
        value = 1.0 if value else 0.0
    if not isinstance(value, int | float) or value != value:  # None, a string, NaN
        return 0.0, "check_error", f"returned {value!r}, not a bool or a fraction in [0, 1]"[:500]
    return min(max(float(value), 0.0), 1.0), "ok", None


def grade():
    """Score every check, print the breakdown and `REWARD: x`, return the exit code."""
    if not _COMPONENTS:
        print("no reward components registered")
        return 2
    preconditions = []
    for name, fn in _PRECONDITIONS:
        fraction, status, error = _evaluate(fn)
        preconditions.append({"name": name, "held": fraction >= 1.0, "status": status, "error": error})
    total_weight = sum(weight for _, weight, _ in _COMPONENTS)
    earned = 0.0
    rows = []
    for name, weight, fn in _COMPONENTS:
        fraction, status, error = _evaluate(fn)
        earned += weight * fraction
        rows.append(
            {"name": name, "weight": weight, "score": round(fraction, 4), "status": status, "error": error}
        )
    failed = [p["name"] for p in preconditions if not p["held"]]
    score = 0.0 if failed else min(max(earned / total_weight, 0.0), 1.0)
    breakdown = {"components": rows, "preconditions": preconditions, "preconditions_failed": failed}
    print("BREAKDOWN: " + _json.dumps(breakdown))
    print(f"REWARD: {round(score, 4)}")
    return 0


def _norm(text):
    """Lower-case, single-spaced text for comparisons."""
    return re.sub(r"\s+", " ", str(text or "")).strip().casefold()


def _number(text):
    """The number written in a cell or a line (1,234.50 EUR -> 1234.5), or None."""
    match = re.search(r"-?\d[\d,]*(?:\.\d+)?", str(text or ""))
    if not match:
        return None
    try:
        return float(match.group(0).replace(",", ""))
    except ValueError:
        return None


def _close(a, b, tol=0.005):
    return a is not None and b is not None and abs(a - b) <= tol


def load_sales():
    """Per-region totals from the task's input CSV, the expected values of the report."""
    totals = defaultdict(float)
    with open(HOME / P["data"], newline="", encoding="utf-8") as fh:
        for row in csv.DictReader(fh):
            region = row.get("region", "").strip()
            try:
                totals[region] += float(row.get("amount", "0") or 0)
            except ValueError:
                continue
    return dict(totals)


def data_digest():
    import hashlib

    return hashlib.sha256((HOME / P["data"]).read_bytes()).hexdigest()[:6]


def reward(P):
    import docx

    cache = {}

    def document():
        if "doc" not in cache:
            cache["doc"] = docx.Document(HOME / P["report"])
        return cache["doc"]

    def paragraphs():
        return [p for p in document().paragraphs if p.text.strip()]

    def headings():
        return [p for p in paragraphs() if p.style is not None and p.style.name.startswith("Heading")]

    def section_text(title):
        """The paragraphs between the heading `title` and the next heading."""
        out, inside = [], False
        for p in document().paragraphs:
            is_heading = p.style is not None and p.style.name.startswith("Heading")
            if is_heading:
                inside = _norm(p.text) == _norm(title)
                continue
            if inside and p.text.strip():
                out.append(p.text)
        return out

    def table_rows():
        tables = document().tables
        if not tables:
            return []
        rows = []
        for row in tables[0].rows:
            rows.append([cell.text.strip() for cell in row.cells])
        return rows

    def region_rows():
        rows = table_rows()
        return {r[0]: r[1:] for r in rows[1:] if r and r[0] in P["regions"]}

    def core_properties():
        return document().core_properties

    def embedded_images():
        with zipfile.ZipFile(HOME / P["report"]) as archive:
            return [n for n in archive.namelist() if n.startswith("word/media/")]

    @precondition("the sales data is the one the task started with")
    def data_intact():
        return data_digest() == P["data_sha"]

    @component("the first paragraph is the report title in the Title style", 0.1)
    def title():
        first = paragraphs()[0] if paragraphs() else None
        return first is not None and _norm(first.text) == _norm(P["title"]) and first.style.name == "Title"

    @component("the sections are headings, in order", 0.15)
    def sections():
        found = [_norm(h.text) for h in headings()]
        wanted = [_norm(s) for s in P["sections"]]
        present = sum(w in found for w in wanted) / len(wanted)
        ordered = [f for f in found if f in wanted] == wanted
        return 0.7 * present + 0.3 * ordered

    @component("the summary states the total sales", 0.1)
    def summary_total():
        total = sum(load_sales().values())
        return any(_close(_number(line), total, 0.5) for line in section_text("Summary"))

    @component("the table has a header and one row per region", 0.1)
    def table_shape():
        rows = table_rows()
        if not rows:
            return 0.0
        header_ok = [_norm(c) for c in rows[0][:2]] == ["region", f"total ({_norm(P['currency'])})"]
        regions_ok = sorted(region_rows()) == sorted(P["regions"])
        return 0.4 * header_ok + 0.6 * regions_ok

    @component("each region's total matches the data", 0.2)
    def table_values():
        want = load_sales()
        got = region_rows()
        hits = sum(_close(_number(got.get(r, [""])[0]), want.get(r, 0.0)) for r in P["regions"])
        return hits / len(P["regions"])

    @component("totals are written with two decimals", 0.05)
    def decimals():
        cells = [v[0] for v in region_rows().values() if v]
        if not cells:
            return 0.0
        pattern = re.compile(r"\d\.\d{%d}\b" % P["decimals"])
        return sum(bool(pattern.search(c)) for c in cells) / len(cells)

    @component("the highlighted region's row is bold", 0.1)
    def highlight():
        tables = document().tables
        if not tables:
            return False
        for row in tables[0].rows:
            if row.cells[0].text.strip() == P["highlight"]:
                runs = [r for p in row.cells[0].paragraphs for r in p.runs if r.text.strip()]
                return bool(runs) and all(r.bold for r in runs)
        return False

    @component("the chart image is embedded", 0.1)
    def chart():
        media = embedded_images()
        return len(media) >= 1 and (HOME / P["chart"]).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"

    @component("the author and footer are set", 0.05)
    def author_footer():
        author_ok = _norm(core_properties().author) == _norm(P["author"])
        footers = [p.text for s in document().sections for p in s.footer.paragraphs]
        footer_ok = any(_norm(P["footer"]) in _norm(f) for f in footers)
        return 0.5 * author_ok + 0.5 * footer_ok

    @component("the body font is the requested one", 0.05)
    def font():
        style = document().styles["Normal"]
        return getattr(style.font, "name", None) == P["font"]

    def outlook_lines():
        """The outlook section's sentences, without bullets or numbering."""
        lines = []
        for text in section_text("Outlook"):
            text = re.sub(r"^\s*(?:[-*\u2022]|\d+[.)])\s*", "", text)
            lines.extend(s.strip() for s in re.split(r"(?<=[.!?])\s+", text) if s.strip())
        return lines

    @component("the outlook names every region", 0.05)
    def outlook_regions():
        text = _norm(" ".join(outlook_lines()))
        return sum(_norm(r) in text for r in P["regions"]) / len(P["regions"])

    @component("the outlook ranks the best region first", 0.05)
    def outlook_best():
        totals = load_sales()
        if not totals:
            return False
        best = max(totals, key=totals.get)
        lines = outlook_lines()
        return bool(lines) and _norm(best) in _norm(lines[0])


if __name__ == "__main__":
    reward(P)
    raise SystemExit(grade())
