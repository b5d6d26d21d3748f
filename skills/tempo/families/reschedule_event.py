"""Tempo: move an event to another day and time, with a new reminder. Data and wording: reschedule_event.yaml."""

from skills.kit.guest.hub import hub_read, hub_write, unchanged_except
from skills.kit.guest.rewardkit import component, precondition
from skills.kit.teach_calendar import day_text, set_date
from skills.kit.teach_web import choose, open_record, open_view, settle, type_field
from skills.kit.webapp import option_label, records, seeded

REMINDERS = ["none", "10_minutes_before", "30_minutes_before", "1_hour_before", "1_day_before"]


def draw(rng, pools):
    state = seeded("tempo")
    titles = rng.sample(pools["titles"], 4)
    days = rng.sample(range(3, 29), 5)
    events = {}
    for title, day in zip(titles, days, strict=False):
        events.update(records("tempo", "events", 1, rng, state, title=title, date=f"2024-06-{day:02d}"))
    event = rng.choice(sorted(events))
    old = events[event]
    old["status"] = "confirmed"
    start = rng.choice([t for t in pools["times"] if t != old.get("start")])
    reminder = rng.choice([r for r in REMINDERS if r != old.get("reminder")])
    new_day = days[4]
    return {
        "world": {"events": events},
        "event": event,
        "title": old["title"],
        "old_date": old["date"],
        "old_date_text": day_text(old["date"]),
        "old_start": old.get("start", ""),
        "old_reminder": old.get("reminder"),
        "date": f"2024-06-{new_day:02d}",
        "date_text": day_text(f"2024-06-{new_day:02d}"),
        "start": start,
        "reminder": reminder,
        "reminder_label": option_label(reminder),
    }


def initial_setup(P):
    hub_write("tempo", "set", P["world"])


def solve(P, *, mistake=None):
    state = hub_read("tempo", "state")["stored_state"]
    event = state["events"][P["event"]]
    event["date"] = P["date"]
    if mistake != "old_time":
        event["start"] = P["start"]
    if mistake != "no_reminder":
        event["reminder"] = P["reminder"]
    hub_write("tempo", "set_current", state)


def reward(P):
    go = hub_read("tempo", "go")
    now, before = go["current_state"], go["initial_state"]
    event = now["events"].get(P["event"], {})

    @precondition("the event is the one the task names, on its old day with another reminder")
    def event_as_described():
        old = before["events"].get(P["event"], {})
        return (
            old.get("title") == P["title"]
            and old.get("date") == P["old_date"]
            and old.get("reminder") != P["reminder"]
        )

    @precondition("no other event changed and no event was deleted or added")
    def others_intact():
        return unchanged_except(go, "events", ids=[P["event"]]) and len(now["events"]) == len(
            before["events"]
        )

    @component("the event is on the new day", 0.4)
    def moved():
        return event.get("date") == P["date"]

    @component("it starts at the new time", 0.3)
    def timed():
        return str(event.get("start", "")).strip() == P["start"]

    @component("its reminder is the one asked", 0.3)
    def reminded():
        return event.get("reminder") == P["reminder"]


def demonstrate(P, screen):
    """Open the event's chip on the Month grid, type the new date and start time, pick the reminder."""
    yield from open_view(screen, "Month")
    yield from open_record(screen, "Month", P["title"])
    yield from set_date(screen, "Date", P["date"])
    yield from type_field(screen, "Start time", P["start"])
    yield from choose(screen, "Reminder", P["reminder_label"])
    yield settle()
