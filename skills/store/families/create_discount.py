"""Store: create a discount code with the rules marketing asked for. Data and wording: create_discount.yaml."""

from skills.kit.guest.hub import hub_read, hub_write, unchanged_except
from skills.kit.guest.rewardkit import component, precondition
from skills.kit.teach import button, click, fill_date, named, toast
from skills.store.families._gui import fill, open_section
from skills.store.world import discount


def draw(rng, pools):
    kind = rng.choice(["percentage", "fixed"])
    value = rng.choice([5, 10, 12, 15, 20, 25, 30] if kind == "percentage" else [5, 10, 15, 20, 25])
    month = rng.randint(7, 11)
    campaigns = pools["campaigns"]
    code = f"{rng.choice(campaigns)}{value}" if rng.random() < 0.5 else f"{rng.choice(campaigns)}{month:02d}"
    starts = f"2024-{month:02d}-{rng.randint(1, 10):02d}"
    ends = f"2024-{month + 1:02d}-{rng.randint(1, 28):02d}"
    # A look-alike from last year stays as it is: the new code is a separate record.
    tail = code[-2:]
    old_code = f"{code[:-2]}{int(tail) - 1:02d}" if tail.isdigit() and int(tail) > 1 else f"{code}OLD"
    last_year = {"starts": f"2023-{month:02d}-01", "ends": f"2023-{month + 1:02d}-01"}
    old = discount(old_code, kind, value, "expired", rng.randint(20, 300), **last_year)
    return {
        "world": {"discounts": {old_code: old}},
        "code": code,
        "kind": kind,
        "value": value,
        "min_subtotal": float(rng.choice([25, 30, 40, 50, 75, 100])),
        "usage_limit": rng.choice([50, 100, 200, 250, 500]),
        "starts": starts,
        "ends": ends,
        "old_code": old_code,
    }


def initial_setup(P):
    hub_write("store", "set", P["world"])


def solve(P, *, mistake=None):
    state = hub_read("store", "state")["stored_state"]
    made = {k: P[k] for k in ("code", "kind", "value", "min_subtotal", "usage_limit", "starts", "ends")}
    made |= {"status": "active", "usage_count": 0}
    if mistake:
        made[{"no_usage_limit": "usage_limit", "open_ended": "ends"}[mistake]] = None
    state["discounts"][P["code"]] = made
    hub_write("store", "set_current", state)


def reward(P):
    go = hub_read("store", "go")
    now, before = go["current_state"], go["initial_state"]
    made = now["discounts"].get(P["code"]) or {}

    def close(key):  # numbers compared numerically
        value = made.get(key)
        return isinstance(value, int | float) and not isinstance(value, bool) and abs(value - P[key]) < 0.005

    @precondition("the code did not exist and other discounts are unchanged")
    def others_intact():
        return P["code"] not in before["discounts"] and unchanged_except(go, "discounts")

    @component("the code exists as an active discount of the right kind and value", 0.4)
    def code_and_value():
        return made.get("status") == "active" and made.get("kind") == P["kind"] and close("value")

    @component("the minimum subtotal and usage limit are set", 0.3)
    def limits():
        return (close("min_subtotal") + close("usage_limit")) / 2

    @component("the start and end dates are set", 0.3)
    def dates():
        return bool(made) and made.get("starts") == P["starts"] and made.get("ends") == P["ends"]


def demonstrate(P, screen):
    """Open Discounts, press "Create discount" and fill the dialog field by field, then save it."""
    yield from open_section(screen, "Discounts")
    yield [click(button(screen, "Create discount"))]
    code = screen.find(
        lambda e: e.role == "entry" and e.name.startswith("Discount code"), what="the Discount code field"
    )
    yield [click(code), {"action": "type", "text": P["code"]}]
    if P["kind"] == "fixed":  # a closed select picks the option its typed letters start
        kind = screen.find(named("combo-box", "Type"), what="the Type select")
        yield [{"action": "key", "keys": ["tab"]}, {"action": "type", "text": "Fixed"}]
        screen.wait_until(
            lambda: any(e.name == "Fixed amount" for e in screen.elements(lambda e: e.y == kind.y)),
            timeout_s=10,
            what="Fixed amount to be picked",
        )
    yield fill(screen, "spin-button", "Value", f"{P['value']:g}")
    yield fill(screen, "spin-button", "Minimum subtotal", f"{P['min_subtotal']:.2f}")
    yield fill(screen, "spin-button", "Usage limit", str(P["usage_limit"]))
    yield fill_date(screen, "Start date", P["starts"])
    yield fill_date(screen, "End date", P["ends"])
    yield [click(button(screen, "Save discount"))]
    toast(screen, f"{P['code']} created", timeout_s=10)
    yield [{"action": "wait", "time": 1.0}]  # the app saves each change to the hub as it is made
