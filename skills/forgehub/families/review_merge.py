"""ForgeHub: comment on, approve and merge a pull request. Data and wording: review_merge.yaml."""

from skills.forgehub.families._gui import merge, open_pull
from skills.kit.guest.hub import added_ids, hub_read, hub_write, mentions, next_id, unchanged_except
from skills.kit.guest.rewardkit import component, precondition
from skills.kit.teach_web import compose, press, settle
from skills.kit.webapp import records, seeded


def draw(rng, pools):
    state = seeded("forgehub")
    pulls = {}
    for title in rng.sample(pools["titles"], 3):
        repo = rng.choice(sorted(state["repositories"]))
        pulls.update(records("forgehub", "pull_requests", 1, rng, state, title=title, repo=repo))
    pr = rng.choice(sorted(pulls))
    for record in pulls.values():
        record.update(state="open", review="pending")  # `state` is also records()'s own argument
        record.pop("reviewer", None)
    target = pulls[pr]
    return {
        "world": {"pull_requests": pulls},
        "pr": pr,
        "title": target["title"],
        "repo": target["repo"],
        "repo_name": state["repositories"][target["repo"]]["name"],
        "author": state["users"][target["author"]]["login"],
        "comment": rng.choice(pools["comments"]),
    }


def initial_setup(P):
    hub_write("forgehub", "set", P["world"])


def solve(P, *, mistake=None):
    state = hub_read("forgehub", "state")["stored_state"]
    pull = state["pull_requests"][P["pr"]]
    if mistake != "no_comment":
        cid = next_id(state["comments"], "c", 4)
        state["comments"][cid] = {
            "pull_request": P["pr"],
            "author": state["current_user"],
            "body": P["comment"],
            "created": "2024-06-14T10:00:00Z",
        }
    pull["review"] = "approved"
    pull["reviewer"] = state["current_user"]
    if mistake != "no_merge":
        pull["state"] = "merged"
    hub_write("forgehub", "set_current", state)


def reward(P):
    go = hub_read("forgehub", "go")
    now, before = go["current_state"], go["initial_state"]

    @precondition("the pull request is the one the task names, open and not yet approved")
    def pull_as_described():
        old = before["pull_requests"].get(P["pr"], {})
        return (
            old.get("title") == P["title"] and old.get("state") == "open" and old.get("review") != "approved"
        )

    @precondition("no other pull request changed and no comment was deleted")
    def others_intact():
        return unchanged_except(go, "pull_requests", ids=[P["pr"]]) and unchanged_except(go, "comments")

    @component("it has your review comment", 0.3)
    def commented():
        new = [now["comments"][c] for c in added_ids(go, "comments")]
        return any(c["pull_request"] == P["pr"] and mentions(c["body"], P["comment"]) for c in new)

    @component("it is approved by you", 0.3)
    def approved():
        pull = now["pull_requests"][P["pr"]]
        return pull.get("review") == "approved" and pull.get("reviewer") == now["current_user"]

    @component("it is merged", 0.4)
    def merged():
        return now["pull_requests"][P["pr"]].get("state") == "merged"


def demonstrate(P, screen):
    """Open the pull request from the list, post the comment, press Approve, then Merge and confirm."""
    yield from open_pull(screen, P["title"])
    yield from compose(screen, "review comment", P["comment"])
    yield from press(screen, "Approve")
    screen.wait_until(
        lambda: not screen.elements(lambda e: e.role == "push-button" and e.name == "Approve"),
        timeout_s=10,
        what="the approval to be saved",
    )
    yield from merge(screen)
    yield settle()
