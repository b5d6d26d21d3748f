"""Pagewise: publish a space's in-review pages and sign each off. Data and wording: publish_reviewed.yaml."""

from skills.kit.guest.hub import added_ids, hub_read, hub_write, mentions, next_id, unchanged_except
from skills.kit.guest.rewardkit import component, precondition
from skills.kit.teach_web import compose, open_record, open_view, press, settle
from skills.kit.webapp import records, seeded

SPACES = {"s0001": "Engineering", "s0002": "People Ops", "s0003": "Product"}


def draw(rng, pools):
    state = seeded("pagewise")
    space = rng.choice(sorted(SPACES))
    others = [s for s in SPACES if s != space]
    titles = rng.sample(pools["titles"], 5)
    n_new = rng.randint(1, 3)
    pages = {}
    for index, title in enumerate(titles):
        # the space's new in-review pages, then a draft of the space and in-review pages elsewhere
        fixed = {"title": title, "space": space if index <= n_new else rng.choice(others)}
        fixed["status"] = "draft" if index == n_new else "in_review"
        fixed["parent"] = None
        pages.update(records("pagewise", "pages", 1, rng, state, **fixed))
    for record in pages.values():
        record.pop("parent")
    targets = sorted(
        pid for pid, p in state["pages"].items() if p["space"] == space and p["status"] == "in_review"
    )
    return {
        "world": {"pages": pages},
        "space": space,
        "space_name": SPACES[space],
        "targets": targets,
        "titles": [state["pages"][t]["title"] for t in targets],
        "decoys": [pid for pid in pages if pid not in targets],
        "comment": rng.choice(pools["comments"]),
    }


def initial_setup(P):
    hub_write("pagewise", "set", P["world"])


def solve(P, *, mistake=None):
    state = hub_read("pagewise", "state")["stored_state"]
    targets = P["targets"][:-1] if mistake == "one_left" else P["targets"]
    for pid in targets:
        if mistake != "no_comments":
            cid = next_id(state["comments"], "c", 4)
            state["comments"][cid] = {
                "page": pid,
                "body": P["comment"],
                "author": state["current_user"],
                "created": "2024-06-14T10:00:00Z",
            }
        state["pages"][pid]["status"] = "published"
    hub_write("pagewise", "set_current", state)


def reward(P):
    go = hub_read("pagewise", "go")
    now, before = go["current_state"], go["initial_state"]

    @precondition("the space's in-review pages are the ones the task implies")
    def world_as_described():
        waiting = sorted(
            pid
            for pid, p in before["pages"].items()
            if p["space"] == P["space"] and p["status"] == "in_review"
        )
        return waiting == sorted(P["targets"])

    @precondition("no other page changed and nothing was deleted")
    def others_intact():
        return (
            unchanged_except(go, "pages", ids=P["targets"])
            and unchanged_except(go, "comments")
            and unchanged_except(go, "spaces")
            and unchanged_except(go, "members")
        )

    @component("each in-review page of the space is published", 0.6)
    def published():
        return sum(now["pages"][t]["status"] == "published" for t in P["targets"]) / len(P["targets"])

    @component("each of them got the sign-off comment", 0.4)
    def signed_off():
        new = [now["comments"][c] for c in added_ids(go, "comments")]
        return sum(
            any(c["page"] == t and mentions(c["body"], P["comment"]) for c in new) for t in P["targets"]
        ) / len(P["targets"])


def demonstrate(P, screen):
    """For each in-review page of the space (read off All pages filtered by space and status in the
    task's world): open it, add the comment, then press Publish."""
    yield from open_view(screen, "All pages")
    for title in P["titles"]:
        yield from open_record(screen, "All pages", title)
        yield from compose(screen, "comment", P["comment"])
        yield from press(screen, "Publish")
        screen.find(
            lambda e: e.role == "push-button" and e.name == "Archive", timeout_s=10, what="the page published"
        )
    yield settle()
