// Issue detail (inline editing, workflow-limited status menu, comments) and the create-issue form.
import { avatar, field, formatDate, formatTime, h, icon, openDialog, select, toast } from "../../_hub/static/dom.js";
import { moveIssue, typeIcon } from "./board.js";
import {
  PRIORITIES, TYPES, TYPE_COLORS, activeSprint, addComment, allowedTargets, commentsOf, createIssue, deleteIssue,
  projectSprints, statusName, updateIssue, user,
} from "./model.js";

const cap = (text) => text.charAt(0).toUpperCase() + text.slice(1);

/** Open issue `key`; every field saves as soon as it changes, as in the real product. */
export function issueDialog(client, key, onClose) {
  const dialog = openDialog({ title: key, wide: true, name: "issue", body: h("div", { class: "issue-detail" }) });
  dialog.classList.add("issue-modal");
  dialog.addEventListener("close", () => onClose?.());
  const paint = () => {
    const s = client.state;
    const issue = s.issues[key];
    if (!issue) return dialog.close();
    dialog.querySelector(".modal-head h2").replaceChildren(
      h("span", { class: "type-icon", style: `background:${TYPE_COLORS[issue.type]}` }, icon(typeIcon(issue.type), 12)),
      ` ${s.projects[issue.project].name} / ${key}`);
    dialog.querySelector(".issue-detail").replaceChildren(mainColumn(client, key, issue), sideColumn(client, key, issue));
  };
  client.subscribe(paint);
  dialog.addEventListener("close", () => client.listeners.delete(paint));
  paint();
  return dialog;
}

function mainColumn(client, key, issue) {
  const s = client.state;
  const summary = h("input", { class: "summary-input", value: issue.summary, "aria-label": "Summary",
    onchange: (e) => {
      const text = e.target.value.trim();
      if (!text) { toast("Summary is required", "error"); e.target.value = issue.summary; return; }
      if (text !== issue.summary) client.commit((st) => updateIssue(st, key, { summary: text }));
    } });
  const description = h("textarea", { class: "description-input", rows: 5, placeholder: "Add a description…",
    value: issue.description, "aria-label": "Description",
    onchange: (e) => { if (e.target.value !== issue.description) client.commit((st) => updateIssue(st, key, { description: e.target.value })); } });
  const comment = h("textarea", { class: "comment-input", rows: 2, placeholder: "Add a comment…", "aria-label": "Add a comment" });
  const comments = commentsOf(s, key);
  return h("div", { class: "issue-main" }, summary,
    h("h3", { class: "detail-label" }, "Description"), description,
    h("h3", { class: "detail-label" }, `Comments (${comments.length})`),
    h("div", { class: "comment-new" }, avatar(user(s, s.current_user), 32),
      h("div", { class: "comment-box" }, comment,
        h("button", { type: "button", class: "btn btn-primary btn-sm", onclick: () => {
          const body = comment.value.trim();
          if (!body) return;
          client.commit((st) => addComment(st, key, body));
        } }, "Save"))),
    comments.slice().reverse().map(([id, c]) => h("div", { class: "comment", "data-comment": id }, avatar(user(s, c.author), 32),
      h("div", {}, h("div", {}, h("b", {}, user(s, c.author).name), " ",
        h("span", { class: "muted" }, `${formatDate(c.created, true)} ${formatTime(c.created)}`)), h("p", {}, c.body)))));
}

function sideColumn(client, key, issue) {
  const s = client.state;
  const set = (changes) => client.commit((st) => updateIssue(st, key, changes));
  const people = [["", "Unassigned"], ...Object.entries(s.users).map(([id, u]) => [id, u.name])];
  const sprints = [["", "Backlog"], ...projectSprints(s, issue.project).map(([id, sp]) => [id, sp.name])];
  if (issue.sprint && !sprints.some(([id]) => id === issue.sprint)) sprints.push([issue.sprint, s.sprints[issue.sprint].name]);
  const transitions = [[issue.status, statusName(s, issue.status)],
    ...allowedTargets(s, issue.status).map((to) => [to, `→ ${statusName(s, to)}`])];
  return h("aside", { class: "issue-side" },
    field("Status", select("status", transitions, issue.status, { "aria-label": "Status", class: "status-select",
      onchange: (e) => moveIssue(client, key, e.target.value) }),
    "Only transitions allowed by the workflow are listed."),
    field("Assignee", select("assignee", people, issue.assignee || "", { "aria-label": "Assignee",
      onchange: (e) => set({ assignee: e.target.value || null }) })),
    h("button", { type: "button", class: "link-btn assign-me", onclick: () => set({ assignee: s.current_user }) }, "Assign to me"),
    field("Priority", select("priority", PRIORITIES.map((p) => [p, cap(p)]), issue.priority, { "aria-label": "Priority",
      onchange: (e) => set({ priority: e.target.value }) })),
    field("Sprint", select("sprint", sprints, issue.sprint || "", { "aria-label": "Sprint",
      onchange: (e) => set({ sprint: e.target.value || null }) })),
    field("Story points", h("input", { type: "number", min: 0, step: 1, value: issue.points ?? "", "aria-label": "Story points",
      onchange: (e) => set({ points: e.target.value === "" ? null : Number(e.target.value) }) })),
    field("Labels", h("input", { value: issue.labels.join(", "), placeholder: "comma, separated", "aria-label": "Labels",
      onchange: (e) => set({ labels: [...new Set(e.target.value.split(",").map((l) => l.trim()).filter(Boolean))] }) })),
    h("dl", { class: "meta" },
      h("dt", {}, "Reporter"), h("dd", {}, issue.reporter ? user(s, issue.reporter).name : "—"),
      h("dt", {}, "Epic"), h("dd", {}, issue.epic ? `${issue.epic} ${s.issues[issue.epic]?.summary || ""}` : "None"),
      h("dt", {}, "Created"), h("dd", {}, formatDate(issue.created, true)),
      h("dt", {}, "Updated"), h("dd", {}, formatDate(issue.updated, true))),
    h("button", { type: "button", class: "btn btn-sm delete-issue", onclick: () => confirmDelete(client, key) },
      icon("trash", 14), "Delete issue"));
}

function confirmDelete(client, key) {
  openDialog({
    title: `Delete ${key}?`, submitLabel: "Delete", danger: true, name: "delete-issue",
    body: h("p", {}, "You're about to permanently delete this issue, its comments and all of its data."),
    onSubmit: () => {
      client.commit((s) => deleteIssue(s, key));
      toast(`${key} deleted`, "success");
      return undefined;
    },
  });
}

export function createIssueDialog(client, project, onCreated) {
  const s = client.state;
  const sprintOptions = [["", "Backlog"], ...projectSprints(s, project).map(([id, sp]) => [id, sp.name])];
  openDialog({
    title: "Create issue", submitLabel: "Create", wide: true, name: "create-issue",
    body: [
      h("div", { class: "field-row" },
        field("Project", select("project", Object.entries(s.projects).map(([k, p]) => [k, `${p.name} (${k})`]), project)),
        field("Issue type", select("type", TYPES.filter((t) => t !== "epic").map((t) => [t, cap(t)]), "task"))),
      field("Summary", h("input", { name: "summary", placeholder: "What needs to be done?", autocomplete: "off" })),
      field("Description", h("textarea", { name: "description", rows: 4 })),
      h("div", { class: "field-row" },
        field("Priority", select("priority", PRIORITIES.map((p) => [p, cap(p)]), "medium")),
        field("Assignee", select("assignee", [["", "Unassigned"], ...Object.entries(s.users).map(([id, u]) => [id, u.name])], ""))),
      h("div", { class: "field-row" },
        field("Sprint", select("sprint", sprintOptions, activeSprint(s, project) || "")),
        field("Story points", h("input", { type: "number", name: "points", min: 0, step: 1 }))),
      field("Labels", h("input", { name: "labels", placeholder: "comma, separated" })),
    ],
    onSubmit: (data) => {
      const summary = (data.summary || "").trim();
      if (!summary) return "Summary is required.";
      // A sprint belongs to one project; switching project in the form must not carry it over.
      const sprint = data.sprint && client.state.sprints[data.sprint]?.project === data.project ? data.sprint : null;
      const key = client.commit((st) => createIssue(st, {
        project: data.project, type: data.type, summary, description: data.description.trim(), priority: data.priority,
        assignee: data.assignee || null, sprint, points: data.points === "" ? null : Number(data.points),
        labels: [...new Set((data.labels || "").split(",").map((l) => l.trim()).filter(Boolean))],
      }));
      toast(`${key} created`, "success");
      onCreated?.(key);
      return undefined;
    },
  });
}
