"""PeopleHub: decline a time-off request with a reason. Data and wording: decline_request.yaml."""

from skills.kit.guest.hub import hub_read, hub_write, mentions, unchanged_except
from skills.kit.guest.rewardkit import component, precondition
from skills.kit.teach import click, in_dialog, named
from skills.kit.teach_calendar import day_text
from skills.kit.teach_web import open_record, open_view, press, settle
from skills.kit.webapp import records, seeded


def draw(rng, pools):
    state = seeded("peoplehub")
    summaries = rng.sample(pools["summaries"], 3)
    requests = {}
    for summary in summaries:
        day = rng.randint(3, 24)
        requests.update(
            records(
                "peoplehub", "requests", 1, rng, state,
                summary=summary, kind="vacation", status="pending", start=f"2024-06-{day:02d}",
                end=f"2024-06-{day + 4:02d}", days=5, reason=rng.choice(pools["messages"]),
            )
        )  # fmt: skip
    request = rng.choice(sorted(requests))
    r = requests[request]
    return {
        "world": {"requests": requests},
        "request": request,
        "summary": r["summary"],
        "employee_name": state["employees"][r["employee"]]["name"],
        "dates": f"{day_text(r['start'])} to {day_text(r['end'])}",
        "reason": rng.choice(pools["reasons"]),
    }


def initial_setup(P):
    hub_write("peoplehub", "set", P["world"])


def solve(P, *, mistake=None):
    state = hub_read("peoplehub", "state")["stored_state"]
    request = state["requests"][P["request"]]
    if mistake != "note_only":
        request["status"] = "declined"
    if mistake != "no_note":
        request["decision_note"] = P["reason"]
    hub_write("peoplehub", "set_current", state)


def reward(P):
    go = hub_read("peoplehub", "go")
    now, before = go["current_state"], go["initial_state"]
    request = now["requests"].get(P["request"], {})

    @precondition("the request is the pending one the task names")
    def request_as_described():
        old = before["requests"].get(P["request"], {})
        return old.get("summary") == P["summary"] and old.get("status") == "pending"

    @precondition("no other request changed and none was added or deleted")
    def others_intact():
        return unchanged_except(go, "requests", ids=[P["request"]]) and len(now["requests"]) == len(
            before["requests"]
        )

    @component("the request is declined", 0.6)
    def declined():
        return request.get("status") == "declined"

    @component("its decision note gives the reason", 0.4)
    def noted():
        return mentions(request.get("decision_note", ""), P["reason"])


def demonstrate(P, screen):
    """Open the request in the Time off inbox, press Decline, give the reason and confirm."""
    yield from open_view(screen, "Time off")
    yield from open_record(screen, "Time off", P["summary"])
    yield from press(screen, "Decline")
    screen.find(lambda e: e.role == "dialog", timeout_s=10, what="the Decline prompt")
    box = in_dialog(screen, "entry", "Reason for declining")
    yield [click(box), {"action": "type", "text": P["reason"]}]
    yield [click(in_dialog(screen, "push-button", "Decline"))]
    screen.find(named("push-button", "Move back to pending"), timeout_s=10, what="the request declined")
    yield settle()
