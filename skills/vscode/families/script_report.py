"""VS Code + terminal: edit a script's threshold in VS Code, then chmod +x it and run it into a report
from the terminal. Data and wording: script_report.yaml."""

from skills.kit.guest import HOME
from skills.kit.guest.rewardkit import component, precondition


def draw(rng, pools):
    kind = rng.choice(sorted(pools["kinds"]))
    project, data, script, thing, measure, column, names, (low, high) = pools["kinds"][kind]
    while True:
        rows = [[name, rng.randint(low, high)] for name in rng.sample(names, rng.randint(7, 10))]
        values = sorted({v for _, v in rows})
        old = rng.choice(values[len(values) // 2 :])  # the current threshold flags few rows
        new = rng.choice([v for v in values if v < old][1:] or [old])  # a lower one flags more
        if new != old and sum(v >= new for _, v in rows) < len(rows):
            break
    return {
        "project": f"Projects/{project}",
        "data": data,
        "script": script,
        "thing": thing,
        "measure": measure,
        "column": column,
        "rows": rows,
        "old": old,
        "new": new,
        "report": f"{rng.choice(pools['reports'])}/{script.removesuffix('.sh')}.txt",
    }


def script_text(P, threshold):
    return (
        "#!/bin/bash\n"
        f"# Lists every {P['thing']} whose {P['measure']} is at or above the alert threshold.\n"
        "set -eu\n"
        f'DATA="$(dirname "$0")/../data/{P["data"]}"\n'
        "# alert threshold, agreed in the last review\n"
        f"THRESHOLD={threshold}\n"
        'awk -F, -v t="$THRESHOLD" \'NR > 1 && $2 + 0 >= t { print $1 "," $2 }\' "$DATA"\n'
    )


def initial_setup(P):
    root = HOME / P["project"]
    (root / "data").mkdir(parents=True, exist_ok=True)
    (root / "scripts").mkdir(parents=True, exist_ok=True)
    lines = [f"name,{P['column']}"] + [f"{name},{value}" for name, value in P["rows"]]
    (root / "data" / P["data"]).write_text("\n".join(lines) + "\n", encoding="utf-8")
    script = root / "scripts" / P["script"]
    script.write_text(script_text(P, P["old"]), encoding="utf-8")
    script.chmod(0o644)


def solve(P, *, mistake=None):
    import subprocess

    root = HOME / P["project"]
    script = root / "scripts" / P["script"]
    report = root / P["report"]
    report.parent.mkdir(parents=True, exist_ok=True)

    def run():
        with open(report, "w", encoding="utf-8") as out:
            subprocess.run(["bash", f"scripts/{P['script']}"], cwd=root, stdout=out, check=True)

    if mistake == "ran_before_edit":
        run()
    script.write_text(script_text(P, P["new"]), encoding="utf-8")
    if mistake != "run_with_bash":
        script.chmod(0o755)
    if mistake != "ran_before_edit":
        run()


def reward(P):
    import os
    import re

    root = HOME / P["project"]
    script = root / "scripts" / P["script"]

    def script_lines():
        return script.read_text(encoding="utf-8").splitlines()

    def threshold():
        found = [m.group(1) for line in script_lines() if (m := re.fullmatch(r"\s*THRESHOLD=(\S+)\s*", line))]
        return found[-1] if found else None

    @precondition("the script's other lines are unchanged")
    def rest_kept():
        def rest(lines):
            return [line.rstrip() for line in lines if not re.match(r"\s*THRESHOLD=", line) and line.strip()]

        expected = rest(script_text(P, P["old"]).splitlines())
        return rest(script_lines()) == expected

    @precondition("the data file is unchanged")
    def data_kept():
        lines = (root / "data" / P["data"]).read_text(encoding="utf-8").split()
        return lines == [f"name,{P['column']}"] + [f"{name},{value}" for name, value in P["rows"]]

    @component(f"the script's THRESHOLD is {P['new']}", 0.3)
    def edited():
        return threshold() == str(P["new"])

    @component("the script is executable by its owner", 0.2)
    def executable():
        return bool(os.stat(script).st_mode & 0o100)

    @component(f"{P['report']} lists the rows at or above {P['new']}", 0.5)
    def report():
        text = (root / P["report"]).read_text(encoding="utf-8")
        got = [line.strip() for line in text.splitlines() if line.strip()]
        return got == [f"{name},{value}" for name, value in P["rows"] if value >= P["new"]]


def demonstrate(P, screen):
    """The terminal is on top: alt+tab to VS Code, File: Open File... the script, select the value
    after `THRESHOLD=` (find, then shift+End) and type the new one, ctrl+s; alt+tab back to the
    terminal for chmod, mkdir and the run (the shell's title tells when it ran)."""
    import shlex

    from skills.vscode.families import _gui

    root = f"/home/user/{P['project']}"
    screen.wait_until(lambda: screen.has_window("Terminal"), what="the terminal")
    _gui.ready(screen)
    yield [{"action": "key", "keys": ["alt", "tab"]}, {"action": "wait", "time": 1}]  # no taskbar
    yield from _gui.open_file(screen, f"{root}/scripts/{P['script']}")
    yield from _gui.after(screen, "THRESHOLD=")
    yield [{"action": "key", "keys": ["shift", "End"]}, {"action": "type", "text": str(P["new"])}]
    yield from _gui.save(screen)
    yield [{"action": "key", "keys": ["alt", "tab"]}, {"action": "wait", "time": 1}]
    done = "Terminal - report written"
    report = shlex.quote(P["report"])
    script = f"./scripts/{shlex.quote(P['script'])}"
    command = (
        f"cd {shlex.quote(root)} && chmod +x {script} && mkdir -p {shlex.quote(P['report'].split('/')[0])}"
        f" && {script} > {report} && cat {report} && printf '\\033]0;{done}\\007'\n"
    )
    yield [{"action": "key", "keys": ["ctrl", "u"]}, {"action": "type", "text": command}]
    screen.wait_until(lambda: screen.has_window(done), timeout_s=30, what="the report to be written")
