// The sprint board: one column per workflow status; drag a card to move it. A drop the workflow
// does not allow is refused with an explanation and changes nothing.
import { avatar, formatDate, h, icon, openDialog, field, select, toast } from "../../_hub/static/dom.js";
import {
  PRIORITY_COLORS, TYPE_COLORS, activeSprint, allowedTargets, canTransition, completeSprint, projectIssues,
  projectSprints, statusName, statuses, transitionError, updateIssue, user,
} from "./model.js";

export function issueCard(s, key, issue, { onOpen, draggable = true } = {}) {
  const assignee = user(s, issue.assignee);
  return h("div", {
    class: "issue-card", draggable, "data-key": key, tabindex: 0, role: "button", "aria-label": `${key} ${issue.summary}`,
    onclick: () => onOpen(key), onkeydown: (e) => { if (e.key === "Enter") onOpen(key); },
    ondragstart: (e) => {
      e.dataTransfer.setData("text/plain", key);
      e.dataTransfer.effectAllowed = "move";
      document.body.dataset.dragFrom = issue.status;
      highlightTargets(s, issue.status);
    },
    ondragend: () => clearHighlights(),
  },
  h("div", { class: "card-summary" }, issue.summary),
  issue.labels.length ? h("div", { class: "card-labels" }, issue.labels.map((l) => h("span", { class: "label" }, l))) : null,
  h("div", { class: "card-foot" },
    h("span", { class: "type-icon", style: `background:${TYPE_COLORS[issue.type]}`, title: issue.type }, icon(typeIcon(issue.type), 12)),
    h("span", { class: `card-key${issue.status === "done" ? " done" : ""}` }, key),
    h("span", { class: "spacer" }),
    issue.points != null ? h("span", { class: "points", title: "Story points" }, issue.points) : null,
    h("span", { class: "priority", title: `Priority: ${issue.priority}`, style: `color:${PRIORITY_COLORS[issue.priority]}` },
      icon(["highest", "high"].includes(issue.priority) ? "up" : issue.priority === "medium" ? "equal" : "down", 14)),
    assignee ? avatar(assignee, 24) : h("span", { class: "avatar unassigned", title: "Unassigned" }, icon("user", 14))));
}

export function typeIcon(type) {
  return { story: "story", task: "task", bug: "bug", epic: "epic" }[type] || "task";
}

function highlightTargets(s, from) {
  for (const col of document.querySelectorAll(".column")) {
    const to = col.dataset.status;
    col.classList.toggle("drop-ok", to !== from && allowedTargets(s, from).includes(to));
    col.classList.toggle("drop-no", to !== from && !allowedTargets(s, from).includes(to));
  }
}

function clearHighlights() {
  for (const col of document.querySelectorAll(".column")) col.classList.remove("drop-ok", "drop-no", "drag-over");
  delete document.body.dataset.dragFrom;
}

/** Move `key` to `to` if the workflow allows it; otherwise explain and change nothing. */
export function moveIssue(client, key, to) {
  const s = client.state;
  const from = s.issues[key].status;
  if (from === to) return false;
  if (!canTransition(s, from, to)) {
    toast(transitionError(s, key, from, to), "error");
    return false;
  }
  client.commit((st) => updateIssue(st, key, { status: to }));
  toast(`${key} moved to ${statusName(s, to)}`, "success");
  return true;
}

export function renderBoard(client, project, { onOpen, filter }) {
  const s = client.state;
  const sprintId = activeSprint(s, project);
  if (!sprintId) {
    return h("div", { class: "empty card" }, h("h2", {}, "No active sprint"),
      h("p", {}, "Plan a sprint in the backlog and start it to see the board."),
      h("a", { class: "btn btn-primary", href: `#/${project}/backlog` }, "Go to backlog"));
  }
  const sprint = s.sprints[sprintId];
  const issues = projectIssues(s, project).filter(([, i]) => i.sprint === sprintId && i.type !== "epic")
    .filter(([, i]) => filter.assignee === "all" || (filter.assignee === "none" ? !i.assignee : i.assignee === filter.assignee))
    .filter(([k, i]) => !filter.text || `${k} ${i.summary}`.toLowerCase().includes(filter.text.toLowerCase()));
  const people = [...new Set(projectIssues(s, project).filter(([, i]) => i.sprint === sprintId && i.assignee).map(([, i]) => i.assignee))];
  const columns = statuses(s).map(([statusId, st]) => {
    const cards = issues.filter(([, i]) => i.status === statusId);
    return h("section", {
      class: "column", "data-status": statusId, "aria-label": st.name,
      ondragover: (e) => { e.preventDefault(); e.currentTarget.classList.add("drag-over"); },
      ondragleave: (e) => e.currentTarget.classList.remove("drag-over"),
      ondrop: (e) => {
        e.preventDefault();
        const key = e.dataTransfer.getData("text/plain");
        clearHighlights();
        if (key && client.state.issues[key]) moveIssue(client, key, statusId);
      },
    },
    h("header", { class: "column-head" }, h("span", {}, st.name), h("span", { class: "count" }, cards.length),
      st.category === "done" ? icon("check", 14) : null),
    h("div", { class: "column-cards" }, cards.map(([k, i]) => issueCard(s, k, i, { onOpen }))));
  });
  return h("div", { class: "board-page" },
    h("div", { class: "page-head" },
      h("div", {}, h("div", { class: "crumbs muted" }, `Projects / ${s.projects[project].name}`),
        h("h1", {}, sprint.name),
        h("div", { class: "muted sprint-meta" }, icon("calendar", 14),
          `${formatDate(sprint.start, true)} – ${formatDate(sprint.end, true)}`, sprint.goal ? ` · Goal: ${sprint.goal}` : "")),
      h("button", { type: "button", class: "btn", onclick: () => completeSprintDialog(client, project, sprintId) }, "Complete sprint")),
    h("div", { class: "board-filters" },
      h("input", { type: "search", class: "board-search", placeholder: "Search this board", value: filter.text,
        "aria-label": "Search this board", oninput: (e) => filter.onText(e.target.value) }),
      h("div", { class: "avatar-filter" },
        people.map((uid) => h("button", { type: "button", class: `avatar-toggle${filter.assignee === uid ? " on" : ""}`,
          title: user(s, uid).name, onclick: () => filter.onAssignee(filter.assignee === uid ? "all" : uid) }, avatar(user(s, uid), 30)))),
      h("button", { type: "button", class: `btn btn-sm${filter.assignee === s.current_user ? " btn-primary" : ""}`,
        onclick: () => filter.onAssignee(filter.assignee === s.current_user ? "all" : s.current_user) }, "Only my issues")),
    h("div", { class: "board" }, columns));
}

function completeSprintDialog(client, project, sprintId) {
  const s = client.state;
  const open = Object.values(s.issues).filter((i) => i.sprint === sprintId && s.workflow.statuses[i.status].category !== "done");
  const targets = [["", "Backlog"], ...projectSprints(s, project, ["future"]).map(([id, sp]) => [id, sp.name])];
  openDialog({
    title: `Complete ${s.sprints[sprintId].name}`, submitLabel: "Complete sprint", name: "complete-sprint",
    body: [
      h("p", {}, `${open.length} open issue${open.length === 1 ? "" : "s"} will be moved.`),
      field("Move open issues to", select("move_to", targets, "")),
    ],
    onSubmit: (data) => {
      client.commit((st) => completeSprint(st, sprintId, data.move_to || null));
      toast("Sprint completed", "success");
      return undefined;
    },
  });
}
