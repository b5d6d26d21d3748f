"""Issue tracker state: projects, a workflow graph, sprints, issues and comments.

Cross-entity rules (checked on every write, as in the paper's B.5.2 mock): an issue's status is a
workflow status, its sprint belongs to its own project, people are known users, each project has
at most one active sprint. Which *moves* are legal (the transition graph) is enforced by the UI,
like the real product; the state API lets setup scripts place an issue in any status.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field, model_validator

from infra.hub.apps.models import Loose

# Board layout and "last touched" stamps change without changing what the issue says.
VOLATILE = ("ui", "issues.*.updated")


class User(Loose):
    name: str
    email: str = ""
    color: str = "#5c7cfa"


class Project(Loose):
    key: str = Field(pattern=r"^[A-Z][A-Z0-9]{1,9}$")
    name: str
    lead: str
    description: str = ""
    color: str = "#4c6ef5"


class Status(Loose):
    name: str
    category: Literal["todo", "in_progress", "done"]
    order: int = 0


class Workflow(Loose):
    statuses: dict[str, Status]
    transitions: dict[str, list[str]]


class Sprint(Loose):
    name: str
    project: str
    state: Literal["future", "active", "closed"]
    start: str | None = None
    end: str | None = None
    goal: str = ""


class Issue(Loose):
    project: str
    type: Literal["story", "bug", "task", "epic"] = "task"
    summary: str = Field(min_length=1)
    description: str = ""
    status: str
    priority: Literal["highest", "high", "medium", "low", "lowest"] = "medium"
    assignee: str | None = None
    reporter: str | None = None
    sprint: str | None = None
    epic: str | None = None
    labels: list[str] = Field(default_factory=list)
    points: float | None = None
    created: str = ""
    updated: str = ""


class Comment(Loose):
    issue: str
    author: str
    body: str = Field(min_length=1)
    created: str


class TrackerState(Loose):
    current_user: str
    users: dict[str, User]
    projects: dict[str, Project]
    workflow: Workflow
    sprints: dict[str, Sprint] = Field(default_factory=dict)
    issues: dict[str, Issue] = Field(default_factory=dict)
    comments: dict[str, Comment] = Field(default_factory=dict)
    ui: dict[str, Any] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _consistent(self) -> TrackerState:
        statuses = self.workflow.statuses
        for source, targets in self.workflow.transitions.items():
            unknown = [s for s in [source, *targets] if s not in statuses]
            if unknown:
                raise ValueError(f"workflow.transitions.{source} names unknown status {unknown[0]!r}")
        people = set(self.users)
        if self.current_user not in people:
            raise ValueError(f"current_user {self.current_user!r} is not in users")
        active: dict[str, str] = {}
        for sid, sprint in self.sprints.items():
            if sprint.project not in self.projects:
                raise ValueError(f"sprints.{sid}.project {sprint.project!r} is not a project")
            if sprint.state == "active" and active.setdefault(sprint.project, sid) != sid:
                raise ValueError(
                    f"project {sprint.project} has two active sprints ({active[sprint.project]}, {sid})"
                )
        for key, issue in self.issues.items():
            where = f"issues.{key}"
            if issue.project not in self.projects:
                raise ValueError(f"{where}.project {issue.project!r} is not a project")
            if issue.status not in statuses:
                raise ValueError(f"{where}.status {issue.status!r} is not a workflow status")
            if issue.sprint is not None and (
                issue.sprint not in self.sprints or self.sprints[issue.sprint].project != issue.project
            ):
                raise ValueError(
                    f"{where}.sprint {issue.sprint!r} is not a sprint of project {issue.project}"
                )
            for role in ("assignee", "reporter"):
                person = getattr(issue, role)
                if person is not None and person not in people:
                    raise ValueError(f"{where}.{role} {person!r} is not a user")
        for cid, comment in self.comments.items():
            if comment.issue not in self.issues:
                raise ValueError(f"comments.{cid}.issue {comment.issue!r} is not an issue")
        return self
