"""Issue tracker: projects, a scrum board with workflow-enforced transitions, backlog, sprints, comments."""

from pathlib import Path

from infra.hub.apps.tracker.seed import default_state
from infra.hub.apps.tracker.state import VOLATILE, TrackerState
from infra.hub.registry import MockApp

APP = MockApp(
    name="tracker",
    title="Issue Tracker",
    description="Projects, a sprint board with workflow rules, backlog planning and comments.",
    model=TrackerState,
    seed=default_state,
    volatile=VOLATILE,
    static_dir=Path(__file__).parent / "static",
)
