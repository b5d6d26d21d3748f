"""Tracker: hand an issue to a teammate and leave them a comment. Data and wording: assign_and_comment.yaml."""

from skills.kit.guest.hub import add_comment, hub_read, hub_write, mentions, now_iso, unchanged_except
from skills.kit.guest.rewardkit import component, precondition
from skills.tracker.families._gui import choose, chosen, comment, open_issue
from skills.tracker.world import ME, SUMMARIES, project_patch, random_issue, sprint, team


def draw(rng, pools):
    key, users, everyone, people = team(rng, 2, 4)
    sid, active = sprint(key, rng.randint(3, 9), "active", start="2024-05-20", end="2024-05-31")
    summaries = rng.sample(SUMMARIES, rng.randint(6, 9))
    issues = {}
    for number, summary in enumerate(summaries, start=1):
        status = rng.choice(["todo", "in_progress", "in_review"])
        issues[f"{key}-{number}"] = random_issue(
            rng, key, summary, status, rng.choice([sid, sid, None]), people
        )
    number = rng.randint(1, len(summaries))
    target, neighbour = f"{key}-{number}", f"{key}-{number + 1 if number < len(summaries) else number - 1}"
    assignee = rng.choice([p for p in people if p not in (issues[target]["assignee"], ME)])
    world = {"users": users, "projects": project_patch(key), "sprints": {sid: active}, "issues": issues}
    return {
        "world": world,
        "project": key,
        "issue": target,
        "summary": issues[target]["summary"],
        "neighbour": neighbour,
        "assignee": assignee,
        "assignee_name": everyone[assignee],
        "comment": rng.choice(pools["notes"]),
    }


def initial_setup(P):
    hub_write("tracker", "set", P["world"])


def solve(P, *, mistake=None):
    state = hub_read("tracker", "state")["stored_state"]
    if mistake != "not_assigned":
        state["issues"][P["issue"]].update(assignee=P["assignee"], updated=now_iso())
    add_comment(state, P["neighbour"] if mistake == "wrong_issue" else P["issue"], P["comment"])
    hub_write("tracker", "set_current", state)


def reward(P):
    go = hub_read("tracker", "go")
    now, before = go["current_state"], go["initial_state"]
    me = now["current_user"]

    @precondition("the issue is the one the task names, not yet with that assignee")
    def issue_as_described():
        old = before["issues"][P["issue"]]
        return old["summary"] == P["summary"] and old["assignee"] != P["assignee"]

    @precondition("no issue or comment was deleted, no comment edited and no other issue changed hands")
    def others_intact():
        hands_ok = unchanged_except(go, "issues", ids=[P["issue"]], fields=("assignee",))
        return hands_ok and unchanged_except(go, "comments")

    @component("the issue is assigned to the named person", 0.5)
    def assigned():
        return now["issues"][P["issue"]]["assignee"] == P["assignee"]

    @component("you commented on that issue with the note", 0.5)
    def commented():
        new = [c for cid, c in now["comments"].items() if cid not in before["comments"]]
        return any(
            c["issue"] == P["issue"] and c["author"] == me and mentions(c["body"], P["comment"]) for c in new
        )


def demonstrate(P, screen):
    """Open the issue from the top bar's search, pick the assignee, then write and save the comment."""
    yield from open_issue(screen, P["issue"])
    yield from choose(screen, "Assignee", P["assignee_name"])
    chosen(screen, "Assignee", P["assignee_name"], timeout_s=10)
    yield from comment(screen, P["comment"])
    yield [{"action": "wait", "time": 1.0}]  # the app saves each change to the hub as it is made
