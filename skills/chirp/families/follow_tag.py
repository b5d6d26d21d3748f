"""Chirp: follow every author of a hashtag who is not followed yet. Data and wording: follow_tag.yaml."""

from skills.kit.guest.hub import hub_read, hub_write, unchanged_except
from skills.kit.guest.rewardkit import component, precondition
from skills.kit.teach_web import open_record, open_view, press, settle


def draw(rng, pools):
    tag, other = rng.sample(pools["tags"], 2)
    n = rng.randint(2, 3)
    picks = rng.sample(range(len(pools["handles"])), n + 1)
    colors = ["#0b7285", "#5f3dc4", "#c2255c", "#2b8a3e", "#e67700"]
    profiles, posts = {}, {}
    for k, index in enumerate(picks):
        pid = f"u{7 + k:04d}"
        profiles[pid] = {
            "handle": pools["handles"][index],
            "name": pools["names"][index],
            "followed": False,
            "color": colors[k],
        }
    followed_author = rng.choice(["u0002", "u0003", "u0006"])  # already followed: nothing to do
    authors = [*list(profiles)[:n], followed_author, list(profiles)[n]]
    for k, author in enumerate(authors):
        hashtag = other if k == len(authors) - 1 else tag
        posts[f"p{15 + k:04d}"] = {
            "body": f"{rng.choice(pools['lines'])} #{hashtag}",
            "author": author,
            "tags": [hashtag],
            "likes": rng.randint(0, 20),
            "liked": False,
            "created": f"2024-06-{rng.randint(11, 13)}T{10 + k:02d}:05:00Z",
        }
    targets = list(profiles)[:n]
    return {
        "world": {"profiles": profiles, "posts": posts},
        "tag": tag,
        "targets": targets,
        "handles": [profiles[t]["handle"] for t in targets],
        "decoy": list(profiles)[n],
    }


def initial_setup(P):
    hub_write("chirp", "set", P["world"])


def solve(P, *, mistake=None):
    state = hub_read("chirp", "state")["stored_state"]
    targets = P["targets"][:-1] if mistake == "one_left" else P["targets"]
    for pid in [*targets, P["decoy"]] if mistake == "extra_follow" else targets:
        state["profiles"][pid]["followed"] = True
    hub_write("chirp", "set_current", state)


def reward(P):
    go = hub_read("chirp", "go")
    now, before = go["current_state"], go["initial_state"]

    @precondition("the hashtag's unfollowed authors are the ones the task was built on")
    def world_as_described():
        authors = {p["author"] for p in before["posts"].values() if P["tag"] in (p.get("tags") or [])}
        return sorted(a for a in authors if not before["profiles"][a].get("followed")) == sorted(P["targets"])

    @precondition("no post changed, no profile changed anything but whom you follow")
    def others_intact():
        fields = ("handle", "name", "bio", "city", "color")
        return unchanged_except(go, "posts") and unchanged_except(go, "profiles", fields=fields)

    def follows(pid):
        return bool(now["profiles"][pid].get("followed"))

    @component("each author of the hashtag is followed", 0.7)
    def followed():
        return sum(follows(t) for t in P["targets"]) / len(P["targets"])

    @component("nobody else was newly followed", 0.3)
    def nobody_else():
        others = [p for p in before["profiles"] if p not in P["targets"]]
        extra = any(follows(p) and not before["profiles"][p].get("followed") for p in others)
        return any(follows(t) for t in P["targets"]) and not extra


def demonstrate(P, screen):
    """Open each author of the hashtag (found from the feed's #tag search) in People and press Follow."""
    yield from open_view(screen, "People")
    for handle in P["handles"]:
        yield from open_record(screen, "People", handle)
        yield from press(screen, "Follow")
        screen.find(
            lambda e: e.role == "push-button" and e.name == "Unfollow",
            timeout_s=10,
            what=f"{handle} followed",
        )
    yield settle()
