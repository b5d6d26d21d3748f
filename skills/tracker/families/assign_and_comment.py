"""Tracker: hand an issue to a teammate and leave them a comment (easy)."""

from __future__ import annotations

import random

from skills._web.hubkit import WEB_HELPERS, added_ids, hub_read, hub_write, mentions, now_iso, removed_ids
from skills.tracker.families._trackerworld import (
    ME,
    PROJECTS,
    SUMMARIES,
    project_patch,
    random_issue,
    sprint,
    users_patch,
)
from tasks.families import Family
from tasks.guest.rewardkit import component, precondition
from tasks.models import Difficulty, Domain, Platform, Scenario, Wording

NOTES = ["Can you take this one over? Details are in the description.",
         "Handing this over while I am on leave, please pick it up this sprint.",
         "Customer escalation: please look at this first thing tomorrow.",
         "You know this area best, could you own it from here?",
         "Assigning to you as discussed in planning."]  # fmt: skip


def initial_setup(P):
    hub_write("tracker", "set", P["world"])


def hand_over(P, commented_issue):
    state = hub_read("tracker", "state")["stored_state"]
    stamp = now_iso()
    state["issues"][P["issue"]].update({"assignee": P["assignee"], "updated": stamp})
    numbers = [int("".join(c for c in cid if c.isdigit()) or 0) for cid in state["comments"]]
    state["comments"][f"cm{max(numbers, default=0) + 1:03d}"] = {
        "issue": commented_issue, "author": state["current_user"], "body": P["comment"], "created": stamp}
    hub_write("tracker", "set_current", state)


def golden_patch(P):
    hand_over(P, P["issue"])


def near_miss(P):
    # Assigned correctly, but the comment lands on the neighbouring issue of the list.
    hand_over(P, P["neighbour"])


def reward(P):
    go = hub_read("tracker", "go")
    now, before = go["current_state"], go["initial_state"]
    me = now["current_user"]

    @precondition("the issue is the one the task names, not yet with that assignee")
    def issue_as_described():
        return before["issues"][P["issue"]]["summary"] == P["summary"] and \
            before["issues"][P["issue"]]["assignee"] != P["assignee"]  # fmt: skip

    @precondition("no issue or comment was deleted and no other issue changed hands")
    def others_intact():
        return not removed_ids(go, "issues") and not removed_ids(go, "comments") and all(
            now["issues"][key]["assignee"] == old["assignee"] for key, old in before["issues"].items()
            if key != P["issue"])  # fmt: skip

    @component("the issue is assigned to the named person", 0.5)
    def assigned():
        return now["issues"][P["issue"]]["assignee"] == P["assignee"]

    @component("you commented on that issue with the note", 0.5)
    def commented():
        return any(now["comments"][cid]["issue"] == P["issue"] and now["comments"][cid]["author"] == me
                   and mentions(now["comments"][cid]["body"], P["comment"]) for cid in added_ids(go, "comments"))  # fmt: skip


class AssignAndComment(Family):
    id = "tracker.assign_and_comment"
    apps = ("tracker",)
    platform = Platform.WEB
    difficulty = Difficulty.EASY
    leaves = ("tracker/issues/edit/assign_issue", "tracker/issues/collaborate/add_comment")
    domains = (Domain.COMPUTER_MATH, Domain.MANAGEMENT, Domain.ENGINEERING)
    scenarios = (Scenario.COMMERCIAL,)
    helpers = (*WEB_HELPERS, hand_over)
    templates = {
        Wording.IMPERATIVE: "In the issue tracker, assign {issue} (\"{summary}\", project {project}) to {person} "
        "and add the comment \"{comment}\" to it.",
        Wording.REQUEST: "Could you give {issue} \"{summary}\" in the {project} project to {person}? Please also "
        "leave a comment on it saying \"{comment}\"",
        Wording.CONTEXTUAL: "As {persona}, I'm rebalancing work in the {project} project. {issue} (\"{summary}\") "
        "should now be owned by {person}: make them the assignee and comment \"{comment}\" on the issue so they "
        "get the context.",
        Wording.GOAL: "Goal: tracker issue {issue} (\"{summary}\") is assigned to {person} and has your comment "
        "\"{comment}\"",
        Wording.PROBLEM_FIX: "{issue} (\"{summary}\") in {project} is supposed to be {person}'s now, but the "
        "tracker still doesn't show them as its assignee. Fix it: assign it to {person} and comment \"{comment}\" "
        "on it.",
    }

    def draw(self, rng: random.Random) -> dict:
        key = rng.choice(sorted(PROJECTS))
        users, everyone = users_patch(rng, rng.randint(2, 4))
        people = sorted(everyone)
        sid, active = sprint(key, rng.randint(3, 9), "active", start="2024-05-20", end="2024-05-31")
        summaries = rng.sample(SUMMARIES, rng.randint(6, 9))
        issues = {}
        for number, summary in enumerate(summaries, start=1):
            issues[f"{key}-{number}"] = random_issue(rng, key, summary, rng.choice(["todo", "in_progress", "in_review"]),
                                                     rng.choice([sid, sid, None]), people)  # fmt: skip
        target_number = rng.randint(1, len(summaries))
        target = f"{key}-{target_number}"
        neighbour = f"{key}-{target_number + 1 if target_number < len(summaries) else target_number - 1}"
        assignee = rng.choice([p for p in people if p not in (issues[target]["assignee"], ME)])
        world = {"users": users, "projects": project_patch(key), "sprints": {sid: active}, "issues": issues}
        return {"world": world, "project": key, "issue": target, "summary": issues[target]["summary"],
                "neighbour": neighbour, "assignee": assignee, "assignee_name": everyone[assignee],
                "comment": rng.choice(NOTES)}  # fmt: skip

    def words(self, P: dict) -> dict[str, str]:
        return {"issue": P["issue"], "summary": P["summary"], "project": PROJECTS[P["project"]],
                "person": P["assignee_name"], "comment": P["comment"]}  # fmt: skip

    def context(self, P: dict) -> str:
        return (
            f"Issue tracker (hub app `tracker`), current user u_maya. Seeded projects WEB and MOB plus project "
            f"{P['project']} with issues {sorted(P['world']['issues'])}; generated users {sorted(P['world']['users'])} "
            f"(some share a first name with seeded users). Expected: issues.{P['issue']}.assignee = {P['assignee']} "
            f"({P['assignee_name']}); a new comment by u_maya on {P['issue']} containing {P['comment']!r}; no other "
            f"assignee changed, nothing deleted."
        )
