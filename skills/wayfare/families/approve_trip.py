"""Wayfare: confirm a trip's requested bookings and approve it. Data and wording: approve_trip.yaml."""

from skills.kit.guest.hub import hub_read, hub_write, unchanged_except
from skills.kit.guest.rewardkit import component, precondition
from skills.kit.teach import named
from skills.kit.teach_web import open_record, open_view, press, settle
from skills.kit.webapp import records, seeded

TRAVELLERS = {
    "tr0002": "Kofi Mensah",
    "tr0003": "Ingrid Dahl",
    "tr0004": "Rahul Mehta",
    "tr0005": "Sofia Marino",
}


def draw(rng, pools):
    state = seeded("wayfare")
    index = rng.randrange(len(pools["trips"]))
    name, city = pools["trips"][index], pools["cities"][index]
    traveller = rng.choice(sorted(TRAVELLERS))
    day = rng.randint(12, 24)
    (trip,) = records(
        "wayfare", "trips", 1, rng, state,
        name=name, traveller=traveller, destination=name.split()[0], status="awaiting_approval",
        depart=f"2024-09-{day:02d}", return_date=f"2024-09-{day + 2:02d}",
    )  # fmt: skip
    legs = [
        {"title": f"Flight AMS to {city}", "kind": "flight", "date": f"2024-09-{day:02d}"},
        {"title": rng.choice(pools["hotels"]), "kind": "hotel", "date": f"2024-09-{day:02d}",
         "end": f"2024-09-{day + 2:02d}"},
        {"title": f"Flight {city} to AMS", "kind": "flight", "date": f"2024-09-{day + 2:02d}"},
        {"title": f"Car rental {name.split()[0]}", "kind": "car", "date": f"2024-09-{day:02d}",
         "end": f"2024-09-{day + 2:02d}"},
    ]  # fmt: skip
    rng.shuffle(legs)
    n_targets = rng.randint(2, 3)
    bookings = {}
    for i, leg in enumerate(legs):
        status = "requested" if i < n_targets else "ticketed"
        bookings.update(records("wayfare", "bookings", 1, rng, state, trip=trip, status=status, **leg))
    others = ["TP0001", "TP0005", "TP0008"]
    for title in rng.sample(["Flight AMS to VIE", "Train AMS to CGN", "Flight AMS to WAW"], 2):
        bookings.update(
            records(
                "wayfare", "bookings", 1, rng, state, title=title, trip=rng.choice(others), status="requested"
            )
        )
    ids = list(bookings)
    return {
        "world": {"trips": {trip: state["trips"][trip]}, "bookings": bookings},
        "trip": trip,
        "trip_name": name,
        "traveller_name": TRAVELLERS[traveller],
        "targets": ids[:n_targets],
        "titles": [bookings[b]["title"] for b in ids[:n_targets]],
        "done": ids[n_targets:4],
        "decoys": ids[4:],
    }


def initial_setup(P):
    hub_write("wayfare", "set", P["world"])


def solve(P, *, mistake=None):
    state = hub_read("wayfare", "state")["stored_state"]
    targets = P["targets"][:-1] if mistake == "one_left" else P["targets"]
    for bid in targets:
        state["bookings"][bid]["status"] = "confirmed"
    if mistake != "not_approved":
        state["trips"][P["trip"]]["status"] = "approved"
    hub_write("wayfare", "set_current", state)


def reward(P):
    go = hub_read("wayfare", "go")
    now, before = go["current_state"], go["initial_state"]

    @precondition("the trip awaits approval and its requested bookings are the ones the task implies")
    def world_as_described():
        asked = sorted(
            b for b, r in before["bookings"].items() if r["trip"] == P["trip"] and r["status"] == "requested"
        )
        return before["trips"][P["trip"]]["status"] == "awaiting_approval" and asked == sorted(P["targets"])

    @precondition("no other booking or trip changed, and none was added or deleted")
    def others_intact():
        return (
            unchanged_except(go, "bookings", ids=P["targets"])
            and unchanged_except(go, "trips", ids=[P["trip"]])
            and len(now["bookings"]) == len(before["bookings"])
        )

    @component("each requested booking of the trip is confirmed", 0.6)
    def confirmed():
        return sum(now["bookings"][b]["status"] == "confirmed" for b in P["targets"]) / len(P["targets"])

    @component("the trip is approved", 0.4)
    def approved():
        return now["trips"][P["trip"]]["status"] == "approved"


def demonstrate(P, screen):
    """Open each requested booking of the trip on the travel calendar and confirm it; then open the
    trip on Trips and approve it."""
    yield from open_view(screen, "Travel calendar")
    for title in P["titles"]:
        yield from open_record(screen, "Travel calendar", title)
        yield from press(screen, "Confirm booking")
        screen.find(named("push-button", "Cancel booking"), timeout_s=10, what=f"{title!r} confirmed")
        screen.wait_until(
            lambda: not screen.elements(named("push-button", "Confirm booking")),
            timeout_s=10,
            what=f"{title!r} confirmed",
        )
    yield from open_view(screen, "Trips")
    yield from open_record(screen, "Trips", P["trip_name"])
    yield from press(screen, "Approve trip")
    screen.wait_until(
        lambda: not screen.elements(named("push-button", "Approve trip")),
        timeout_s=10,
        what="the trip approved",
    )
    yield settle()
