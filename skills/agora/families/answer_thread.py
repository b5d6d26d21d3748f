"""Agora: answer a question thread and mark it solved. Data and wording: answer_thread.yaml."""

from skills.agora.families._gui import reply
from skills.kit.guest.hub import added_ids, hub_read, hub_write, mentions, next_id, unchanged_except
from skills.kit.guest.rewardkit import component, precondition
from skills.kit.teach_web import open_record, open_view, press, settle
from skills.kit.webapp import seeded

ASKERS = {"m0002": "quietfox", "m0003": "byte_baker", "m0004": "ferngully"}


def draw(rng, pools):
    state = seeded("agora")
    threads, posts = {}, {}
    for k, title in enumerate(rng.sample(pools["titles"], 3)):
        tid, author = f"t{len(state['threads']) + k + 1:04d}", rng.choice(sorted(ASKERS))
        stamp = f"2024-06-1{k + 1}T0{k + 7}:30:00Z"
        threads[tid] = {"title": title, "category": "cat0002", "author": author, "tags": ["question"]}
        threads[tid] |= {"solved": False, "pinned": False, "locked": False, "created": stamp}
        posts[f"r{len(state['posts']) + k + 1:04d}"] = {
            "thread": tid,
            "author": author,
            "body": f"{title}: any idea what to try?",
            "created": stamp,
        }
    thread = rng.choice(sorted(threads))
    return {
        "world": {"threads": threads, "posts": posts},
        "thread": thread,
        "title": threads[thread]["title"],
        "asker": ASKERS[threads[thread]["author"]],
        "answer": rng.choice(pools["answers"]),
    }


def initial_setup(P):
    hub_write("agora", "set", P["world"])


def solve(P, *, mistake=None):
    state = hub_read("agora", "state")["stored_state"]
    if mistake != "no_reply":
        state["posts"][next_id(state["posts"], "r", 4)] = {
            "thread": P["thread"],
            "author": state["current_user"],
            "body": P["answer"],
            "created": "2024-06-14T10:00:00Z",
        }
    if mistake != "not_solved":
        state["threads"][P["thread"]]["solved"] = True
    hub_write("agora", "set_current", state)


def reward(P):
    go = hub_read("agora", "go")
    now, before = go["current_state"], go["initial_state"]

    @precondition("the thread is the one the task names, open and unsolved")
    def thread_as_described():
        old = before["threads"].get(P["thread"], {})
        return old.get("title") == P["title"] and not old.get("solved") and not old.get("locked")

    @precondition("no other thread changed and no post was deleted or edited")
    def others_intact():
        return unchanged_except(go, "threads", ids=[P["thread"]]) and unchanged_except(go, "posts")

    @component("the thread has your answer", 0.6)
    def answered():
        new = [now["posts"][p] for p in added_ids(go, "posts")]
        return any(
            p["thread"] == P["thread"]
            and p.get("author") == now["current_user"]
            and mentions(p["body"], P["answer"])
            for p in new
        )

    @component("the thread is marked solved", 0.4)
    def solved():
        return now["threads"][P["thread"]].get("solved") is True


def demonstrate(P, screen):
    """Open the thread from Latest, post the answer in the reply box, then press Mark solved."""
    yield from open_view(screen, "Latest")
    yield from open_record(screen, "Latest", P["title"])
    yield from reply(screen, P["answer"])
    yield from press(screen, "Mark solved")
    screen.wait_until(
        lambda: not screen.elements(lambda e: e.role == "push-button" and e.name == "Mark solved"),
        timeout_s=10,
        what="the thread to be solved",
    )
    yield settle()
