"""Chirp: publish a post with hashtags from the composer. Data and wording: share_update.yaml."""

from skills.kit.guest.hub import added_ids, hub_read, hub_write, mentions, next_id, squash, unchanged_except
from skills.kit.guest.rewardkit import component, precondition
from skills.kit.teach import click, named
from skills.kit.teach_web import open_view, press, settle


def draw(rng, pools):
    return {"sentence": rng.choice(pools["sentences"]), "tags": rng.sample(pools["hashtags"], 2)}


def initial_setup(P):
    hub_write("chirp", "set", {})


def solve(P, *, mistake=None):
    state = hub_read("chirp", "state")["stored_state"]
    tags = {"no_hashtags": [], "one_hashtag": P["tags"][:1]}.get(mistake, P["tags"])
    state["posts"][next_id(state["posts"], "p", 4)] = {
        "body": " ".join([P["sentence"], *(f"#{t}" for t in tags)]),
        "author": state["current_user"],
        "tags": tags,
        "likes": 0,
        "liked": False,
        "created": "2024-06-14T10:00:00Z",
    }
    hub_write("chirp", "set_current", state)


def reward(P):
    go = hub_read("chirp", "go")
    now = go["current_state"]
    new = [now["posts"][p] for p in added_ids(go, "posts")]
    mine = [p for p in new if p.get("author") == now["current_user"] and mentions(p["body"], P["sentence"])]

    @precondition("no existing post changed or was deleted, and one post at most was added")
    def others_intact():
        return unchanged_except(go, "posts") and len(new) <= 1

    @component("a new post of yours has the text", 0.6)
    def posted():
        return bool(mine)

    @component("it carries both hashtags", 0.4)
    def tagged():
        def has(p, t):
            return squash(t) in {squash(x) for x in p.get("tags") or []} and mentions(p["body"], f"#{t}")

        return max((sum(has(p, t) for t in P["tags"]) / len(P["tags"]) for p in mine), default=0.0)


def demonstrate(P, screen):
    """Type the text and the hashtags into the "What's new?" composer on Home and press Post."""
    text = " ".join([P["sentence"], *(f"#{t}" for t in P["tags"])])
    yield from open_view(screen, "Home")
    box = screen.find(named("entry", "What's new?"), what="the composer")
    yield [click(box), {"action": "type", "text": text}]
    yield from press(screen, "Post")
    screen.find(named("link", text), timeout_s=10, what="the new post in the feed")
    yield settle()
