"""Wayfare: move a flight booking to another day with a new fare and code. Data and wording: rebook_flight.yaml."""

from skills.kit.guest.hub import hub_read, hub_write, squash, unchanged_except
from skills.kit.guest.rewardkit import component, precondition
from skills.kit.teach_calendar import day_text, set_date, type_number
from skills.kit.teach_web import open_record, open_view, settle, type_field
from skills.kit.webapp import records, seeded


def draw(rng, pools):
    state = seeded("wayfare")
    cities = rng.sample(pools["cities"], 3)
    days = rng.sample(range(2, 29), 4)
    bookings = {}
    for city, day in zip(cities, days, strict=False):
        bookings.update(
            records(
                "wayfare", "bookings", 1, rng, state,
                title=f"Flight AMS to {city}", kind="flight", date=f"2024-09-{day:02d}", status="ticketed",
                confirmation=rng.choice(pools["codes"]),
            )
        )  # fmt: skip
    booking = rng.choice(sorted(bookings))
    old = bookings[booking]
    code = rng.choice([c for c in pools["codes"] if c != old["confirmation"]])
    price = rng.choice([f for f in pools["fares"] if abs(f - old.get("price", 0)) > 0.01])
    return {
        "world": {"bookings": bookings},
        "booking": booking,
        "title": old["title"],
        "old_date": old["date"],
        "old_date_text": day_text(old["date"]),
        "old_price": old.get("price"),
        "old_code": old["confirmation"],
        "date": f"2024-09-{days[3]:02d}",
        "date_text": day_text(f"2024-09-{days[3]:02d}"),
        "price": price,
        "price_text": f"€{price:,.2f}",
        "code": code,
    }


def initial_setup(P):
    hub_write("wayfare", "set", P["world"])


def solve(P, *, mistake=None):
    state = hub_read("wayfare", "state")["stored_state"]
    booking = state["bookings"][P["booking"]]
    booking["date"] = P["date"]
    if mistake != "old_price":
        booking["price"] = P["price"]
    if mistake != "no_code":
        booking["confirmation"] = P["code"]
    hub_write("wayfare", "set_current", state)


def reward(P):
    go = hub_read("wayfare", "go")
    now, before = go["current_state"], go["initial_state"]
    booking = now["bookings"].get(P["booking"], {})

    @precondition("the booking is the flight the task names, on its old day")
    def booking_as_described():
        old = before["bookings"].get(P["booking"], {})
        return old.get("title") == P["title"] and old.get("date") == P["old_date"]

    @precondition("no other booking changed and none was added or deleted")
    def others_intact():
        return unchanged_except(go, "bookings", ids=[P["booking"]]) and len(now["bookings"]) == len(
            before["bookings"]
        )

    @component("the flight is on the new day", 0.4)
    def moved():
        return booking.get("date") == P["date"]

    @component("its price is the new fare", 0.3)
    def priced():
        return abs(float(booking.get("price") or 0) - P["price"]) < 0.01

    @component("its confirmation code is the new one", 0.3)
    def coded():
        return squash(booking.get("confirmation", "")) == squash(P["code"])


def demonstrate(P, screen):
    """Open the flight's chip on the travel calendar, then type its new start date, price and code."""
    yield from open_view(screen, "Travel calendar")
    yield from open_record(screen, "Travel calendar", P["title"])
    yield from set_date(screen, "Starts", P["date"])
    yield type_number(screen, "Price", P["price"])
    yield from type_field(screen, "Confirmation code", P["code"])
    yield settle()
