"""Learnly: grade a submission and return it with feedback. Data and wording: return_submission.yaml."""

from skills.kit.guest.hub import hub_read, hub_write, mentions, unchanged_except
from skills.kit.guest.rewardkit import component, precondition
from skills.kit.teach import click, in_dialog, named
from skills.kit.teach_calendar import type_number
from skills.kit.teach_web import open_record, open_view, press, settle


def draw(rng, pools):
    aid, assignment_name, points = rng.choice(pools["assignments"])
    students = rng.sample(pools["students"], 3)
    submissions = {}
    for n, (sid, name) in enumerate(students):
        day = rng.randint(3, 6)
        submissions[f"S{20 + n:04d}"] = {
            "title": f"{assignment_name} - {name}",
            "assignment": aid,
            "student": sid,
            "text": rng.choice(pools["answers"]),
            "status": "submitted",
            "late": False,
            "submitted": f"2024-10-0{day}T{rng.randint(8, 22):02d}:{rng.choice([5, 20, 45]):02d}:00Z",
        }
    submission = rng.choice(sorted(submissions))
    target = submissions[submission]
    return {
        "world": {"submissions": submissions},
        "submission": submission,
        "title": target["title"],
        "student_name": dict(map(tuple, pools["students"]))[target["student"]],
        "assignment_name": assignment_name,
        "points": points,
        "grade": rng.randint(points // 2, points),
        "feedback": rng.choice(pools["feedback"]),
    }


def initial_setup(P):
    hub_write("learnly", "set", P["world"])


def solve(P, *, mistake=None):
    state = hub_read("learnly", "state")["stored_state"]
    submission = state["submissions"][P["submission"]]
    if mistake != "no_grade":
        submission["grade"] = P["grade"]
    if mistake != "not_returned":
        submission["status"] = "returned"
        submission["feedback"] = P["feedback"]
    hub_write("learnly", "set_current", state)


def reward(P):
    go = hub_read("learnly", "go")
    now, before = go["current_state"], go["initial_state"]
    submission = now["submissions"].get(P["submission"], {})

    @precondition("the submission is the ungraded one the task names")
    def submission_as_described():
        old = before["submissions"].get(P["submission"], {})
        return (
            old.get("title") == P["title"] and old.get("status") == "submitted" and old.get("grade") is None
        )

    @precondition("no other submission changed and none was added or deleted")
    def others_intact():
        return unchanged_except(go, "submissions", ids=[P["submission"]]) and len(now["submissions"]) == len(
            before["submissions"]
        )

    @component("the grade is the one asked", 0.4)
    def graded():
        return submission.get("grade") is not None and abs(float(submission["grade"]) - P["grade"]) < 0.01

    @component("the submission is returned to the student", 0.3)
    def returned():
        return submission.get("status") == "returned"

    @component("it carries the feedback", 0.3)
    def feedback():
        return mentions(submission.get("feedback", ""), P["feedback"])


def demonstrate(P, screen):
    """Open the submission in the Submissions inbox, type the grade, then Return to student with the
    feedback in its prompt."""
    yield from open_view(screen, "Submissions")
    yield from open_record(screen, "Submissions", P["title"])
    yield type_number(screen, "Grade", P["grade"])
    yield from press(screen, "Return to student")
    screen.find(lambda e: e.role == "dialog", timeout_s=10, what="the feedback prompt")
    yield [
        click(in_dialog(screen, "entry", "Feedback for the student")),
        {"action": "type", "text": P["feedback"]},
    ]
    yield [click(in_dialog(screen, "push-button", "Return to student"))]
    screen.wait_until(
        lambda: not screen.elements(named("push-button", "Return to student")),
        timeout_s=10,
        what="the work returned",
    )
    yield settle()
