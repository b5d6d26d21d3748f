"""Bazaar: create a coupon through the New coupon dialog and deactivate the old one. Data and wording:
coupon_swap.yaml."""

from skills.bazaar.families._gui import type_number
from skills.kit.guest.hub import added_ids, hub_read, hub_write, next_id, squash, unchanged_except
from skills.kit.guest.rewardkit import component, precondition
from skills.kit.teach import click, in_dialog, named
from skills.kit.teach_web import open_record, open_view, press, settle, type_field
from skills.kit.webapp import seeded


def draw(rng, pools):
    state = seeded("bazaar")
    old = rng.choice(["k0001", "k0002"])
    old_percent = int(state["coupons"][old]["percent"])
    percent = rng.choice([p for p in (8, 12, 15, 25, 30, 40) if p != old_percent])
    return {
        "old": old,
        "old_code": state["coupons"][old]["code"],
        "old_percent": old_percent,
        "code": rng.choice(pools["codes"]),
        "percent": percent,
    }


def initial_setup(P):
    hub_write("bazaar", "set", {})


def solve(P, *, mistake=None):
    state = hub_read("bazaar", "state")["stored_state"]
    percent = P["old_percent"] if mistake == "wrong_percent" else P["percent"]
    state["coupons"][next_id(state["coupons"], "k", 4)] = {
        "code": P["code"],
        "percent": percent,
        "active": True,
    }
    if mistake != "old_active":
        state["coupons"][P["old"]]["active"] = False
    hub_write("bazaar", "set_current", state)


def reward(P):
    go = hub_read("bazaar", "go")
    now, before = go["current_state"], go["initial_state"]
    new = [now["coupons"][k] for k in added_ids(go, "coupons")]
    made = [k for k in new if squash(k.get("code")) == squash(P["code"])]

    @precondition("the old coupon is active and the new code is not taken")
    def world_as_described():
        return before["coupons"][P["old"]].get("active") is True and not any(
            squash(k["code"]) == squash(P["code"]) for k in before["coupons"].values()
        )

    @precondition("no other coupon changed or was deleted, and one coupon at most was added")
    def others_intact():
        return unchanged_except(go, "coupons", ids=[P["old"]]) and len(new) <= 1

    @component("the new coupon exists", 0.3)
    def exists():
        return bool(made)

    @component("it is active with the asked percentage", 0.3)
    def terms():
        return any(k.get("active") is True and k.get("percent") == P["percent"] for k in made)

    @component("the old coupon is deactivated", 0.4)
    def old_off():
        return not now["coupons"][P["old"]].get("active")


def demonstrate(P, screen):
    """New coupon on Coupons (code, percent, Active ticked) and Create; then open the old coupon and
    untick Active."""
    yield from open_view(screen, "Coupons")
    yield from press(screen, "New coupon")
    screen.find(lambda e: e.role == "dialog", timeout_s=10, what="the New coupon dialog")
    yield from type_field(screen, "Code", P["code"])
    yield from type_number(screen, "Percent off", P["percent"])
    yield [click(in_dialog(screen, "check-box", "Active"))]
    yield [click(in_dialog(screen, "push-button", "Create coupon"))]
    screen.wait_until(
        lambda: not screen.elements(lambda e: e.role == "dialog"), timeout_s=10, what="the dialog to close"
    )
    yield from open_record(screen, "Coupons", P["old_code"])
    yield [click(screen.find(named("check-box", "Active"), what="the Active box"))]
    yield settle()
