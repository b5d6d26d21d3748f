"""Agora: start a pinned thread with tags and an opening post. Data and wording: start_thread.yaml."""

from skills.agora.families._gui import reply
from skills.kit.guest.hub import added_ids, hub_read, hub_write, mentions, next_id, squash, unchanged_except
from skills.kit.guest.rewardkit import component, precondition
from skills.kit.teach import click, in_dialog
from skills.kit.teach_web import choose, open_view, press, settle, showing, type_field
from skills.kit.webapp import seeded


def draw(rng, pools):
    state = seeded("agora")
    category = rng.choice(["cat0001", "cat0003", "cat0004"])
    return {
        "title": rng.choice(pools["titles"]),
        "category": category,
        "category_name": state["categories"][category]["name"],
        "tags": list(rng.choice(pools["tags"])),
        "post": rng.choice(pools["posts"]),
    }


def initial_setup(P):
    hub_write("agora", "set", {})


def solve(P, *, mistake=None):
    state = hub_read("agora", "state")["stored_state"]
    tid = next_id(state["threads"], "t", 4)
    thread = {
        "title": P["title"],
        "category": P["category"],
        "author": state["current_user"],
        "tags": P["tags"],
        "created": "2024-06-14T10:00:00Z",
    }
    if mistake != "not_pinned":
        thread["pinned"] = True
    state["threads"][tid] = thread
    if mistake != "no_post":
        state["posts"][next_id(state["posts"], "r", 4)] = {
            "thread": tid,
            "author": state["current_user"],
            "body": P["post"],
            "created": "2024-06-14T10:00:00Z",
        }
    hub_write("agora", "set_current", state)


def reward(P):
    go = hub_read("agora", "go")
    now, before = go["current_state"], go["initial_state"]
    new = added_ids(go, "threads")
    made = [t for t in new if squash(now["threads"][t]["title"]) == squash(P["title"])]

    @precondition("no thread with that title exists yet")
    def world_as_described():
        return not any(squash(t["title"]) == squash(P["title"]) for t in before["threads"].values())

    @precondition("no existing thread or post changed, and one thread at most was added")
    def others_intact():
        return unchanged_except(go, "threads") and unchanged_except(go, "posts") and len(new) <= 1

    @component("the thread exists in the category", 0.3)
    def exists():
        return any(now["threads"][t]["category"] == P["category"] for t in made)

    @component("it has the tags and is pinned", 0.3)
    def tagged_pinned():
        want = sorted(squash(x) for x in P["tags"])
        return any(
            sorted(squash(x) for x in now["threads"][t].get("tags") or []) == want
            and now["threads"][t].get("pinned") is True
            for t in made
        )

    @component("its opening post is yours, with the text", 0.4)
    def opened():
        posts = [now["posts"][p] for p in added_ids(go, "posts")]
        return any(
            p["thread"] in made and p.get("author") == now["current_user"] and mentions(p["body"], P["post"])
            for p in posts
        )


def demonstrate(P, screen):
    """New thread on Latest: title, category, tags, Pinned ticked; Create thread opens it; then write
    the opening post in its reply box."""
    yield from open_view(screen, "Latest")
    yield from press(screen, "New thread")
    screen.find(lambda e: e.role == "dialog", timeout_s=10, what="the New thread dialog")
    yield from type_field(screen, "Title", P["title"])
    yield from choose(screen, "Category", P["category_name"])
    yield from type_field(screen, "Tags", ", ".join(P["tags"]))
    yield [click(in_dialog(screen, "check-box", "Pinned"))]
    yield [click(in_dialog(screen, "push-button", "Create thread"))]
    screen.wait_until(
        lambda: showing(screen, P["title"], "Latest"), timeout_s=15, what="the new thread to open"
    )
    yield from reply(screen, P["post"])
    yield settle()
