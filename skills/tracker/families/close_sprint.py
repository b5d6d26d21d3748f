"""Tracker: end-of-sprint ceremony: complete the active sprint carrying unfinished work into the next
one, pull two backlog issues into it, and start it with dates and a goal (hard: the next sprint can
only start once the current one is completed; five independently scored parts)."""

from __future__ import annotations

import random

from skills._web.hubkit import WEB_HELPERS, changed_paths, hub_read, hub_write, now_iso, removed_ids, squash
from skills.tracker.families._trackerworld import (
    GOALS,
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

MONTH_NAMES = ["", "January", "February", "March", "April", "May", "June", "July", "August", "September",
               "October", "November", "December"]  # fmt: skip


def initial_setup(P):
    hub_write("tracker", "set", P["world"])


def run_ceremony(P, goal):
    state = hub_read("tracker", "state")["stored_state"]
    stamp = now_iso()
    done = {sid for sid, st in state["workflow"]["statuses"].items() if st["category"] == "done"}
    for issue in state["issues"].values():
        if issue["sprint"] == P["current"] and issue["status"] not in done:
            issue.update({"sprint": P["next"], "updated": stamp})
    state["sprints"][P["current"]]["state"] = "closed"
    for key in P["pull"]:
        state["issues"][key].update({"sprint": P["next"], "updated": stamp})
    state["sprints"][P["next"]].update({"state": "active", "start": P["start"], "end": P["end"], "goal": goal})
    hub_write("tracker", "set_current", state)


def golden_patch(P):
    run_ceremony(P, P["goal"])


def near_miss(P):
    # The next sprint is started with the right dates but no goal.
    run_ceremony(P, "")


def reward(P):
    go = hub_read("tracker", "go")
    now, before = go["current_state"], go["initial_state"]
    done = {sid for sid, st in now["workflow"]["statuses"].items() if st["category"] == "done"}
    nxt = now["sprints"].get(P["next"]) or {}

    @precondition("the sprints and backlog are as the task describes")
    def world_as_described():
        unfinished = sorted(k for k, i in before["issues"].items() if i["sprint"] == P["current"] and i["status"] not in done)
        return before["sprints"][P["current"]]["state"] == "active" and before["sprints"][P["next"]]["state"] == "future" \
            and unfinished == sorted(P["carry"]) and all(before["issues"][k]["sprint"] is None for k in P["pull"])  # fmt: skip

    @precondition("finished work stays in the old sprint, other backlog items stay put, statuses unchanged")
    def others_intact():
        if removed_ids(go, "issues") or removed_ids(go, "sprints"):
            return False
        for key, old in before["issues"].items():
            cur = now["issues"][key]
            if cur["status"] != old["status"]:
                return False
            if key not in P["carry"] and key not in P["pull"] and cur["sprint"] != old["sprint"]:
                return False
        return not any(changed_paths(go, f"sprints.{sid}") for sid, s in before["sprints"].items()
                       if s["project"] != P["project"])  # fmt: skip

    @component("the old sprint is completed", 0.15)
    def closed():
        return now["sprints"][P["current"]]["state"] == "closed"

    @component("its unfinished issues moved into the next sprint", 0.25)
    def carried():
        return sum(now["issues"][k]["sprint"] == P["next"] for k in P["carry"]) / len(P["carry"])

    @component("the two backlog issues are planned into the next sprint", 0.2)
    def pulled():
        return sum(now["issues"][k]["sprint"] == P["next"] for k in P["pull"]) / len(P["pull"])

    @component("the next sprint is active with the given start and end dates", 0.2)
    def started():
        return nxt.get("state") == "active" and nxt.get("start") == P["start"] and nxt.get("end") == P["end"]

    @component("the next sprint has the agreed goal", 0.2)
    def goal():
        return squash(nxt.get("goal")) == squash(P["goal"])


class CloseSprint(Family):
    id = "tracker.close_sprint"
    apps = ("tracker",)
    platform = Platform.WEB
    difficulty = Difficulty.HARD
    leaves = ("tracker/sprints/lifecycle/complete_sprint", "tracker/sprints/lifecycle/start_sprint",
              "tracker/sprints/planning/move_to_sprint")  # fmt: skip
    domains = (Domain.MANAGEMENT, Domain.COMPUTER_MATH, Domain.ENGINEERING)
    scenarios = (Scenario.COMMERCIAL,)
    helpers = (*WEB_HELPERS, run_ceremony)
    templates = {
        Wording.IMPERATIVE: "In the issue tracker, wrap up {current} of the {project} project: complete it and "
        "move its unfinished issues into {next}. Add the backlog issues {pull} to {next}. Then start {next} from "
        "{start} to {end} with the sprint goal \"{goal}\".",
        Wording.REQUEST: "Sprint review is over for {project}. Could you complete {current} (carry whatever isn't "
        "done over to {next}), plan {pull} from the backlog into {next}, and start {next} running {start} to {end} "
        "with the goal \"{goal}\"?",
        Wording.CONTEXTUAL: "As {persona}, I close our sprints on Friday. For the {project} project, {current} ends "
        "today: complete it, moving any unfinished issues to {next}. We also agreed to take {pull} from the backlog "
        "into {next}. Start {next} on {start}, ending {end}, with the goal \"{goal}\".",
        Wording.GOAL: "Goal: in {project}, {current} is completed with its unfinished issues now in {next}; {pull} "
        "are in {next}; {next} is the active sprint, running {start} to {end}, with the goal \"{goal}\". Finished "
        "issues stay in {current}.",
        Wording.PROBLEM_FIX: "The {project} board still shows {current} although it ended, and nobody started "
        "{next}. Fix that: complete {current} and move its unfinished issues to {next}, add backlog issues {pull} "
        "to {next}, and start {next} ({start} to {end}) with the goal \"{goal}\".",
    }

    def draw(self, rng: random.Random) -> dict:
        key = rng.choice(sorted(PROJECTS))
        users, everyone = users_patch(rng, rng.randint(1, 3))
        people = sorted(everyone)
        number = rng.randint(4, 12)
        month, day = rng.choice([(5, 31), (6, 14), (6, 28), (7, 12)])
        prev_id, prev = sprint(key, number - 1, "closed", start="2024-04-22", end="2024-05-03", goal=rng.choice(GOALS))
        cur_id, cur = sprint(key, number, "active", start="2024-05-06", end=f"2024-{month:02d}-{day:02d}",
                             goal=rng.choice(GOALS))  # fmt: skip
        next_id, nxt = sprint(key, number + 1, "future")
        summaries = iter(rng.sample(SUMMARIES, 16))
        issues, counter = {}, iter(range(1, 100))

        def add(status, sprint_id):
            ikey = f"{key}-{next(counter)}"
            issues[ikey] = random_issue(rng, key, next(summaries), status, sprint_id, people)
            return ikey

        for _ in range(rng.randint(1, 2)):
            add("done", prev_id)
        finished = [add("done", cur_id) for _ in range(rng.randint(2, 3))]
        carry = [add(rng.choice(["todo", "in_progress", "in_review"]), cur_id) for _ in range(rng.randint(2, 4))]
        planned = [add("todo", next_id) for _ in range(rng.randint(0, 2))]
        backlog = [add("todo", None) for _ in range(rng.randint(3, 5))]
        order = list(issues)
        rng.shuffle(order)  # keys are not grouped by sprint
        renamed = {old: f"{key}-{n}" for n, old in enumerate(order, start=1)}
        issues = {renamed[k]: issues[k] for k in sorted(order, key=lambda k: int(renamed[k].split("-")[1]))}
        start_day = day + 3
        start = f"2024-{month + (start_day > 30):02d}-{(start_day - 1) % 30 + 1:02d}"
        end_day = start_day + 11
        end = f"2024-{month + (end_day > 30):02d}-{(end_day - 1) % 30 + 1:02d}"
        world = {"users": users, "projects": project_patch(key), "issues": issues,
                 "sprints": {prev_id: prev, cur_id: cur, next_id: nxt}}  # fmt: skip
        pull = sorted((renamed[k] for k in rng.sample(backlog, 2)), key=lambda k: int(k.split("-")[1]))
        return {
            "world": world, "project": key, "current": cur_id, "current_name": cur["name"], "next": next_id,
            "next_name": nxt["name"], "carry": sorted(renamed[k] for k in carry), "pull": pull,
            "finished": sorted(renamed[k] for k in finished), "planned": sorted(renamed[k] for k in planned),
            "start": start, "end": end, "goal": rng.choice([g for g in GOALS if g != cur["goal"]]),
        }  # fmt: skip

    def words(self, P: dict) -> dict[str, str]:
        def day(iso):
            _, m, d = iso.split("-")
            return f"{MONTH_NAMES[int(m)]} {int(d)}, 2024"

        return {"project": PROJECTS[P["project"]], "current": P["current_name"], "next": P["next_name"],
                "pull": " and ".join(P["pull"]), "start": day(P["start"]), "end": day(P["end"]), "goal": P["goal"]}  # fmt: skip

    def context(self, P: dict) -> str:
        return (
            f"Issue tracker (hub app `tracker`), current user u_maya. Seeded WEB/MOB plus project {P['project']}: "
            f"closed, active ({P['current']}) and future ({P['next']}) sprints; issues {sorted(P['world']['issues'])}. "
            f"Unfinished in {P['current']}: {P['carry']}; done in it: {P['finished']}; already in {P['next']}: "
            f"{P['planned']}; backlog issues to pull: {P['pull']}. Expected: {P['current']}.state closed; carry and "
            f"pull issues have sprint {P['next']}; {P['next']} active with start {P['start']}, end {P['end']} and goal "
            f"{P['goal']!r}; statuses, other backlog issues and done issues unchanged; WEB/MOB sprints untouched."
        )
