"""Store: create a discount code with the rules marketing asked for (easy: one form)."""

from __future__ import annotations

import random

from skills._web.hubkit import WEB_HELPERS, changed_paths, hub_read, hub_write, removed_ids
from tasks.families import Family
from tasks.guest.rewardkit import component, precondition
from tasks.models import Difficulty, Domain, Platform, Scenario, Wording

CAMPAIGNS = ["SPRINGSALE", "BACK2SCHOOL", "FLASH", "LOYALTY", "WEEKEND", "NEWSLETTER", "FRIENDS", "CLEARANCE",
             "GIFTSHOP", "HOMEWEEK"]  # fmt: skip
MONTHS = ["", "January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
          "November", "December"]  # fmt: skip


def initial_setup(P):
    hub_write("store", "set", P["world"])


def create_code(P, usage_limit):
    state = hub_read("store", "state")["stored_state"]
    state["discounts"][P["code"]] = {"code": P["code"], "kind": P["kind"], "value": P["value"], "status": "active",
                                     "min_subtotal": P["min_subtotal"], "usage_count": 0, "usage_limit": usage_limit,
                                     "starts": P["starts"], "ends": P["ends"]}  # fmt: skip
    hub_write("store", "set_current", state)


def golden_patch(P):
    create_code(P, P["usage_limit"])


def near_miss(P):
    # The code works, but nobody filled in the usage limit.
    create_code(P, None)


def reward(P):
    go = hub_read("store", "go")
    now, before = go["current_state"], go["initial_state"]

    def number(value):
        return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None

    def close(value, expected):
        got = number(value)
        return got is not None and abs(got - expected) < 0.005

    def made():
        return now["discounts"].get(P["code"])

    @precondition("the code did not exist and other discounts are unchanged")
    def others_intact():
        return P["code"] not in before["discounts"] and not removed_ids(go, "discounts") and not any(
            changed_paths(go, f"discounts.{code}") for code in before["discounts"])

    @component("the code exists as an active discount of the right kind and value", 0.4)
    def code_and_value():
        d = made()
        return bool(d) and d["status"] == "active" and d["kind"] == P["kind"] and close(d["value"], P["value"])

    @component("the minimum subtotal and usage limit are set", 0.3)
    def limits():
        d = made()
        if not d:
            return 0.0
        return (close(d.get("min_subtotal"), P["min_subtotal"]) + close(d.get("usage_limit"), P["usage_limit"])) / 2

    @component("the start and end dates are set", 0.3)
    def dates():
        d = made()
        return bool(d) and d.get("starts") == P["starts"] and d.get("ends") == P["ends"]


class CreateDiscount(Family):
    id = "store.create_discount"
    apps = ("store",)
    platform = Platform.WEB
    difficulty = Difficulty.EASY
    leaves = ("store/marketing/discounts/create_discount_code",)
    domains = (Domain.SALES, Domain.BUSINESS_FINANCE, Domain.MANAGEMENT)
    scenarios = (Scenario.COMMERCIAL,)
    helpers = (*WEB_HELPERS, create_code)
    templates = {
        Wording.IMPERATIVE: "In the store admin, create the discount code {code}: {offer}, valid on orders of at "
        "least {minimum}, usable {limit} times in total, starting {starts} and ending {ends}.",
        Wording.REQUEST: "Could you set up a discount code {code} in the store admin? It should give {offer} on "
        "orders with a subtotal of {minimum} or more, be limited to {limit} uses, and run from {starts} to {ends}.",
        Wording.CONTEXTUAL: "As {persona}, I'm launching a campaign next week and need the code {code} in our shop: "
        "{offer}, minimum subtotal {minimum}, at most {limit} redemptions, active from {starts} until {ends}. "
        "Please create it in the store admin.",
        Wording.GOAL: "Goal: the store admin has an active discount code {code} giving {offer}, with a minimum "
        "subtotal of {minimum}, a usage limit of {limit}, a start date of {starts} and an end date of {ends}.",
        Wording.PROBLEM_FIX: "Customers from our mailing are told to use {code} at checkout, but the code doesn't "
        "exist yet. Fix it in the store admin: create {code} with {offer}, a {minimum} minimum subtotal, a limit of "
        "{limit} uses, valid {starts} through {ends}.",
    }

    def draw(self, rng: random.Random) -> dict:
        kind = rng.choice(["percentage", "fixed"])
        value = rng.choice([5, 10, 12, 15, 20, 25, 30]) if kind == "percentage" else rng.choice([5, 10, 15, 20, 25])
        month = rng.randint(7, 11)
        code = f"{rng.choice(CAMPAIGNS)}{value}" if rng.random() < 0.5 else f"{rng.choice(CAMPAIGNS)}{month:02d}"
        starts = f"2024-{month:02d}-{rng.randint(1, 10):02d}"
        ends = f"2024-{month + 1:02d}-{rng.randint(1, 28):02d}"
        # A look-alike from last year stays as it is: the new code is a separate record.
        old_code = f"{code[:-2]}{int(code[-2:]) - 1:02d}" if code[-2:].isdigit() and int(code[-2:]) > 1 else f"{code}OLD"
        world = {"discounts": {old_code: {"code": old_code, "kind": kind, "value": value, "status": "expired",
                                          "min_subtotal": 0.0, "usage_count": rng.randint(20, 300), "usage_limit": None,
                                          "starts": f"2023-{month:02d}-01", "ends": f"2023-{month + 1:02d}-01"}}}  # fmt: skip
        return {"world": world, "code": code, "kind": kind, "value": value,
                "min_subtotal": float(rng.choice([25, 30, 40, 50, 75, 100])), "usage_limit": rng.choice([50, 100, 200, 250, 500]),
                "starts": starts, "ends": ends, "old_code": old_code}  # fmt: skip

    def words(self, P: dict) -> dict[str, str]:
        def day(iso):
            _, m, d = iso.split("-")
            return f"{MONTHS[int(m)]} {int(d)}, 2024"

        offer = f"{P['value']}% off" if P["kind"] == "percentage" else f"${P['value']:.2f} off"
        return {"code": P["code"], "offer": offer, "minimum": f"${P['min_subtotal']:.2f}", "limit": str(P["usage_limit"]),
                "starts": day(P["starts"]), "ends": day(P["ends"])}  # fmt: skip

    def context(self, P: dict) -> str:
        return (
            f"Store admin (hub app `store`), currency USD. Seeded discounts plus an expired {P['old_code']}. No discount "
            f"{P['code']} exists. Expected: discounts.{P['code']} = {{kind: {P['kind']}, value: {P['value']}, status: "
            f"active, min_subtotal: {P['min_subtotal']}, usage_limit: {P['usage_limit']}, starts: {P['starts']}, ends: "
            f"{P['ends']}}} (numbers compared numerically); every other discount unchanged."
        )
