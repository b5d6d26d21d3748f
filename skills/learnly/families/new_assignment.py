"""Learnly: create an assignment with due date, points and instructions. Data and wording: new_assignment.yaml."""

from skills.kit.guest.hub import added_ids, hub_read, hub_write, mentions, next_id, squash, unchanged_except
from skills.kit.guest.rewardkit import component, precondition
from skills.kit.teach import click, named
from skills.kit.teach_calendar import day_text, dialog_type, in_dialog_scrolled, set_date
from skills.kit.teach_web import choose, open_view, press, settle, type_field

COURSES = {"C0001": "Introduction to Statistics", "C0002": "Data Visualisation"}


def draw(rng, pools):
    course = rng.choice(sorted(COURSES))
    due = f"2024-10-{rng.randint(14, 31):02d}"
    return {
        "title": rng.choice(pools["titles"]),
        "course": course,
        "course_name": COURSES[course],
        "due": due,
        "due_text": day_text(due),
        "points": rng.choice([15, 25, 30, 40, 60, 80]),
        "instructions": rng.choice(pools["instructions"]),
    }


def initial_setup(P):
    hub_write("learnly", "set", {})


def solve(P, *, mistake=None):
    state = hub_read("learnly", "state")["stored_state"]
    due = P["due"] if mistake != "wrong_due" else P["due"][:8] + f"{int(P['due'][8:]) - 1:02d}"
    state["assignments"][next_id(state["assignments"], "A", 4)] = {
        "title": P["title"],
        "course": P["course"],
        "due": due,
        "points": 100 if mistake == "default_points" else P["points"],
        "status": "draft",
        "instructions": P["instructions"],
    }
    hub_write("learnly", "set_current", state)


def reward(P):
    go = hub_read("learnly", "go")
    now, before = go["current_state"], go["initial_state"]
    new = [now["assignments"][a] for a in added_ids(go, "assignments")]
    made = [a for a in new if squash(a["title"]) == squash(P["title"]) and a.get("course") == P["course"]]

    @precondition("no assignment with that title exists yet")
    def world_as_described():
        return not any(squash(a["title"]) == squash(P["title"]) for a in before["assignments"].values())

    @precondition("no existing assignment changed or was deleted, and only one was added")
    def others_intact():
        return unchanged_except(go, "assignments") and len(new) <= 1

    @component("the assignment exists in the course with its instructions", 0.3)
    def exists():
        return any(mentions(a.get("instructions", ""), P["instructions"]) for a in made)

    @component("it is due on the asked date", 0.4)
    def due():
        return any(a.get("due") == P["due"] for a in made)

    @component("it is worth the asked points", 0.3)
    def points():
        return any(a.get("points") is not None and abs(float(a["points"]) - P["points"]) < 0.01 for a in made)


def demonstrate(P, screen):
    """New assignment on the Due dates calendar; fill title, course, due date, points and
    instructions, then create it."""
    yield from open_view(screen, "Due dates")
    yield from press(screen, "New assignment")
    screen.find(lambda e: e.role == "dialog", timeout_s=10, what="the New assignment dialog")
    yield from type_field(screen, "Title", P["title"])
    yield from choose(screen, "Course", P["course_name"])
    yield from set_date(screen, "Due date", P["due"])
    yield from dialog_type(screen, "Points", P["points"])
    yield from dialog_type(screen, "Instructions", P["instructions"])
    create = yield from in_dialog_scrolled(screen, "push-button", "Create assignment")
    yield [click(create)]
    screen.wait_until(
        lambda: not screen.elements(lambda e: e.role == "dialog"), timeout_s=10, what="the dialog to close"
    )
    screen.find(named("link", P["title"]), timeout_s=10, what="the new assignment on the calendar")
    yield settle()
