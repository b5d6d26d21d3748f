"""Tempo: schedule a new event with its place and attendees. Data and wording: schedule_event.yaml."""

from skills.kit.guest.hub import added_ids, hub_read, hub_write, next_id, squash, unchanged_except
from skills.kit.guest.rewardkit import component, precondition
from skills.kit.teach import click, named
from skills.kit.teach_calendar import day_text, in_dialog_scrolled, set_date
from skills.kit.teach_web import choose, open_view, press, settle, type_field
from skills.kit.webapp import seeded

CALENDARS = {"cal0001": "Team Ops", "cal0002": "Product Launches", "cal0003": "Engineering"}


def draw(rng, pools):
    state = seeded("tempo")
    people = {pid: p["name"] for pid, p in state["people"].items() if pid != state["current_user"]}
    attendees = sorted(rng.sample(sorted(people), 2))
    calendar = rng.choice(sorted(CALENDARS))
    day = rng.randint(17, 28)
    return {
        "title": rng.choice(pools["titles"]),
        "calendar": calendar,
        "calendar_name": CALENDARS[calendar],
        "date": f"2024-06-{day:02d}",
        "date_text": day_text(f"2024-06-{day:02d}"),
        "start": rng.choice(pools["times"]),
        "location": rng.choice(pools["locations"]),
        "attendees": attendees,
        "attendee_names": [people[a] for a in attendees],
    }


def initial_setup(P):
    hub_write("tempo", "set", {})


def solve(P, *, mistake=None):
    state = hub_read("tempo", "state")["stored_state"]
    day = P["date"] if mistake != "wrong_day" else P["date"][:8] + f"{int(P['date'][8:]) - 1:02d}"
    state["events"][next_id(state["events"], "ev", 4)] = {
        "title": P["title"],
        "calendar": P["calendar"],
        "date": day,
        "start": P["start"],
        "duration": "1_hour",
        "location": P["location"],
        "attendees": [] if mistake == "no_attendees" else list(P["attendees"]),
        "reminder": "10_minutes_before",
        "status": "confirmed",
        "organizer": state["current_user"],
    }
    hub_write("tempo", "set_current", state)


def reward(P):
    go = hub_read("tempo", "go")
    now, before = go["current_state"], go["initial_state"]
    new = [now["events"][e] for e in added_ids(go, "events")]
    made = [e for e in new if squash(e["title"]) == squash(P["title"]) and e.get("calendar") == P["calendar"]]

    @precondition("no event of that title exists yet")
    def world_as_described():
        return not any(squash(e["title"]) == squash(P["title"]) for e in before["events"].values())

    @precondition("no existing event changed or was deleted, and only one event was added")
    def others_intact():
        return unchanged_except(go, "events") and len(new) <= 1

    @component("the event exists on the named calendar", 0.3)
    def exists():
        return bool(made)

    @component("it is on the asked day and time, in the asked place", 0.4)
    def placed():
        return any(
            e.get("date") == P["date"]
            and str(e.get("start", "")).strip() == P["start"]
            and squash(e.get("location", "")) == squash(P["location"])
            for e in made
        )

    @component("both people are attendees", 0.3)
    def invited():
        return any(set(P["attendees"]) <= set(e.get("attendees") or []) for e in made)


def demonstrate(P, screen):
    """New event on the Month view; fill title, calendar, date, start, location, tick the attendees
    and create it."""
    yield from open_view(screen, "Month")
    yield from press(screen, "New event")
    screen.find(lambda e: e.role == "dialog", timeout_s=10, what="the New event dialog")
    yield from type_field(screen, "Title", P["title"])
    yield from choose(screen, "Calendar", P["calendar_name"])
    yield from set_date(screen, "Date", P["date"])
    yield from type_field(screen, "Start time", P["start"])
    yield from type_field(screen, "Location", P["location"])
    for name in P["attendee_names"]:
        box = yield from in_dialog_scrolled(screen, "check-box", name)
        yield [click(box)]
    create = yield from in_dialog_scrolled(screen, "push-button", "Create event")
    yield [click(create)]
    screen.wait_until(
        lambda: not screen.elements(lambda e: e.role == "dialog"), timeout_s=10, what="the dialog to close"
    )
    screen.find(named("link", P["title"]), timeout_s=10, what="the new event on the grid")
    yield settle()
