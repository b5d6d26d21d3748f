"""Learnly: move a draft assignment's due date and publish it. Data and wording: publish_assignment.yaml."""

from skills.kit.guest.hub import hub_read, hub_write, unchanged_except
from skills.kit.guest.rewardkit import component, precondition
from skills.kit.teach import named
from skills.kit.teach_calendar import day_text, set_date
from skills.kit.teach_web import open_record, open_view, press, settle

COURSES = {"C0001": "Introduction to Statistics", "C0002": "Data Visualisation"}


def draw(rng, pools):
    titles = rng.sample(pools["titles"], 3)
    days = rng.sample(range(8, 31), 4)
    assignments = {}
    for n, (title, day) in enumerate(zip(titles, days, strict=False)):
        assignments[f"A{20 + n:04d}"] = {
            "title": title,
            "course": rng.choice(sorted(COURSES)),
            "due": f"2024-10-{day:02d}",
            "points": rng.choice([20, 40, 50]),
            "status": "draft",
        }
    assignment = rng.choice(sorted(assignments))
    target = assignments[assignment]
    due = f"2024-10-{days[3]:02d}"
    return {
        "world": {"assignments": assignments},
        "assignment": assignment,
        "title": target["title"],
        "course_name": COURSES[target["course"]],
        "old_due": target["due"],
        "old_text": day_text(target["due"]),
        "due": due,
        "due_text": day_text(due),
    }


def initial_setup(P):
    hub_write("learnly", "set", P["world"])


def solve(P, *, mistake=None):
    state = hub_read("learnly", "state")["stored_state"]
    assignment = state["assignments"][P["assignment"]]
    if mistake != "old_date":
        assignment["due"] = P["due"]
    if mistake != "not_published":
        assignment["status"] = "published"
    hub_write("learnly", "set_current", state)


def reward(P):
    go = hub_read("learnly", "go")
    now, before = go["current_state"], go["initial_state"]
    assignment = now["assignments"].get(P["assignment"], {})

    @precondition("the assignment is the draft the task names, due on its old date")
    def assignment_as_described():
        old = before["assignments"].get(P["assignment"], {})
        return (
            old.get("title") == P["title"] and old.get("status") == "draft" and old.get("due") == P["old_due"]
        )

    @precondition("no other assignment changed and none was added or deleted")
    def others_intact():
        return unchanged_except(go, "assignments", ids=[P["assignment"]]) and len(now["assignments"]) == len(
            before["assignments"]
        )

    @component("it is due on the new date", 0.5)
    def moved():
        return assignment.get("due") == P["due"]

    @component("it is published", 0.5)
    def published():
        return assignment.get("status") == "published"


def demonstrate(P, screen):
    """Open the assignment's chip on the Due dates calendar, type the new due date, then Publish."""
    yield from open_view(screen, "Due dates")
    yield from open_record(screen, "Due dates", P["title"])
    yield from set_date(screen, "Due date", P["due"])
    yield from press(screen, "Publish assignment")
    screen.find(named("push-button", "Close assignment"), timeout_s=10, what="the assignment published")
    yield settle()
