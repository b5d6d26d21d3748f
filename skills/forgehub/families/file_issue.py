"""ForgeHub: file a new issue through the New issue dialog. Data and wording: file_issue.yaml."""

from skills.kit.guest.hub import added_ids, hub_read, hub_write, mentions, next_id, squash, unchanged_except
from skills.kit.guest.rewardkit import component, precondition
from skills.kit.teach import in_dialog
from skills.kit.teach_web import choose, open_view, press, settle, type_field
from skills.kit.webapp import option_label, seeded

USERS = {"u0002": "devon-r", "u0003": "sanjay-p", "u0004": "lotte-v", "u0005": "kwame-a"}


def draw(rng, pools):
    state = seeded("forgehub")
    repo = rng.choice(sorted(state["repositories"]))
    kind = rng.choice(["feature", "chore", "question"])  # never the default (bug)
    user = rng.choice(sorted(USERS))
    return {
        "repo": repo,
        "repo_name": state["repositories"][repo]["name"],
        "title": rng.choice(pools["titles"]),
        "description": rng.choice(pools["descriptions"]),
        "kind": kind,
        "kind_label": option_label(kind),
        "user": user,
        "login": USERS[user],
        "labels": list(rng.choice(pools["labels"])),
    }


def initial_setup(P):
    hub_write("forgehub", "set", {})


def solve(P, *, mistake=None):
    state = hub_read("forgehub", "state")["stored_state"]
    issue = {
        "title": P["title"],
        "repo": P["repo"],
        "state": "open",
        "kind": "bug" if mistake == "wrong_type" else P["kind"],
        "labels": P["labels"],
        "body": P["description"],
        "created": "2024-06-14T10:00:00Z",
    }
    if mistake != "no_assignee":
        issue["assignee"] = P["user"]
    state["issues"][next_id(state["issues"], "I", 4)] = issue
    hub_write("forgehub", "set_current", state)


def reward(P):
    go = hub_read("forgehub", "go")
    now, before = go["current_state"], go["initial_state"]
    new = [now["issues"][i] for i in added_ids(go, "issues")]
    filed = [i for i in new if squash(i["title"]) == squash(P["title"]) and i["repo"] == P["repo"]]

    @precondition("the repository exists and has no issue with that title yet")
    def world_as_described():
        return P["repo"] in before["repositories"] and not any(
            squash(i["title"]) == squash(P["title"]) for i in before["issues"].values()
        )

    @precondition("no existing issue changed or was deleted, and only one issue was added")
    def others_intact():
        return unchanged_except(go, "issues") and len(new) <= 1

    @component("an open issue with that title is filed in the repository", 0.3)
    def exists():
        return any(i.get("state") == "open" for i in filed)

    @component("its type and assignee are the ones asked", 0.4)
    def triaged():
        return any(i.get("kind") == P["kind"] and i.get("assignee") == P["user"] for i in filed)

    @component("its labels and description are set", 0.3)
    def details():
        want = sorted(squash(x) for x in P["labels"])
        return any(
            sorted(squash(x) for x in i.get("labels") or []) == want
            and mentions(i.get("body", ""), P["description"])
            for i in filed
        )


def demonstrate(P, screen):
    """New issue on Issues; fill the dialog (title, repository, type, assignee, labels, description)
    and create it."""
    yield from open_view(screen, "Issues")
    yield from press(screen, "New issue")
    screen.find(lambda e: e.role == "dialog", timeout_s=10, what="the New issue dialog")
    yield from type_field(screen, "Title", P["title"])
    yield from choose(screen, "Repository", P["repo_name"])
    yield from choose(screen, "Type", P["kind_label"])
    yield from choose(screen, "Assignee", P["login"])
    yield from type_field(screen, "Labels", ", ".join(P["labels"]))
    yield from type_field(screen, "Description", P["description"])
    yield [
        {"action": "left_click", "coordinate": list(in_dialog(screen, "push-button", "Create issue").center)}
    ]
    screen.wait_until(
        lambda: not screen.elements(lambda e: e.role == "dialog"), timeout_s=10, what="the dialog to close"
    )
    yield settle()
