"""Harbor Bank: dispute every charge of one merchant in one account. Data and wording: dispute_charges.yaml."""

from skills.kit.guest.hub import hub_read, hub_write, mentions, unchanged_except
from skills.kit.guest.rewardkit import component, precondition
from skills.kit.teach import in_dialog
from skills.kit.teach_web import choose, chosen, open_record, open_view, press, settle, type_field
from skills.kit.webapp import records, seeded

DATES = ["2024-05-21", "2024-05-27", "2024-06-03", "2024-06-06", "2024-06-10", "2024-06-12"]


def _charge(merchant, day):
    return f"{merchant} {day[5:7]}/{day[8:]}"


def draw(rng, pools):
    state = seeded("harborbank")
    merchant = rng.choice(pools["merchants"])
    account = rng.choice(pools["accounts"])
    other = rng.choice([a for a in pools["accounts"] if a != account])
    days = sorted(rng.sample(DATES, 4))
    n_targets = rng.randint(2, 3)
    base = {"category": "shopping", "reconciled": False, "memo": ""}
    txs = {}
    for day in days[:n_targets]:
        amount = rng.choice([19.99, 24.5, 39.0, 49.99, 64.25, 89.9])
        txs.update(
            records(
                "harborbank",
                "transactions",
                1,
                rng,
                state,
                **base,
                description=_charge(merchant, day),
                account=account,
                date=day,
                kind="debit",
                amount=amount,
                status=rng.choice(["posted", "pending"]),
            )
        )
    targets = list(txs)
    refund_day, elsewhere_day = days[n_targets:][:2] if n_targets == 2 else (days[3], days[0])
    decoys = {}
    decoys.update(
        records(
            "harborbank",
            "transactions",
            1,
            rng,
            state,
            **base,
            description=f"{merchant} REFUND {refund_day[5:7]}/{refund_day[8:]}",
            account=account,
            date=refund_day,
            kind="credit",
            amount=19.99,
            status="posted",
        )
    )
    decoys.update(
        records(
            "harborbank",
            "transactions",
            1,
            rng,
            state,
            **base,
            description=f"{_charge(merchant, elsewhere_day)} #2",
            account=other,
            date=elsewhere_day,
            kind="debit",
            amount=29.0,
            status="posted",
        )
    )
    txs.update(decoys)
    return {
        "world": {"transactions": txs},
        "merchant": merchant,
        "account": account,
        "account_name": state["accounts"][account]["name"],
        "targets": targets,
        "titles": [txs[t]["description"] for t in targets],
        "decoys": list(decoys),
        "reason": rng.choice(pools["reasons"]),
    }


def initial_setup(P):
    hub_write("harborbank", "set", P["world"])


def solve(P, *, mistake=None):
    state = hub_read("harborbank", "state")["stored_state"]
    targets = P["targets"][:-1] if mistake == "one_left" else P["targets"]
    for tid in targets:
        state["transactions"][tid]["status"] = "disputed"
        if mistake != "no_reason":
            state["transactions"][tid]["memo"] = P["reason"]
    hub_write("harborbank", "set_current", state)


def reward(P):
    go = hub_read("harborbank", "go")
    now, before = go["current_state"], go["initial_state"]

    @precondition("the merchant's undisputed charges in the account are exactly the targets")
    def world_as_described():
        theirs = sorted(
            tid
            for tid, t in before["transactions"].items()
            if t["account"] == P["account"]
            and t.get("kind") == "debit"
            and t["description"].startswith(P["merchant"] + " ")
            and t.get("status") != "disputed"
        )
        return theirs == sorted(P["targets"])

    @precondition("no other transaction changed and none was deleted")
    def others_intact():
        return unchanged_except(go, "transactions", ids=P["targets"])

    @component("each of the merchant's charges in the account is disputed", 0.6)
    def disputed():
        return sum(now["transactions"][t].get("status") == "disputed" for t in P["targets"]) / len(
            P["targets"]
        )

    @component("each disputed charge carries the reason", 0.4)
    def reasoned():
        return sum(
            mentions(now["transactions"][t].get("memo") or "", P["reason"]) for t in P["targets"]
        ) / len(P["targets"])


def demonstrate(P, screen):
    """Pick the account on Activity, then for each charge: open it, press Dispute charge, type the
    reason in the dialog and confirm, and wait for its Status to read Disputed."""
    yield from open_view(screen, "Activity")
    yield from choose(screen, "Account", P["account_name"])
    for title in P["titles"]:
        yield from open_record(screen, "Activity", title)
        yield from press(screen, "Dispute charge")
        screen.find(lambda e: e.role == "dialog", timeout_s=10, what="the Dispute charge dialog")
        yield from type_field(screen, "Reason for the dispute", P["reason"])
        yield [
            {
                "action": "left_click",
                "coordinate": list(in_dialog(screen, "push-button", "Dispute charge").center),
            }
        ]
        screen.wait_until(
            lambda: not screen.elements(lambda e: e.role == "dialog"),
            timeout_s=10,
            what="the dialog to close",
        )
        chosen(screen, "Status", "Disputed")
    yield settle()
