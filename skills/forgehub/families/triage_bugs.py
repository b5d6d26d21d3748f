"""ForgeHub: assign every open bug of a repository and label it triaged. Data and wording: triage_bugs.yaml."""

from skills.kit.guest.hub import hub_read, hub_write, squash, unchanged_except
from skills.kit.guest.rewardkit import component, precondition
from skills.kit.teach_web import choose, open_record, open_view, settle, type_field
from skills.kit.webapp import records, seeded

USERS = {"u0002": "devon-r", "u0003": "sanjay-p", "u0004": "lotte-v", "u0005": "kwame-a"}


def draw(rng, pools):
    state = seeded("forgehub")
    repo = rng.choice(sorted(state["repositories"]))
    other = rng.choice(sorted(set(state["repositories"]) - {repo}))
    user = rng.choice(sorted(USERS))
    # A seeded open bug of the repository would be a target the task never names: make it a feature.
    world = {
        "issues": {
            iid: {**issue, "kind": "feature"}
            for iid, issue in state["issues"].items()
            if issue["repo"] == repo and issue["state"] == "open" and issue["kind"] == "bug"
        }
    }
    state["issues"].update(world["issues"])
    n_targets = rng.randint(2, 3)
    shapes = [{"repo": repo, "state": "open", "kind": "bug"}] * n_targets + [
        {"repo": repo, "state": "closed", "kind": "bug"},
        {"repo": repo, "state": "open", "kind": rng.choice(["feature", "chore"])},
        {"repo": other, "state": "open", "kind": "bug"},
    ]
    targets = []
    for title, shape in zip(rng.sample(pools["titles"], len(shapes)), shapes, strict=True):
        (iid,) = records("forgehub", "issues", 1, rng, state, title=title)
        issue = state["issues"][iid]
        issue.update(shape)  # `state` is a field here, and also records()'s own argument
        issue["labels"] = list(rng.choice(pools["labels"]))
        if issue.get("assignee") == user:
            issue["assignee"] = "u0001"
        world["issues"][iid] = issue
        if len(targets) < n_targets:
            targets.append(iid)
    return {
        "world": world,
        "repo": repo,
        "repo_name": state["repositories"][repo]["name"],
        "user": user,
        "login": USERS[user],
        "targets": targets,
        "titles": [state["issues"][t]["title"] for t in targets],
        "labels": [state["issues"][t]["labels"] for t in targets],
    }


def initial_setup(P):
    hub_write("forgehub", "set", P["world"])


def solve(P, *, mistake=None):
    state = hub_read("forgehub", "state")["stored_state"]
    targets = P["targets"][:-1] if mistake == "one_left" else P["targets"]
    for iid in targets:
        issue = state["issues"][iid]
        issue["assignee"] = P["user"]
        if mistake != "no_label":
            issue["labels"] = [*issue.get("labels", []), "triaged"]
    hub_write("forgehub", "set_current", state)


def reward(P):
    go = hub_read("forgehub", "go")
    now, before = go["current_state"], go["initial_state"]

    @precondition("the repository's open bugs are the ones the task was built on")
    def world_as_described():
        found = sorted(
            iid
            for iid, i in before["issues"].items()
            if i["repo"] == P["repo"] and i["state"] == "open" and i["kind"] == "bug"
        )
        return found == sorted(P["targets"])

    @precondition("no other issue changed and no issue was deleted")
    def others_intact():
        return unchanged_except(go, "issues", ids=P["targets"])

    @component("each open bug is assigned to the developer", 0.6)
    def assigned():
        return sum(now["issues"][t].get("assignee") == P["user"] for t in P["targets"]) / len(P["targets"])

    @component("each open bug is labelled triaged and keeps its labels", 0.4)
    def labelled():
        def ok(t):
            labels = {squash(x) for x in now["issues"][t].get("labels") or []}
            return (
                "triaged" in labels and {squash(x) for x in before["issues"][t].get("labels") or []} <= labels
            )

        return sum(ok(t) for t in P["targets"]) / len(P["targets"])


def demonstrate(P, screen):
    """From Issues, open each open bug of the repository, pick the developer as assignee and append
    "triaged" to its labels."""
    yield from open_view(screen, "Issues")
    for title, labels in zip(P["titles"], P["labels"], strict=True):
        yield from open_record(screen, "Issues", title)
        yield from choose(screen, "Assignee", P["login"])
        yield from type_field(screen, "Labels", ", ".join([*labels, "triaged"]))
        screen.find(
            lambda e: e.role == "entry" and e.name == "Labels" and e.text.endswith("triaged"),
            timeout_s=10,
            what="the triaged label",
        )
    yield settle()
