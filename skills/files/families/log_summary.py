"""Files: rank the error codes of a log into a report. Data and wording: log_summary.yaml.

The log is made up per seed: ERROR lines with codes whose counts are all different (and far enough
apart that the WARN lines, which repeat some codes, never change the ranking — only the counts), INFO
lines without a code, in time order. The reward reads the report line by line (`uniq -c` padding is
fine) and credits each rank's code and each listed code's count separately."""

from skills.files.world import make_log
from skills.kit.guest import HOME
from skills.kit.guest.rewardkit import component, precondition


def draw(rng, pools):
    return make_log(rng, pools)


def initial_setup(P):
    import os

    logs = HOME / "logs"
    logs.mkdir(parents=True, exist_ok=True)
    (HOME / "reports").mkdir(parents=True, exist_ok=True)
    path = logs / f"{P['service']}.log"
    path.write_text("\n".join(P["log_lines"]) + "\n", encoding="utf-8")
    os.chmod(path, 0o644)


def solve(P, *, mistake=None):
    counted = {}
    for line in P["log_lines"]:
        level, code = line.split()[2:4]
        if level == "ERROR" or (mistake == "warnings_counted" and code != "-"):
            counted[code] = counted.get(code, 0) + 1
    ranked = sorted(counted.items(), key=lambda item: -item[1])[: P["top"] - (mistake == "one_short")]
    report = HOME / "reports" / f"{P['service']}-top-errors.txt"
    report.write_text("".join(f"{n:>7} {code}\n" for code, n in ranked), encoding="utf-8")


def reward(P):
    import hashlib

    log = HOME / "logs" / f"{P['service']}.log"
    report = HOME / "reports" / f"{P['service']}-top-errors.txt"
    rows = []

    def read():
        """The report's non-blank lines split into fields; raises FileNotFoundError while it is missing."""
        if not rows:
            text = report.read_text(encoding="utf-8", errors="replace")
            rows.extend(line.split() for line in text.splitlines() if line.strip())
        return rows

    expected = P["expected"]
    top = P["top"]

    @precondition("the log itself is unchanged")
    def log_kept():
        want = hashlib.sha256(("\n".join(P["log_lines"]) + "\n").encode()).hexdigest()
        return hashlib.sha256(log.read_bytes()).hexdigest() == want

    def code_at(i):
        return rows[i][1] if i < len(rows) and len(rows[i]) == 2 else None

    def count_at(i):
        ok = i < len(rows) and len(rows[i]) == 2 and rows[i][0].isdigit()
        return int(rows[i][0]) if ok else None

    @component(f"the report lists the top {top} ERROR codes, most frequent first, and nothing else", 0.5)
    def ranking():
        read()
        right = sum(code_at(i) == code for i, (code, _) in enumerate(expected))
        return right / top * min(1, top / max(len(rows), 1))

    @component("each listed code carries its number of ERROR lines (WARN lines not counted)", 0.5)
    def counts():
        read()
        truth = P["errors"]
        right = sum(code_at(i) in truth and count_at(i) == truth[code_at(i)] for i in range(top))
        return right / top * min(1, top / max(len(rows), 1))


def demonstrate(P, screen):
    """A terminal is open at the home: one pipeline (ERROR lines, 4th field, count, rank, cut, drop
    uniq's padding) into the report, then show it."""
    screen.wait_until(lambda: screen.has_window("Terminal"), what="the terminal")
    log = f"~/logs/{P['service']}.log"
    report = f"~/reports/{P['service']}-top-errors.txt"
    yield [{"action": "type", "text": f"head -n 5 {log}\n"}]
    pipeline = f"awk '$3 == \"ERROR\" {{print $4}}' {log} | sort | uniq -c | sort -rn | head -n {P['top']}"
    yield [{"action": "type", "text": f"{pipeline} | awk '{{print $1, $2}}' > {report}\n"}]
    yield [{"action": "type", "text": f"cat {report}\n"}, {"action": "wait", "time": 0.5}]
