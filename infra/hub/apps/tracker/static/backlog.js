// Backlog planning (sprints and the unplanned backlog) and the filterable issue list.
import { avatar, field, formatDate, h, icon, openDialog, select, toast } from "../../_hub/static/dom.js";
import { typeIcon } from "./board.js";
import {
  PRIORITY_COLORS, TYPE_COLORS, activeSprint, createSprint, projectIssues, projectSprints, statusName, statuses,
  updateIssue, user,
} from "./model.js";

function statusBadge(s, status) {
  const category = s.workflow.statuses[status]?.category;
  const cls = { todo: "badge-gray", in_progress: "badge-blue", done: "badge-green" }[category] || "badge-gray";
  return h("span", { class: `badge ${cls} status-badge` }, statusName(s, status).toUpperCase());
}

function issueRow(client, project, key, issue, onOpen) {
  const s = client.state;
  const options = [["", "Backlog"], ...projectSprints(s, project).map(([id, sp]) => [id, sp.name])];
  return h("div", { class: "backlog-row", "data-key": key },
    h("span", { class: "type-icon", style: `background:${TYPE_COLORS[issue.type]}` }, icon(typeIcon(issue.type), 12)),
    h("button", { type: "button", class: "link-btn row-key", onclick: () => onOpen(key) }, key),
    h("button", { type: "button", class: "link-btn row-summary", onclick: () => onOpen(key) }, issue.summary),
    issue.labels.slice(0, 2).map((l) => h("span", { class: "label" }, l)),
    statusBadge(s, issue.status),
    h("span", { class: "points" }, issue.points ?? "–"),
    issue.assignee ? avatar(user(s, issue.assignee), 24) : h("span", { class: "avatar unassigned", title: "Unassigned" }, icon("user", 14)),
    select("sprint", options, issue.sprint || "", {
      class: "row-move", "aria-label": `Sprint of ${key}`,
      onchange: (e) => {
        client.commit((st) => updateIssue(st, key, { sprint: e.target.value || null }));
        toast(`${key} moved to ${e.target.value ? sprintName(client.state, e.target.value) : "the backlog"}`, "success");
      },
    }));
}

const sprintName = (s, id) => s.sprints[id]?.name || id;

function sprintSection(client, project, sprintId, onOpen) {
  const s = client.state;
  const sprint = s.sprints[sprintId];
  const rows = projectIssues(s, project).filter(([, i]) => i.sprint === sprintId);
  const points = rows.reduce((sum, [, i]) => sum + (i.points || 0), 0);
  const hasActive = !!activeSprint(s, project);
  return h("section", { class: "backlog-section card", "data-sprint": sprintId },
    h("header", { class: "section-head" },
      h("div", {}, h("h2", {}, sprint.name, " ", h("span", { class: "badge badge-blue" }, sprint.state)),
        h("span", { class: "muted" }, sprint.start ? `${formatDate(sprint.start)} – ${formatDate(sprint.end)} · ` : "",
          `${rows.length} issues · ${points} points`)),
      sprint.state === "future"
        ? h("button", { type: "button", class: "btn", disabled: hasActive, title: hasActive ? "Complete the active sprint first" : "",
          onclick: () => startSprintDialog(client, sprintId) }, "Start sprint")
        : h("a", { class: "btn", href: `#/${project}/board` }, "View board")),
    rows.length ? rows.map(([k, i]) => issueRow(client, project, k, i, onOpen))
      : h("div", { class: "empty-row muted" }, "Plan a sprint by moving issues here."));
}

function startSprintDialog(client, sprintId) {
  const sprint = client.state.sprints[sprintId];
  openDialog({
    title: `Start ${sprint.name}`, submitLabel: "Start", name: "start-sprint",
    body: [
      h("div", { class: "field-row" },
        field("Start date", h("input", { type: "date", name: "start", required: true })),
        field("End date", h("input", { type: "date", name: "end", required: true }))),
      field("Sprint goal", h("textarea", { name: "goal", rows: 2 })),
    ],
    onSubmit: (data) => {
      if (!data.start || !data.end) return "Choose a start and an end date.";
      if (data.end < data.start) return "The sprint must end after it starts.";
      client.commit((s) => Object.assign(s.sprints[sprintId], { state: "active", start: data.start, end: data.end, goal: data.goal.trim() }));
      toast(`${sprint.name} started`, "success");
      return undefined;
    },
  });
}

export function renderBacklog(client, project, { onOpen }) {
  const s = client.state;
  const sprints = projectSprints(s, project).sort(([, a], [, b]) => (a.state === "active" ? -1 : b.state === "active" ? 1 : a.name.localeCompare(b.name)));
  const backlog = projectIssues(s, project).filter(([, i]) => !i.sprint && i.type !== "epic");
  return h("div", { class: "backlog-page" },
    h("div", { class: "page-head" }, h("div", {}, h("div", { class: "crumbs muted" }, `Projects / ${s.projects[project].name}`),
      h("h1", {}, "Backlog"))),
    sprints.map(([id]) => sprintSection(client, project, id, onOpen)),
    h("section", { class: "backlog-section card", "data-sprint": "backlog" },
      h("header", { class: "section-head" },
        h("div", {}, h("h2", {}, "Backlog"), h("span", { class: "muted" }, `${backlog.length} issues`)),
        h("button", { type: "button", class: "btn", onclick: () => {
          const id = client.commit((st) => createSprint(st, project));
          toast(`${client.state.sprints[id].name} created`, "success");
        } }, "Create sprint")),
      backlog.length ? backlog.map(([k, i]) => issueRow(client, project, k, i, onOpen))
        : h("div", { class: "empty-row muted" }, "Your backlog is empty.")));
}

export function renderIssueList(client, project, { onOpen, filter }) {
  const s = client.state;
  const rows = projectIssues(s, project)
    .filter(([, i]) => filter.status === "all" || i.status === filter.status)
    .filter(([, i]) => filter.type === "all" || i.type === filter.type)
    .filter(([k, i]) => !filter.text || `${k} ${i.summary}`.toLowerCase().includes(filter.text.toLowerCase()));
  return h("div", { class: "list-page" },
    h("div", { class: "page-head" }, h("div", {}, h("div", { class: "crumbs muted" }, `Projects / ${s.projects[project].name}`),
      h("h1", {}, "Issues"))),
    h("div", { class: "board-filters" },
      h("input", { type: "search", class: "board-search", placeholder: "Search issues", value: filter.text, "aria-label": "Search issues",
        oninput: (e) => filter.on("text", e.target.value) }),
      select("status", [["all", "All statuses"], ...statuses(s).map(([id, st]) => [id, st.name])], filter.status,
        { class: "filter-select", "aria-label": "Status filter", onchange: (e) => filter.on("status", e.target.value) }),
      select("type", [["all", "All types"], ["story", "Story"], ["task", "Task"], ["bug", "Bug"], ["epic", "Epic"]], filter.type,
        { class: "filter-select", "aria-label": "Type filter", onchange: (e) => filter.on("type", e.target.value) })),
    h("table", { class: "table card" },
      h("thead", {}, h("tr", {}, ["Type", "Key", "Summary", "Status", "Priority", "Assignee", "Sprint", "Updated"].map((c) => h("th", {}, c)))),
      h("tbody", {}, rows.map(([k, i]) => h("tr", { class: "clickable", "data-key": k, onclick: () => onOpen(k) },
        h("td", {}, h("span", { class: "type-icon", style: `background:${TYPE_COLORS[i.type]}` }, icon(typeIcon(i.type), 12))),
        h("td", { class: "mono" }, k), h("td", {}, i.summary), h("td", {}, statusBadge(s, i.status)),
        h("td", {}, h("span", { class: "priority-text", style: `color:${PRIORITY_COLORS[i.priority]}` }, i.priority)),
        h("td", {}, i.assignee ? user(s, i.assignee).name : h("span", { class: "muted" }, "Unassigned")),
        h("td", {}, i.sprint ? s.sprints[i.sprint].name : h("span", { class: "muted" }, "Backlog")),
        h("td", { class: "muted" }, formatDate(i.updated, true)))))),
    rows.length ? null : h("div", { class: "empty" }, "No issues match these filters."));
}
