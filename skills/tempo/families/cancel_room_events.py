"""Tempo: cancel every event in a closed room, with a note. Data and wording: cancel_room_events.yaml."""

from skills.kit.guest.hub import hub_read, hub_write, mentions, unchanged_except
from skills.kit.guest.rewardkit import component, precondition
from skills.kit.teach import in_dialog, named
from skills.kit.teach_web import open_record, open_view, press, settle
from skills.kit.webapp import records, seeded


def draw(rng, pools):
    state = seeded("tempo")
    room = rng.choice(pools["rooms"])
    titles = rng.sample(pools["titles"], 6)
    n_targets = rng.randint(2, 3)
    days = rng.sample(range(3, 29), 6)
    events = {}
    for index, (title, day) in enumerate(zip(titles, days, strict=True)):
        fixed = {
            "title": title,
            "date": f"2024-06-{day:02d}",
            "status": rng.choice(["confirmed", "tentative"]),
        }
        if index < n_targets:
            fixed["location"] = room
        events.update(records("tempo", "events", 1, rng, state, **fixed))
    ids = list(events)
    return {
        "world": {"events": events},
        "room": room,
        "targets": ids[:n_targets],
        "titles": [events[e]["title"] for e in ids[:n_targets]],
        "decoys": ids[n_targets:],
        "note": rng.choice(pools["notes"]),
    }


def initial_setup(P):
    hub_write("tempo", "set", P["world"])


def solve(P, *, mistake=None):
    state = hub_read("tempo", "state")["stored_state"]
    targets = P["targets"][:-1] if mistake == "one_left" else P["targets"]
    for eid in targets:
        state["events"][eid]["status"] = "cancelled"
        if mistake != "no_note":
            state["events"][eid]["cancel_reason"] = P["note"]
    hub_write("tempo", "set_current", state)


def reward(P):
    go = hub_read("tempo", "go")
    now, before = go["current_state"], go["initial_state"]

    @precondition("the room's live events are exactly the ones the task implies")
    def world_as_described():
        live = sorted(
            eid
            for eid, e in before["events"].items()
            if e.get("location") == P["room"] and e.get("status") in ("confirmed", "tentative")
        )
        return live == sorted(P["targets"])

    @precondition("no other event changed and no event was deleted or added")
    def others_intact():
        return unchanged_except(go, "events", ids=P["targets"]) and len(now["events"]) == len(
            before["events"]
        )

    @component("each event in the room is cancelled", 0.6)
    def cancelled():
        return sum(now["events"][e]["status"] == "cancelled" for e in P["targets"]) / len(P["targets"])

    @component("each of them carries the cancellation note", 0.4)
    def noted():
        return sum(
            mentions(now["events"][e].get("cancel_reason", ""), P["note"]) for e in P["targets"]
        ) / len(P["targets"])


def demonstrate(P, screen):
    """For each event in the room (the task's world lists them): open its chip on the Month grid,
    press Cancel event, write the note in the prompt and confirm."""
    yield from open_view(screen, "Month")
    for title in P["titles"]:
        yield from open_record(screen, "Month", title)
        yield from press(screen, "Cancel event")
        screen.find(lambda e: e.role == "dialog", timeout_s=10, what="the Cancel event prompt")
        box = in_dialog(screen, "entry", "Cancellation note")
        yield [
            {"action": "left_click", "coordinate": list(box.center)},
            {"action": "type", "text": P["note"]},
        ]
        yield [
            {
                "action": "left_click",
                "coordinate": list(in_dialog(screen, "push-button", "Cancel event").center),
            }
        ]
        screen.find(named("push-button", "Restore event"), timeout_s=10, what=f"{title!r} cancelled")
    yield settle()
