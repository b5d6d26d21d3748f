// Tracker domain helpers: lookups, the workflow rules, and the mutations the UI performs.
import { nowIso } from "../../_hub/static/dom.js";

export const PRIORITIES = ["highest", "high", "medium", "low", "lowest"];
export const TYPES = ["story", "task", "bug", "epic"];
export const TYPE_COLORS = { story: "#63ba3c", task: "#4bade8", bug: "#e5493a", epic: "#904ee2" };
export const PRIORITY_COLORS = { highest: "#cd1317", high: "#e9494a", medium: "#e97f33", low: "#2d8738", lowest: "#57a55a" };

export const user = (s, id) => (id ? s.users[id] || { name: id, color: "#868e96" } : null);

export function statuses(s) {
  return Object.entries(s.workflow.statuses).sort(([, a], [, b]) => a.order - b.order);
}

export const statusName = (s, id) => s.workflow.statuses[id]?.name || id;

export function allowedTargets(s, from) {
  return s.workflow.transitions[from] || [];
}

export function canTransition(s, from, to) {
  return from === to || allowedTargets(s, from).includes(to);
}

/** A sentence explaining why `from` -> `to` is refused (shown in the toast). */
export function transitionError(s, key, from, to) {
  const allowed = allowedTargets(s, from).map((t) => statusName(s, t));
  return `${key} cannot move from ${statusName(s, from)} to ${statusName(s, to)}. ` +
    `Allowed from ${statusName(s, from)}: ${allowed.join(", ") || "nothing"}.`;
}

export function activeSprint(s, project) {
  const found = Object.entries(s.sprints).find(([, sp]) => sp.project === project && sp.state === "active");
  return found ? found[0] : null;
}

export function projectSprints(s, project, states = ["active", "future"]) {
  return Object.entries(s.sprints).filter(([, sp]) => sp.project === project && states.includes(sp.state));
}

function issueNumber(key) {
  return Number.parseInt(key.split("-")[1], 10);
}

export function projectIssues(s, project) {
  return Object.entries(s.issues)
    .filter(([, i]) => i.project === project)
    .sort(([a], [b]) => issueNumber(a) - issueNumber(b));
}

export function commentsOf(s, key) {
  return Object.entries(s.comments).filter(([, c]) => c.issue === key).sort(([, a], [, b]) => a.created.localeCompare(b.created));
}

// ---- mutations (run inside client.commit) ----

/** Change fields of one issue and stamp `updated` (volatile). */
export function updateIssue(s, key, changes) {
  Object.assign(s.issues[key], changes, { updated: nowIso() });
}

export function createIssue(s, fields) {
  const project = fields.project;
  const numbers = Object.keys(s.issues).filter((k) => k.startsWith(`${project}-`)).map(issueNumber);
  const key = `${project}-${Math.max(0, ...numbers) + 1}`;
  const stamp = nowIso();
  s.issues[key] = {
    project, type: fields.type, summary: fields.summary, description: fields.description || "",
    status: "todo", priority: fields.priority, assignee: fields.assignee || null, reporter: s.current_user,
    sprint: fields.sprint || null, epic: null, labels: fields.labels || [], points: fields.points ?? null,
    created: stamp, updated: stamp,
  };
  return key;
}

export function addComment(s, key, body) {
  const numbers = Object.keys(s.comments).map((id) => Number.parseInt(id.replace(/\D/g, ""), 10) || 0);
  const id = `cm${String(Math.max(0, ...numbers) + 1).padStart(3, "0")}`;
  s.comments[id] = { issue: key, author: s.current_user, body, created: nowIso() };
  return id;
}

export function deleteIssue(s, key) {
  for (const [id, c] of Object.entries(s.comments)) if (c.issue === key) delete s.comments[id];
  for (const issue of Object.values(s.issues)) if (issue.epic === key) issue.epic = null;
  delete s.issues[key];
}

/** Close the active sprint; unfinished issues go to `moveTo` (a future sprint id or null = backlog). */
export function completeSprint(s, sprintId, moveTo) {
  const doneIds = Object.keys(s.workflow.statuses).filter((id) => s.workflow.statuses[id].category === "done");
  for (const [key, issue] of Object.entries(s.issues)) {
    if (issue.sprint === sprintId && !doneIds.includes(issue.status)) updateIssue(s, key, { sprint: moveTo });
  }
  s.sprints[sprintId].state = "closed";
}

export function createSprint(s, project) {
  const count = Object.values(s.sprints).filter((sp) => sp.project === project).length;
  const numbers = Object.values(s.sprints).filter((sp) => sp.project === project)
    .map((sp) => Number.parseInt(sp.name.split(" ").at(-1), 10) || 0);
  const number = Math.max(count, ...numbers) + 1;
  const id = `s_${project.toLowerCase()}_${number}`;
  s.sprints[id] = { name: `${project} Sprint ${number}`, project, state: "future", start: null, end: null, goal: "" };
  return id;
}
