"""PeopleHub: approve a department's pending leave and deduct it from balances. Data and wording: approve_team_leave.yaml."""

from skills.kit.guest.hub import hub_read, hub_write, unchanged_except
from skills.kit.guest.rewardkit import component, precondition
from skills.kit.teach import named
from skills.kit.teach_calendar import type_number
from skills.kit.teach_web import open_record, open_view, press, settle
from skills.kit.webapp import records, seeded

TEAMS = {"d0002": ["e0005", "e0006", "e0002"], "d0003": ["e0003", "e0007"], "d0004": ["e0004", "e0008"]}


def draw(rng, pools):
    state = seeded("peoplehub")
    department = rng.choice(sorted(TEAMS))
    members = TEAMS[department]
    employees = sorted(rng.sample(members, min(len(members), rng.randint(2, 3))))
    summaries = iter(rng.sample(pools["summaries"], len(employees) + 1))
    # The department's older pending requests were decided before; only the task's stay pending.
    requests = {
        rid: {"status": "approved"}
        for rid, r in state["requests"].items()
        if r["status"] == "pending" and state["employees"][r["employee"]]["department"] == department
    }
    world_employees, targets, rows, balances, expected = {}, [], [], {}, {}
    for emp in employees:
        days = rng.randint(1, 5)
        start = rng.randint(3, 20)
        (rid,) = records(
            "peoplehub", "requests", 1, rng, state,
            summary=next(summaries), employee=emp, kind="vacation", status="pending", days=days,
            start=f"2024-06-{start:02d}", end=f"2024-06-{start + days - 1:02d}", reason=rng.choice(pools["messages"]),
        )  # fmt: skip
        requests[rid] = state["requests"][rid]
        targets.append(rid)
        balances[emp] = rng.randint(8, 25)
        expected[emp] = balances[emp] - days
        world_employees[emp] = {"leave_balance": balances[emp]}
        rows.append(
            {
                "summary": state["requests"][rid]["summary"],
                "name": state["employees"][emp]["name"],
                "balance": expected[emp],
            }
        )
    outsider = rng.choice([e for d, team in TEAMS.items() if d != department for e in team])
    (decoy,) = records(
        "peoplehub", "requests", 1, rng, state,
        summary=next(summaries), employee=outsider, kind="vacation", status="pending", days=2,
        start="2024-06-10", end="2024-06-11",
    )  # fmt: skip
    requests[decoy] = state["requests"][decoy]
    return {
        "world": {"requests": requests, "employees": world_employees},
        "department": department,
        "department_name": state["departments"][department]["name"],
        "employees": employees,
        "targets": targets,
        "balances": balances,
        "expected": expected,
        "rows": rows,
        "decoys": [decoy],
    }


def initial_setup(P):
    hub_write("peoplehub", "set", P["world"])


def solve(P, *, mistake=None):
    state = hub_read("peoplehub", "state")["stored_state"]
    targets = P["targets"][:-1] if mistake == "one_left" else P["targets"]
    for rid in targets:
        request = state["requests"][rid]
        request["status"] = "approved"
        if mistake != "no_balance":
            employee = state["employees"][request["employee"]]
            employee["leave_balance"] = employee["leave_balance"] - request["days"]
    hub_write("peoplehub", "set_current", state)


def reward(P):
    go = hub_read("peoplehub", "go")
    now, before = go["current_state"], go["initial_state"]

    def department(rid):
        return before["employees"][before["requests"][rid]["employee"]]["department"]

    @precondition("the department's pending requests are the ones the task was built on")
    def world_as_described():
        pending = sorted(
            rid
            for rid, r in before["requests"].items()
            if r["status"] == "pending" and department(rid) == P["department"]
        )
        return pending == sorted(P["targets"])

    @precondition("no other request or employee changed, and nothing was added or deleted")
    def others_intact():
        return (
            unchanged_except(go, "requests", ids=P["targets"])
            and unchanged_except(go, "employees", ids=P["employees"], fields=("leave_balance",))
            and unchanged_except(
                go,
                "employees",
                fields=(
                    "name",
                    "email",
                    "job_title",
                    "department",
                    "manager",
                    "start_date",
                    "status",
                    "color",
                ),
            )
            and len(now["requests"]) == len(before["requests"])
        )

    @component("each of the department's pending requests is approved", 0.6)
    def approved():
        return sum(now["requests"][r]["status"] == "approved" for r in P["targets"]) / len(P["targets"])

    @component("each requester's leave balance is reduced by the requested days", 0.4)
    def deducted():
        return sum(
            abs(float(now["employees"][e].get("leave_balance") or 0) - P["expected"][e]) < 0.01
            for e in P["employees"]
        ) / len(P["employees"])


def demonstrate(P, screen):
    """Approve each of the department's pending requests from the Time off inbox, then lower each
    requester's leave balance on Employees."""
    yield from open_view(screen, "Time off")
    for row in P["rows"]:
        yield from open_record(screen, "Time off", row["summary"])
        yield from press(screen, "Approve")
        screen.find(
            named("push-button", "Move back to pending"), timeout_s=10, what=f"{row['summary']!r} approved"
        )
    yield from open_view(screen, "Employees")
    for row in P["rows"]:
        yield from open_record(screen, "Employees", row["name"])
        yield type_number(screen, "Leave balance (days)", row["balance"])
    yield settle()
