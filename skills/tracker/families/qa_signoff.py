"""Tracker: move the sprint's QA-passed issues to Done and note the build on each. Data and wording: qa_signoff.yaml."""

from skills.kit.guest.hub import add_comment, hub_read, hub_write, mentions, now_iso, unchanged_except
from skills.kit.guest.rewardkit import component, precondition
from skills.tracker.families._gui import choose, chosen, close_issue, comment, open_issue
from skills.tracker.world import SUMMARIES, project_patch, random_issue, sprint, team


def draw(rng, pools):
    key, users, everyone, people = team(rng, 1, 3)
    label, open_ = pools["label"], pools["open"]
    number = rng.randint(3, 9)
    sid, active = sprint(key, number, "active", start="2024-05-20", end="2024-05-31")
    future_id, future = sprint(key, number + 1, "future")
    summaries = rng.sample(SUMMARIES, rng.randint(7, 10))
    n_targets = rng.randint(2, 4)
    issues = {}
    for index, summary in enumerate(summaries, start=1):
        item = random_issue(rng, key, summary, rng.choice([*open_, "done"]), sid, people)
        item["labels"] = [x for x in item["labels"] if x != label]
        issues[f"{key}-{index}"] = item
    targets = rng.sample(list(issues), n_targets)
    for ikey in targets:
        issues[ikey].update(status=rng.choice(open_), labels=[*issues[ikey]["labels"], label])
    # Traps: a qa-passed issue already Done, and one in the next sprint (neither is to be touched).
    extra = [k for k in issues if k not in targets]
    for k, trap in zip(extra, [{"status": "done"}, {"sprint": future_id, "status": "todo"}], strict=False):
        issues[k].update(trap, labels=[*issues[k]["labels"], label])
    targets.sort(key=lambda k: int(k.split("-")[1]))
    world = {"users": users, "projects": project_patch(key), "sprints": {sid: active, future_id: future}}
    return {
        "world": world | {"issues": issues},
        "project": key,
        "sprint": sid,
        "sprint_name": active["name"],
        "label": label,
        "targets": targets,
        "slowest": min(targets, key=lambda k: open_.index(issues[k]["status"])),
        "build": f"{rng.randint(2, 9)}.{rng.randint(0, 20)}.{rng.randint(0, 9)}",
    }


def initial_setup(P):
    hub_write("tracker", "set", P["world"])


def solve(P, *, mistake=None):
    state = hub_read("tracker", "state")["stored_state"]
    for key in P["targets"]:
        status = "in_review" if mistake == "one_short" and key == P["slowest"] else "done"
        state["issues"][key].update(status=status, updated=now_iso())
        if mistake != "no_comments":
            add_comment(state, key, f"Verified by QA on build {P['build']}.")
    hub_write("tracker", "set_current", state)


def reward(P):
    go = hub_read("tracker", "go")
    now, before = go["current_state"], go["initial_state"]
    me = now["current_user"]
    done = {sid for sid, st in now["workflow"]["statuses"].items() if st["category"] == "done"}

    @precondition("the signed-off issues are the open issues of the active sprint labelled qa-passed")
    def world_as_described():
        old = before["issues"]
        labelled = [k for k, i in old.items() if i["sprint"] == P["sprint"] and P["label"] in i["labels"]]
        return sorted(k for k in labelled if old[k]["status"] not in done) == sorted(P["targets"])

    @precondition("no other issue changed status, no comment was edited and nothing was deleted")
    def others_intact():
        statuses_ok = unchanged_except(go, "issues", ids=P["targets"], fields=("status",))
        return statuses_ok and unchanged_except(go, "comments")

    @component("every qa-passed issue is Done", 0.6)
    def finished():
        return sum(now["issues"][key]["status"] in done for key in P["targets"]) / len(P["targets"])

    @component("each of them has your comment naming the verified build", 0.4)
    def recorded():
        new = [c for cid, c in now["comments"].items() if cid not in before["comments"]]
        mine = [c for c in new if c["author"] == me and mentions(c["body"], P["build"])]
        return sum(any(c["issue"] == key for c in mine) for key in P["targets"]) / len(P["targets"])


# The workflow's forward step from each open status: (next status, its name in the Status select).
FORWARD = {
    "todo": ("in_progress", "In Progress"),
    "in_progress": ("in_review", "In Review"),
    "in_review": ("done", "Done"),
}


def demonstrate(P, screen):
    """Open each qa-passed issue from the top bar's search, step its Status forward to Done (the
    select offers only the workflow's next steps), comment the build and close it."""
    for key in P["targets"]:
        yield from open_issue(screen, key)
        status = P["world"]["issues"][key]["status"]
        while status != "done":
            status, name = FORWARD[status]
            yield from choose(screen, "Status", f"→ {name}")
            chosen(screen, "Status", name, timeout_s=10)
        yield from comment(screen, f"Verified by QA on build {P['build']}.")
        yield from close_issue(screen, key)
    yield [{"action": "wait", "time": 1.0}]  # the app saves each change to the hub as it is made
