"""Tracker: close the sprint, carry work and backlog issues into the next and start it. Data and wording: close_sprint.yaml."""

from skills.kit.guest.hub import hub_read, hub_write, now_iso, squash, unchanged_except
from skills.kit.guest.rewardkit import component, precondition
from skills.kit.teach import button, click, fill_date, in_dialog, named, toast
from skills.tracker.families._gui import choose, chosen, scrolled_to, showing
from skills.tracker.world import GOALS, SUMMARIES, project_patch, random_issue, sprint, team


def draw(rng, pools):
    key, users, everyone, people = team(rng, 1, 3)
    number = rng.randint(4, 12)
    month, day = rng.choice([(5, 31), (6, 14), (6, 28), (7, 12)])
    prev_id, prev = sprint(key, number - 1, "closed", "2024-04-22", "2024-05-03", rng.choice(GOALS))
    end = f"2024-{month:02d}-{day:02d}"
    cur_id, cur = sprint(key, number, "active", "2024-05-06", end, rng.choice(GOALS))
    next_id, nxt = sprint(key, number + 1, "future")
    summaries = iter(rng.sample(SUMMARIES, 16))
    issues = {}

    def add(status, sprint_id):
        ikey = f"{key}-{len(issues) + 1}"
        issues[ikey] = random_issue(rng, key, next(summaries), status, sprint_id, people)
        return ikey

    for _ in range(rng.randint(1, 2)):
        add("done", prev_id)
    finished = [add("done", cur_id) for _ in range(rng.randint(2, 3))]
    carry = [add(rng.choice(["todo", "in_progress", "in_review"]), cur_id) for _ in range(rng.randint(2, 4))]
    planned = [add("todo", next_id) for _ in range(rng.randint(0, 2))]
    backlog = [add("todo", None) for _ in range(rng.randint(3, 5))]
    order = list(issues)
    rng.shuffle(order)  # keys are not grouped by sprint
    renamed = {old: f"{key}-{n}" for n, old in enumerate(order, start=1)}
    issues = {renamed[k]: issues[k] for k in order}

    def date(offset):  # days after the current sprint's end, in 30-day months
        return f"2024-{month + (day + offset > 30):02d}-{(day + offset - 1) % 30 + 1:02d}"

    sprints = {prev_id: prev, cur_id: cur, next_id: nxt}
    world = {"users": users, "projects": project_patch(key), "issues": issues, "sprints": sprints}
    pull = sorted((renamed[k] for k in rng.sample(backlog, 2)), key=lambda k: int(k.split("-")[1]))
    return {
        "world": world,
        "project": key,
        "current": cur_id,
        "current_name": cur["name"],
        "next": next_id,
        "next_name": nxt["name"],
        "carry": sorted(renamed[k] for k in carry),
        "pull": pull,
        "finished": sorted(renamed[k] for k in finished),
        "planned": sorted(renamed[k] for k in planned),
        "start": date(3),
        "end": date(14),
        "goal": rng.choice([g for g in GOALS if g != cur["goal"]]),
    }


def initial_setup(P):
    hub_write("tracker", "set", P["world"])


def solve(P, *, mistake=None):
    state = hub_read("tracker", "state")["stored_state"]
    done = {sid for sid, st in state["workflow"]["statuses"].items() if st["category"] == "done"}
    carry_to = None if mistake == "carried_to_backlog" else P["next"]
    for issue in state["issues"].values():
        if issue["sprint"] == P["current"] and issue["status"] not in done:
            issue.update(sprint=carry_to, updated=now_iso())
    state["sprints"][P["current"]]["state"] = "closed"
    for key in P["pull"]:
        state["issues"][key].update(sprint=P["next"], updated=now_iso())
    goal = "" if mistake == "no_goal" else P["goal"]
    state["sprints"][P["next"]].update(state="active", start=P["start"], end=P["end"], goal=goal)
    hub_write("tracker", "set_current", state)


def reward(P):
    go = hub_read("tracker", "go")
    now, before = go["current_state"], go["initial_state"]
    done = {sid for sid, st in now["workflow"]["statuses"].items() if st["category"] == "done"}
    nxt = now["sprints"].get(P["next"]) or {}

    @precondition("the sprints and backlog are as the task describes")
    def world_as_described():
        old, cur, sprints = before["issues"], P["current"], before["sprints"]
        unfinished = sorted(k for k, i in old.items() if i["sprint"] == cur and i["status"] not in done)
        states_ok = sprints[cur]["state"] == "active" and sprints[P["next"]]["state"] == "future"
        pull_ok = all(old[k]["sprint"] is None for k in P["pull"])
        return states_ok and pull_ok and unfinished == sorted(P["carry"])

    @precondition("finished work stays in the old sprint, other backlog items stay put, statuses unchanged")
    def others_intact():
        own = [sid for sid, s in before["sprints"].items() if s["project"] == P["project"]]
        moved = [*P["carry"], *P["pull"]]
        issues_ok = unchanged_except(go, "issues", fields=("status",))
        issues_ok = issues_ok and unchanged_except(go, "issues", ids=moved, fields=("sprint",))
        return issues_ok and unchanged_except(go, "sprints", ids=own)

    @component("the old sprint is completed", 0.15)
    def closed():
        return now["sprints"][P["current"]]["state"] == "closed"

    @component("its unfinished issues moved into the next sprint", 0.25)
    def carried():
        return sum(now["issues"][k]["sprint"] == P["next"] for k in P["carry"]) / len(P["carry"])

    @component("the two backlog issues are planned into the next sprint", 0.2)
    def pulled():
        return sum(now["issues"][k]["sprint"] == P["next"] for k in P["pull"]) / len(P["pull"])

    @component("the next sprint is active with the given start and end dates", 0.2)
    def started():
        return nxt.get("state") == "active" and nxt.get("start") == P["start"] and nxt.get("end") == P["end"]

    @component("the next sprint has the agreed goal", 0.2)
    def goal():
        return squash(nxt.get("goal")) == squash(P["goal"])


def demonstrate(P, screen):
    """On the project's board complete the sprint, sending its open issues to the next one; in the
    backlog move the two issues into that sprint with their Sprint selects, then start it."""
    project = P["world"]["projects"][P["project"]]["name"]
    if not showing(screen, project, "board"):
        link = screen.find(
            lambda e: e.role == "link" and e.name == project and e.x < 240, what=f"the {project} link"
        )
        yield [click(link)]
        screen.wait_until(
            lambda: showing(screen, project, "board"), timeout_s=15, what=f"the {project} board"
        )
    yield [click(button(screen, "Complete sprint"))]
    in_dialog(screen, "combo-box", "Move open issues to")
    yield from choose(screen, "Move open issues to", P["next_name"])
    chosen(screen, "Move open issues to", P["next_name"], timeout_s=10)
    yield [click(in_dialog(screen, "push-button", "Complete sprint"))]
    toast(screen, "Sprint completed", timeout_s=10)
    yield [click(screen.find(named("link", "Backlog"), what="the sidebar's Backlog"))]
    screen.wait_until(lambda: showing(screen, project, "backlog"), timeout_s=15, what="the backlog")
    for key in P["pull"]:
        select = f"Sprint of {key}"
        yield from scrolled_to(screen, named("combo-box", select), what=f"the row of {key}", at=(1000, 700))
        yield from choose(screen, select, P["next_name"])
        toast(screen, f"{key} moved to {P['next_name']}", timeout_s=10)
    start = yield from scrolled_to(
        screen, named("push-button", "Start sprint"), what="Start sprint", at=(1000, 700)
    )
    yield [click(start)]
    in_dialog(screen, "spin-button", "Month Start date")
    yield fill_date(screen, "Start date", P["start"])
    yield fill_date(screen, "End date", P["end"])
    goal = in_dialog(screen, "entry", "Sprint goal")
    yield [click(goal), {"action": "type", "text": P["goal"]}]
    yield [click(in_dialog(screen, "push-button", "Start"))]
    toast(screen, f"{P['next_name']} started", timeout_s=10)
    yield [{"action": "wait", "time": 1.0}]  # the app saves each change to the hub as it is made
