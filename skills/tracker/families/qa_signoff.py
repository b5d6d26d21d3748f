"""Tracker: QA signed off some of the active sprint's issues: walk each one through the workflow to
Done and record the verified build on it (medium: the board allows one step at a time, so an issue
in To Do needs three moves)."""

from __future__ import annotations

import random

from skills._web.hubkit import WEB_HELPERS, added_ids, hub_read, hub_write, mentions, now_iso, removed_ids
from skills.tracker.families._trackerworld import (
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

LABEL = "qa-passed"
OPEN = ["todo", "in_progress", "in_review"]


def initial_setup(P):
    hub_write("tracker", "set", P["world"])


def sign_off(P, last_status):
    state = hub_read("tracker", "state")["stored_state"]
    stamp = now_iso()
    numbers = [int("".join(c for c in cid if c.isdigit()) or 0) for cid in state["comments"]]
    for key in P["targets"]:
        status = last_status if key == P["slowest"] else "done"
        state["issues"][key].update({"status": status, "updated": stamp})
        numbers.append(max(numbers, default=0) + 1)
        state["comments"][f"cm{numbers[-1]:03d}"] = {"issue": key, "author": state["current_user"],
                                                     "body": f"Verified by QA on build {P['build']}.",
                                                     "created": stamp}  # fmt: skip
    hub_write("tracker", "set_current", state)


def golden_patch(P):
    sign_off(P, "done")


def near_miss(P):
    # The issue that started furthest back stops one step short, in review.
    sign_off(P, "in_review")


def reward(P):
    go = hub_read("tracker", "go")
    now, before = go["current_state"], go["initial_state"]
    me = now["current_user"]
    done = {sid for sid, st in now["workflow"]["statuses"].items() if st["category"] == "done"}

    @precondition("the signed-off issues are the open issues of the active sprint labelled qa-passed")
    def world_as_described():
        labelled = sorted(key for key, i in before["issues"].items()
                          if i["sprint"] == P["sprint"] and P["label"] in i["labels"] and i["status"] not in done)  # fmt: skip
        return labelled == sorted(P["targets"])

    @precondition("no other issue changed status and nothing was deleted")
    def others_intact():
        return not removed_ids(go, "issues") and not removed_ids(go, "comments") and all(
            now["issues"][key]["status"] == old["status"] for key, old in before["issues"].items()
            if key not in P["targets"])  # fmt: skip

    @component("every qa-passed issue is Done", 0.6)
    def finished():
        return sum(now["issues"][key]["status"] in done for key in P["targets"]) / len(P["targets"])

    @component("each of them has your comment naming the verified build", 0.4)
    def recorded():
        new = [now["comments"][cid] for cid in added_ids(go, "comments")]
        return sum(any(c["issue"] == key and c["author"] == me and mentions(c["body"], P["build"]) for c in new)
                   for key in P["targets"]) / len(P["targets"])  # fmt: skip


class QaSignoff(Family):
    id = "tracker.qa_signoff"
    apps = ("tracker",)
    platform = Platform.WEB
    difficulty = Difficulty.MEDIUM
    leaves = ("tracker/board/workflow/transition_issue", "tracker/issues/collaborate/add_comment",
              "tracker/board/filter/find_by_label")  # fmt: skip
    domains = (Domain.COMPUTER_MATH, Domain.ENGINEERING, Domain.MANAGEMENT)
    scenarios = (Scenario.COMMERCIAL,)
    helpers = (*WEB_HELPERS, sign_off)
    templates = {
        Wording.IMPERATIVE: "In the issue tracker, open the {project} board (active sprint {sprint}). Move every "
        "issue of that sprint labelled \"{label}\" that is not yet Done to Done, following the board's workflow, "
        "and comment \"Verified by QA on build {build}\" on each of them. Leave all other issues where they are.",
        Wording.REQUEST: "QA just signed off build {build}. Could you close the {project} issues in {sprint} that "
        "carry the \"{label}\" label? Each should end up Done (the board only lets you move one column at a time) "
        "with a comment \"Verified by QA on build {build}\". Please don't move anything else.",
        Wording.CONTEXTUAL: "As {persona}, I run the {project} sprint ({sprint}). QA has verified build {build}, and "
        "the issues of this sprint they passed are labelled \"{label}\". Take each of them that isn't Done through the workflow to "
        "Done and note \"Verified by QA on build {build}\" in a comment on it; the rest of the board stays as is.",
        Wording.GOAL: "Goal: in {project}'s active sprint ({sprint}), every issue labelled \"{label}\" is Done, and "
        "each one you moved there has your comment \"Verified by QA on build {build}\"; no other issue changed "
        "status.",
        Wording.PROBLEM_FIX: "The {project} board ({sprint}) still shows its issues labelled \"{label}\" as open although "
        "QA verified them on build {build}. Fix the board: move each of those issues to Done (one workflow step at "
        "a time) and comment \"Verified by QA on build {build}\" on each. Don't touch the other issues.",
    }

    def draw(self, rng: random.Random) -> dict:
        key = rng.choice(sorted(PROJECTS))
        users, everyone = users_patch(rng, rng.randint(1, 3))
        people = sorted(everyone)
        number = rng.randint(3, 9)
        sid, active = sprint(key, number, "active", start="2024-05-20", end="2024-05-31")
        future_id, future = sprint(key, number + 1, "future")
        summaries = rng.sample(SUMMARIES, rng.randint(7, 10))
        n_targets = rng.randint(2, 4)
        issues, targets = {}, []
        for index, summary in enumerate(summaries, start=1):
            ikey = f"{key}-{index}"
            item = random_issue(rng, key, summary, rng.choice([*OPEN, "done"]), sid, people)
            item["labels"] = [x for x in item["labels"] if x != LABEL]
            issues[ikey] = item
        keys = list(issues)
        for ikey in rng.sample(keys, n_targets):
            issues[ikey]["status"] = rng.choice(OPEN)
            issues[ikey]["labels"] = [*issues[ikey]["labels"], LABEL]
            targets.append(ikey)
        # Traps: a qa-passed issue already Done, and one in the next sprint (neither is to be touched).
        extra = [k for k in keys if k not in targets]
        issues[extra[0]].update({"status": "done", "labels": [*issues[extra[0]]["labels"], LABEL]})
        issues[extra[1]].update({"sprint": future_id, "status": "todo", "labels": [*issues[extra[1]]["labels"], LABEL]})
        targets.sort(key=lambda k: int(k.split("-")[1]))
        slowest = min(targets, key=lambda k: OPEN.index(issues[k]["status"]))
        world = {"users": users, "projects": project_patch(key), "sprints": {sid: active, future_id: future},
                 "issues": issues}  # fmt: skip
        return {"world": world, "project": key, "sprint": sid, "sprint_name": active["name"], "label": LABEL,
                "targets": targets, "slowest": slowest,
                "build": f"{rng.randint(2, 9)}.{rng.randint(0, 20)}.{rng.randint(0, 9)}"}  # fmt: skip

    def words(self, P: dict) -> dict[str, str]:
        return {"project": PROJECTS[P["project"]], "sprint": P["sprint_name"], "label": P["label"], "build": P["build"]}

    def context(self, P: dict) -> str:
        statuses = {k: P["world"]["issues"][k]["status"] for k in P["targets"]}
        return (
            f"Issue tracker (hub app `tracker`), current user u_maya, default workflow (todo -> in_progress -> "
            f"in_review -> done, enforced by the UI only). Seeded WEB/MOB plus project {P['project']} whose active "
            f"sprint {P['sprint']} holds issues {sorted(P['world']['issues'])}. Open issues labelled {P['label']!r} in "
            f"that sprint: {statuses}; one labelled issue is already done and one sits in the future sprint (not "
            f"targets). Expected: each target in a done-category status with a new comment by u_maya containing "
            f"{P['build']!r}; no other issue's status changed; nothing deleted."
        )
