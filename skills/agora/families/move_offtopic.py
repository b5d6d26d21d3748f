"""Agora: move every thread with a tag to the Lounge and lock it. Data and wording: move_offtopic.yaml."""

from skills.agora.families._gui import open_thread
from skills.kit.guest.hub import hub_read, hub_write, unchanged_except
from skills.kit.guest.rewardkit import component, precondition
from skills.kit.teach_web import choose, open_view, press, settle
from skills.kit.webapp import seeded


def draw(rng, pools):
    state = seeded("agora")
    tag = rng.choice(pools["tags"])
    n = rng.randint(2, 3)
    titles = rng.sample(pools["titles"], n) + rng.sample(pools["kept"], 2)
    threads = {}
    for k, title in enumerate(titles):
        tid = f"t{len(state['threads']) + k + 1:04d}"
        tags = [tag] if k < n else rng.choice([["question"], ["idea"]])
        threads[tid] = {
            "title": title,
            "category": rng.choice(["cat0001", "cat0002", "cat0003", "cat0004"]),
            "author": rng.choice(["m0002", "m0003", "m0004"]),
            "tags": tags,
            "solved": False,
            "pinned": False,
            "locked": False,
            "created": f"2024-06-{10 + k:02d}T15:20:00Z",
        }
    targets = list(threads)[:n]
    return {
        "world": {"threads": threads},
        "tag": tag,
        "targets": targets,
        "titles": [threads[t]["title"] for t in targets],
        "lounge": "cat0005",
    }


def initial_setup(P):
    hub_write("agora", "set", P["world"])


def solve(P, *, mistake=None):
    state = hub_read("agora", "state")["stored_state"]
    targets = P["targets"][:-1] if mistake == "one_left" else P["targets"]
    for tid in targets:
        state["threads"][tid]["category"] = P["lounge"]
        if mistake != "not_locked":
            state["threads"][tid]["locked"] = True
    hub_write("agora", "set_current", state)


def reward(P):
    go = hub_read("agora", "go")
    now, before = go["current_state"], go["initial_state"]

    @precondition("the tagged threads are the ones the task was built on, none in the Lounge")
    def world_as_described():
        tagged = [tid for tid, t in before["threads"].items() if P["tag"] in (t.get("tags") or [])]
        return sorted(tagged) == sorted(P["targets"]) and all(
            before["threads"][t]["category"] != P["lounge"] for t in tagged
        )

    @precondition("no other thread changed and no post was touched")
    def others_intact():
        return unchanged_except(go, "threads", ids=P["targets"]) and unchanged_except(go, "posts")

    @component("each tagged thread is in the Lounge", 0.5)
    def moved():
        return sum(now["threads"][t]["category"] == P["lounge"] for t in P["targets"]) / len(P["targets"])

    @component("each tagged thread is locked", 0.5)
    def locked():
        return sum(now["threads"][t].get("locked") is True for t in P["targets"]) / len(P["targets"])


def demonstrate(P, screen):
    """Open each tagged thread from Latest, pick Lounge as its category, then press Lock thread."""
    yield from open_view(screen, "Latest")
    for title in P["titles"]:
        yield from open_thread(screen, title)
        yield from choose(screen, "Category", "Lounge")
        yield from press(screen, "Lock thread")
        screen.find(
            lambda e: e.role == "push-button" and e.name == "Unlock thread",
            timeout_s=10,
            what="the thread locked",
        )
    yield settle()
