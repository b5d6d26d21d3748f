"""Files + Writer: rank a log's error codes in the terminal, carry them into a Writer report's table.
Data and wording: errors_to_report.yaml.

The log is log_summary's (skills/files/world.py make_log). The report is a .docx with a 'Top errors'
table whose Rank column is filled (1..N) and whose Code and ERROR lines cells are empty, and a last
sentence 'Total ERROR lines in the log:' to complete. Codes and counts are credited per row apart;
the total is its own component."""

from skills.files.world import make_log
from skills.kit.guest import HOME
from skills.kit.guest.docs import add_table, new_doc, norm, open_doc, save_doc, texts_kept
from skills.kit.guest.rewardkit import component, precondition
from skills.kit.teach import save_keeping_format


def draw(rng, pools):
    P = make_log(rng, pools)
    P.pop("example")
    P["total"] = sum(P["errors"].values())
    P["path"] = f"Documents/incident-{P['service']}-{P['date']}.docx"
    P["author"] = rng.choice(pools["authors"])
    P["intro"] = f"{P['service']} errors on {P['date']}: what failed and how often."
    return P


def texts(P):
    """The report's paragraphs, in order, before and after the table."""
    head = [
        f"Incident review: {P['service']}",
        P["intro"],
        "Top errors",
        "The most frequent error codes among the ERROR lines of the service log:",
    ]
    return head, ["Total ERROR lines in the log:"]


def initial_setup(P):
    import os

    logs = HOME / "logs"
    logs.mkdir(parents=True, exist_ok=True)
    path = logs / f"{P['service']}.log"
    path.write_text("\n".join(P["log_lines"]) + "\n", encoding="utf-8")
    os.chmod(path, 0o644)
    head, tail = texts(P)
    doc = new_doc(P["author"])
    doc.add_paragraph(head[0], style="Title")
    doc.add_paragraph(head[1])
    doc.add_paragraph(head[2], style="Heading 1")
    doc.add_paragraph(head[3])
    add_table(doc, [["Rank", "Code", "ERROR lines"], *[[str(n + 1), "", ""] for n in range(P["top"])]])
    doc.add_paragraph(tail[0])
    save_doc(doc, P["path"])


def solve(P, *, mistake=None):
    counted = {}
    for line in P["log_lines"]:
        level, code = line.split()[2:4]
        if level == "ERROR" or (mistake == "warnings_counted" and code != "-"):
            counted[code] = counted.get(code, 0) + 1
    ranked = sorted(counted.items(), key=lambda item: -item[1])[: P["top"]]
    doc = open_doc(P["path"])
    table = doc.tables[0]
    for row, (code, n) in zip(table.rows[1:], ranked, strict=True):
        row.cells[1].paragraphs[0].text = code
        row.cells[2].paragraphs[0].text = str(n)
    if mistake != "total_missing":
        last = doc.paragraphs[-1]
        last.text = f"{last.text} {sum(counted.values())}"
    save_doc(doc, P["path"])


def reward(P):
    import re
    from functools import cache

    document = cache(lambda: open_doc(P["path"]))  # read inside a component: a missing file scores 0
    top = P["top"]

    @cache
    def rows():
        """(code, count text) of the data rows of the table whose header starts Rank, Code."""
        for table in document().tables:
            cells = [[norm(c.text) for c in row.cells] for row in table.rows]
            if cells and [c.casefold() for c in cells[0][:2]] == ["rank", "code"]:
                return [(r[1], r[2]) if len(r) >= 3 else ("", "") for r in cells[1:]]
        return []

    @precondition("the report's text and the Rank column are unchanged")
    def text_kept():
        head, _ = texts(P)
        ranks = [r for r in (document().tables[0].rows if document().tables else [])][1:]
        ranks_ok = [norm(r.cells[0].text) for r in ranks] == [str(n + 1) for n in range(top)]
        return texts_kept(document(), head) and ranks_ok

    @precondition("the log itself is unchanged")
    def log_kept():
        import hashlib

        want = hashlib.sha256(("\n".join(P["log_lines"]) + "\n").encode()).hexdigest()
        return hashlib.sha256((HOME / "logs" / f"{P['service']}.log").read_bytes()).hexdigest() == want

    @component(f"the table lists the top {top} ERROR codes in rank order", 0.4)
    def codes():
        got = rows()
        return sum(i < len(got) and got[i][0] == code for i, (code, _) in enumerate(P["expected"])) / top

    @component("each listed code has its number of ERROR lines (WARN lines not counted)", 0.4)
    def counts():
        got = rows()
        truth = P["errors"]
        right = sum(
            i < len(got) and got[i][0] in truth and got[i][1] == str(truth[got[i][0]]) for i in range(top)
        )
        return right / top

    @component(f"the last sentence gives the total of {P['total']} ERROR lines", 0.2)
    def total():
        for paragraph in document().paragraphs:
            text = norm(paragraph.text)
            if text.startswith("Total ERROR lines in the log"):
                return re.findall(r"\d+", text) == [str(P["total"])]
        return False


def demonstrate(P, screen):
    """The terminal and Writer are open, Writer on top. Alt+Tab to the terminal and count (the ranking
    pipeline and the total), Alt+Tab back; in Writer: Ctrl+Home, Down over the four one-line
    paragraphs into the table and to its first data row, Tab across the cells typing code and count
    (the values the pipeline printed, known here from the params); Ctrl+End to the end of the last
    sentence for the total; save as .docx."""
    key = lambda *keys: {"action": "key", "keys": list(keys)}  # noqa: E731
    stem = P["path"].rsplit("/", 1)[-1].rsplit(".", 1)[0]
    screen.wait_until(lambda: screen.has_window(stem), what="the report in Writer")
    # the document is laid out once its table's cells are in the accessibility tree: keys sent
    # before that are lost and the typing lands in the wrong cells
    screen.find(lambda e: e.role == "table-cell" and e.name == "B2", what="the table's cells", timeout_s=120)
    log = f"~/logs/{P['service']}.log"
    ranking = f"awk '$3 == \"ERROR\" {{print $4}}' {log} | sort | uniq -c | sort -rn | head -n {P['top']}"
    total = f"awk '$3 == \"ERROR\"' {log} | wc -l"
    yield [key("alt", "tab"), {"action": "wait", "time": 1.0}]  # to the terminal, under Writer
    yield [{"action": "type", "text": f"{ranking}; {total}\n"}, {"action": "wait", "time": 1.0}]
    yield [key("alt", "tab"), {"action": "wait", "time": 1.0}, key("ctrl", "home")]  # back to Writer
    yield [
        key("down"),
        key("down"),
        key("down"),
        key("down"),
        key("down"),
    ]  # title, intro, heading, lead-in, row 1
    cells = []
    for n, (code, count) in enumerate(P["expected"]):
        cells += [
            key("tab"),
            {"action": "type", "text": code},
            key("tab"),
            {"action": "type", "text": str(count)},
        ]
        if n < len(P["expected"]) - 1:
            cells.append(key("tab"))  # to the next row's Rank cell
    yield cells[:9]
    if cells[9:]:
        yield cells[9:]
    yield [key("ctrl", "end"), {"action": "type", "text": f" {P['total']}"}]
    yield from save_keeping_format(screen)
