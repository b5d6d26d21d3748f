"""Harbor Bank: change a scheduled payment's amount and funding account. Data and wording:
adjust_payment.yaml."""

from skills.harborbank.families._gui import type_amount
from skills.kit.guest.hub import hub_read, hub_write, unchanged_except
from skills.kit.guest.rewardkit import component, precondition
from skills.kit.teach_web import choose, open_record, open_view, settle
from skills.kit.webapp import seeded

ACCOUNTS = ["ac0001", "ac0002", "ac0004"]


def draw(rng, pools):
    state = seeded("harborbank")
    names = rng.sample(pools["names"], 3)
    payments = {}
    for index, name in enumerate(names):
        sid = f"sp{len(state['scheduled']) + index + 1:04d}"
        payments[sid] = {
            "name": name,
            "payee": rng.choice(pools["payees"]),
            "account": rng.choice(ACCOUNTS),
            "amount": float(rng.choice([29, 35, 45, 59, 75, 120, 240])) + 0.99,
            "frequency": rng.choice(["monthly", "quarterly"]),
            "next_date": f"2024-{rng.choice([6, 7]):02d}-{rng.randint(16, 28):02d}",
            "status": "active",
        }
    payment = rng.choice(sorted(payments))
    old = payments[payment]
    new_account = rng.choice([a for a in ACCOUNTS if a != old["account"]])
    amount = round(old["amount"] + rng.choice([-10, 5, 8, 12, 20]), 2)
    return {
        "world": {"scheduled": payments},
        "payment": payment,
        "name": old["name"],
        "old_amount": old["amount"],
        "old_amount_text": f"{old['amount']:,.2f}",
        "old_account": old["account"],
        "old_account_name": state["accounts"][old["account"]]["name"],
        "amount": amount,
        "amount_text": f"{amount:,.2f}",
        "new_account": new_account,
        "new_account_name": state["accounts"][new_account]["name"],
    }


def initial_setup(P):
    hub_write("harborbank", "set", P["world"])


def solve(P, *, mistake=None):
    state = hub_read("harborbank", "state")["stored_state"]
    payment = state["scheduled"][P["payment"]]
    if mistake != "account_only":
        payment["amount"] = P["amount"]
    if mistake != "amount_only":
        payment["account"] = P["new_account"]
    hub_write("harborbank", "set_current", state)


def reward(P):
    go = hub_read("harborbank", "go")
    now, before = go["current_state"], go["initial_state"]

    @precondition("the payment is the one the task names, with its old amount and account")
    def payment_as_described():
        old = before["scheduled"].get(P["payment"], {})
        return (
            old.get("name") == P["name"]
            and old.get("account") == P["old_account"]
            and abs(float(old.get("amount") or 0) - P["old_amount"]) < 0.005
        )

    @precondition("no other scheduled payment changed and none was deleted")
    def others_intact():
        return unchanged_except(go, "scheduled", ids=[P["payment"]])

    @component("the payment's amount is the new one", 0.5)
    def amount():
        return abs(float(now["scheduled"][P["payment"]].get("amount") or 0) - P["amount"]) < 0.005

    @component("it is paid from the new account", 0.5)
    def account():
        return now["scheduled"][P["payment"]].get("account") == P["new_account"]


def demonstrate(P, screen):
    """Open the payment on Scheduled payments, type the new amount, pick the new Pay from account."""
    yield from open_view(screen, "Scheduled payments")
    yield from open_record(screen, "Scheduled payments", P["name"])
    yield from type_amount(screen, "Amount", f"{P['amount']:.2f}")
    yield from choose(screen, "Pay from", P["new_account_name"])
    yield settle()
