"""Chirp: like a post and reply to it. Data and wording: like_and_reply.yaml."""

from skills.kit.guest.hub import added_ids, hub_read, hub_write, mentions, next_id, unchanged_except
from skills.kit.guest.rewardkit import component, precondition
from skills.kit.teach_web import compose, open_record, open_view, press, settle
from skills.kit.webapp import seeded


def draw(rng, pools):
    state = seeded("chirp")
    author = rng.choice(["u0002", "u0003", "u0004", "u0005", "u0006"])
    text, decoy = rng.sample(pools["posts"], 2)
    likes = rng.randint(2, 40)
    posts = {
        "p0015": {"body": text, "author": author, "tags": [], "likes": likes, "liked": False},
        "p0016": {"body": decoy, "author": author, "tags": [], "likes": rng.randint(2, 40), "liked": False},
    }
    posts["p0015"]["created"] = "2024-06-14T09:12:00Z"
    posts["p0016"]["created"] = "2024-06-13T16:30:00Z"
    profile = state["profiles"][author]
    return {
        "world": {"posts": posts},
        "post": "p0015",
        "text": text,
        "likes": likes,
        "author": author,
        "handle": profile["handle"],
        "name": profile["name"],
        "reply": rng.choice(pools["replies"]),
    }


def initial_setup(P):
    hub_write("chirp", "set", P["world"])


def solve(P, *, mistake=None):
    state = hub_read("chirp", "state")["stored_state"]
    post = state["posts"][P["post"]]
    if mistake != "no_like":
        post["liked"] = True
        post["likes"] = post["likes"] + 1
    if mistake != "no_reply":
        state["comments"][next_id(state["comments"], "c", 4)] = {
            "post": P["post"],
            "author": state["current_user"],
            "body": P["reply"],
            "created": "2024-06-14T10:00:00Z",
        }
    hub_write("chirp", "set_current", state)


def reward(P):
    go = hub_read("chirp", "go")
    now, before = go["current_state"], go["initial_state"]

    @precondition("the post is the one the task names, not yet liked")
    def post_as_described():
        old = before["posts"].get(P["post"], {})
        return old.get("body") == P["text"] and old.get("author") == P["author"] and not old.get("liked")

    @precondition("no other post changed and no comment was deleted")
    def others_intact():
        return unchanged_except(go, "posts", ids=[P["post"]]) and unchanged_except(go, "comments")

    @component("the post is liked by you, one like more", 0.4)
    def liked():
        post = now["posts"][P["post"]]
        return post.get("liked") is True and post.get("likes") == P["likes"] + 1

    @component("it has your comment", 0.6)
    def replied():
        new = [now["comments"][c] for c in added_ids(go, "comments")]
        return any(
            c["post"] == P["post"]
            and c.get("author") == now["current_user"]
            and mentions(c["body"], P["reply"])
            for c in new
        )


def demonstrate(P, screen):
    """Search the feed for the post and open it; press its Like button in the feed, then add the
    comment in the open post's pane."""
    yield from open_view(screen, "Home")
    yield from open_record(screen, "Home", P["text"])
    yield from press(screen, f"Like post by {P['handle']}")
    screen.find(
        lambda e: e.role == "push-button" and e.name == f"Unlike post by {P['handle']}",
        timeout_s=10,
        what="the like to be saved",
    )
    yield from compose(screen, "comment", P["reply"])
    yield settle()
