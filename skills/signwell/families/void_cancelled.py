"""SignWell: void a counterparty's unsigned envelopes with a reason. Data and wording: void_cancelled.yaml."""

from skills.kit.guest.hub import hub_read, hub_write, mentions, unchanged_except
from skills.kit.guest.rewardkit import component, precondition
from skills.kit.teach import click, in_dialog, named
from skills.kit.teach_web import open_record, open_view, press, settle
from skills.kit.webapp import records, seeded

CLEAN = ("signature", "signed_at", "void_reason")


def draw(rng, pools):
    state = seeded("signwell")
    counterparty = rng.choice(sorted(state["contacts"]))
    others = [k for k in state["contacts"] if k != counterparty]
    titles = rng.sample(pools["titles"], 5)
    n_new = rng.randint(1, 2)
    envelopes = {}
    for index, title in enumerate(titles):
        # the counterparty's new unsigned envelopes, one it signed, then unsigned ones of others
        fixed = {"title": title, "counterparty": counterparty if index <= n_new else rng.choice(others)}
        fixed["status"] = "signed" if index == n_new else rng.choice(["draft", "sent"])
        fixed["reminders"] = 0
        (eid,) = records("signwell", "envelopes", 1, rng, state, **fixed)
        for key in CLEAN:
            state["envelopes"][eid].pop(key, None)
        if fixed["status"] == "signed":
            state["envelopes"][eid].update(signature="Elena Ruiz", signed_at="2024-06-10T12:00:00Z")
        envelopes[eid] = state["envelopes"][eid]
    targets = sorted(
        eid
        for eid, e in state["envelopes"].items()
        if e["counterparty"] == counterparty and e["status"] in ("draft", "sent")
    )
    return {
        "world": {"envelopes": envelopes},
        "counterparty": counterparty,
        "counterparty_name": state["contacts"][counterparty]["company"],
        "targets": targets,
        "titles": [state["envelopes"][t]["title"] for t in targets],
        "kept": list(envelopes)[n_new],
        "reason": rng.choice(pools["reasons"]),
    }


def initial_setup(P):
    hub_write("signwell", "set", P["world"])


def solve(P, *, mistake=None):
    state = hub_read("signwell", "state")["stored_state"]
    targets = P["targets"][:-1] if mistake == "one_left" else P["targets"]
    for eid in targets:
        reason = "Cancelled" if mistake == "wrong_reason" else P["reason"]
        state["envelopes"][eid].update(status="voided", void_reason=reason)
    hub_write("signwell", "set_current", state)


def reward(P):
    go = hub_read("signwell", "go")
    now, before = go["current_state"], go["initial_state"]
    envelopes = now["envelopes"]

    @precondition("the counterparty's unsigned envelopes are the ones the task implies")
    def world_as_described():
        unsigned = sorted(
            eid
            for eid, e in before["envelopes"].items()
            if e["counterparty"] == P["counterparty"] and e["status"] in ("draft", "sent")
        )
        return unsigned == sorted(P["targets"])

    @precondition("no other envelope changed and nothing was deleted")
    def others_intact():
        return (
            unchanged_except(go, "envelopes", ids=P["targets"])
            and unchanged_except(go, "form_fields")
            and unchanged_except(go, "contacts")
            and unchanged_except(go, "templates")
        )

    @component("each unsigned envelope of the counterparty is voided", 0.6)
    def voided():
        return sum(envelopes[t]["status"] == "voided" for t in P["targets"]) / len(P["targets"])

    @component("each of them carries the reason asked", 0.4)
    def reasoned():
        return sum(mentions(envelopes[t].get("void_reason") or "", P["reason"]) for t in P["targets"]) / len(
            P["targets"]
        )


def demonstrate(P, screen):
    """For each unsigned envelope of the counterparty (All envelopes filtered by counterparty in the
    task's world): open it, press Void envelope, give the reason in the dialog and confirm."""
    yield from open_view(screen, "All envelopes")
    for title in P["titles"]:
        yield from open_record(screen, "All envelopes", title)
        yield from press(screen, "Void envelope")
        box = screen.find(named("entry", "Reason for voiding"), timeout_s=10, what="the reason box")
        yield [click(box), {"action": "type", "text": P["reason"]}]
        yield [click(in_dialog(screen, "push-button", "Void envelope"))]
        screen.wait_until(
            lambda: not screen.elements(lambda e: e.role == "dialog"),
            timeout_s=10,
            what="the dialog to close",
        )
        screen.wait_until(
            lambda: not screen.elements(named("push-button", "Void envelope")), timeout_s=10, what="it voided"
        )
    yield settle()
