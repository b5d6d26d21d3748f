"""Wayfare: add a hotel stay to a trip. Data and wording: book_hotel.yaml."""

from skills.kit.guest.hub import added_ids, hub_read, hub_write, next_id, squash, unchanged_except
from skills.kit.guest.rewardkit import component, precondition
from skills.kit.teach import click, named
from skills.kit.teach_calendar import day_text, dialog_type, in_dialog_scrolled, set_date
from skills.kit.teach_web import choose, open_view, press, settle, type_field
from skills.kit.webapp import seeded

TRIPS = {
    "TP0002": ("Berlin DevConf", "2024-09-23", 3),
    "TP0004": ("Audit week Dublin", "2024-09-30", 4),
    "TP0007": ("Paris pricing workshop", "2024-09-25", 2),
    "TP0008": ("Prague team offsite", "2024-09-17", 1),
    "TP0005": ("Madrid partner roadshow", "2024-09-11", 2),
}


def draw(rng, pools):
    from datetime import date, timedelta

    state = seeded("wayfare")
    trip = rng.choice(sorted(TRIPS))
    name, depart, nights = TRIPS[trip]
    checkin = date.fromisoformat(depart)
    checkout = checkin + timedelta(days=nights)
    price = rng.choice(pools["prices"])
    hotel = rng.choice(pools["hotels"])
    return {
        "trip": trip,
        "trip_name": name,
        "traveller_name": state["travellers"][state["trips"][trip]["traveller"]]["name"],
        "hotel": hotel,
        "checkin": checkin.isoformat(),
        "checkout": checkout.isoformat(),
        "checkin_text": day_text(checkin.isoformat()),
        "checkout_text": day_text(checkout.isoformat()),
        "price": price,
        "price_text": f"€{price:,.2f}",
    }


def initial_setup(P):
    hub_write("wayfare", "set", {})


def solve(P, *, mistake=None):
    state = hub_read("wayfare", "state")["stored_state"]
    booking = {
        "title": P["hotel"],
        "trip": P["trip"],
        "kind": "hotel",
        "date": P["checkin"],
        "status": "requested",
        "created": "2024-09-10T08:00:00Z",
    }
    if mistake != "no_checkout":
        booking["end"] = P["checkout"]
    if mistake != "no_price":
        booking["price"] = P["price"]
    state["bookings"][next_id(state["bookings"], "BK", 4)] = booking
    hub_write("wayfare", "set_current", state)


def reward(P):
    go = hub_read("wayfare", "go")
    now, before = go["current_state"], go["initial_state"]
    new = [now["bookings"][b] for b in added_ids(go, "bookings")]
    made = [b for b in new if squash(b["title"]) == squash(P["hotel"]) and b.get("trip") == P["trip"]]

    @precondition("the trip exists and has no booking at that hotel yet")
    def world_as_described():
        return P["trip"] in before["trips"] and not any(
            squash(b["title"]) == squash(P["hotel"]) for b in before["bookings"].values()
        )

    @precondition("no existing booking changed or was deleted, and only one booking was added")
    def others_intact():
        return unchanged_except(go, "bookings") and unchanged_except(go, "trips") and len(new) <= 1

    @component("a hotel booking with that name is on the trip", 0.3)
    def exists():
        return any(b.get("kind") == "hotel" for b in made)

    @component("it runs from check-in to check-out", 0.4)
    def dated():
        return any(b.get("date") == P["checkin"] and b.get("end") == P["checkout"] for b in made)

    @component("its price is the one given", 0.3)
    def priced():
        return any(abs(float(b.get("price") or 0) - P["price"]) < 0.01 for b in made)


def demonstrate(P, screen):
    """New booking on the travel calendar; fill title, trip, type Hotel, both dates and the price."""
    yield from open_view(screen, "Travel calendar")
    yield from press(screen, "New booking")
    screen.find(lambda e: e.role == "dialog", timeout_s=10, what="the New booking dialog")
    yield from type_field(screen, "Title", P["hotel"])
    yield from choose(screen, "Trip", P["trip_name"])
    yield from choose(screen, "Type", "Hotel")
    yield from set_date(screen, "Starts", P["checkin"])
    yield from set_date(screen, "Ends", P["checkout"])
    yield from dialog_type(screen, "Price", P["price"])
    create = yield from in_dialog_scrolled(screen, "push-button", "Create booking")
    yield [click(create)]
    screen.wait_until(
        lambda: not screen.elements(lambda e: e.role == "dialog"), timeout_s=10, what="the dialog to close"
    )
    screen.find(named("link", P["hotel"]), timeout_s=10, what="the new stay on the calendar")
    yield settle()
