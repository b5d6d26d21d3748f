// Issue tracker shell: top bar, project sidebar and hash routing (#/<PROJECT>/<view>[/<ISSUE-KEY>]).
// Views: board (drag cards between workflow columns), backlog (sprint planning), issues (list).
import { StateClient, showFatal } from "../../_hub/static/hub.js";
import { avatar, h, icon, openMenu } from "../../_hub/static/dom.js";
import { renderBacklog, renderIssueList } from "./backlog.js";
import { renderBoard } from "./board.js";
import { createIssueDialog, issueDialog } from "./issue.js";

const client = new StateClient();
const $ = (sel) => document.querySelector(sel);
const VIEWS = [["board", "Board", "board"], ["backlog", "Backlog", "list"], ["issues", "Issues", "task"]];
const boardFilter = { assignee: "all", text: "" };
const listFilter = { status: "all", type: "all", text: "" };
let route = { project: null, view: "board", issue: null };
let openIssue = null;

function parseRoute() {
  const [, project, view, issue] = location.hash.split("/");
  const s = client.state;
  const projectKey = s.projects[project] ? project : Object.keys(s.projects)[0];
  route = {
    project: projectKey,
    view: VIEWS.some(([v]) => v === view) ? view : "board",
    issue: issue && s.issues[issue] ? issue : null,
  };
}

function navigate(view = route.view, issue = null, project = route.project) {
  location.hash = `#/${project}/${view}${issue ? `/${issue}` : ""}`;
}

const onOpen = (key) => navigate(route.view, key, client.state.issues[key].project === route.project ? route.project : client.state.issues[key].project);

function renderTopbar() {
  const s = client.state;
  const me = s.users[s.current_user];
  const search = h("input", { type: "search", class: "global-search", placeholder: "Search issues (e.g. WEB-4)",
    "aria-label": "Search issues", onkeydown: (e) => {
      if (e.key !== "Enter") return;
      const q = e.target.value.trim().toUpperCase();
      if (s.issues[q]) onOpen(q);
      else { listFilter.text = e.target.value.trim(); navigate("issues"); }
    } });
  $(".topbar").replaceChildren(
    h("div", { class: "brand" }, h("span", { class: "brand-mark" }, icon("board", 18)), "Tracker"),
    h("nav", { class: "top-nav" },
      h("button", { type: "button", class: "btn btn-ghost", onclick: (e) => openMenu(e.currentTarget,
        Object.entries(s.projects).map(([k, p]) => ({ label: `${p.name} (${k})`, icon: "box", onClick: () => navigate("board", null, k) }))) },
      "Projects", icon("chevronDown", 14)),
      h("button", { type: "button", class: "btn btn-primary create-btn", onclick: () => createIssueDialog(client, route.project, onOpen) },
        icon("plus", 14), "Create")),
    h("div", { class: "top-right" }, search, h("span", { class: "sync-dot", title: "Sync status" }), avatar(me, 30)));
}

function renderSidebar() {
  const s = client.state;
  const project = s.projects[route.project];
  $(".sidebar").replaceChildren(
    h("div", { class: "project-card" },
      h("span", { class: "project-avatar", style: `background:${project.color}` }, project.key.slice(0, 2)),
      h("div", {}, h("b", {}, project.name), h("div", { class: "muted" }, "Software project"))),
    h("div", { class: "side-label" }, "Planning"),
    ...VIEWS.map(([view, label, iconName]) => h("a", {
      href: `#/${route.project}/${view}`, class: `side-item${route.view === view ? " active" : ""}`, "data-view": view,
    }, icon(iconName, 16), label)),
    h("div", { class: "side-label" }, "Projects"),
    ...Object.entries(s.projects).map(([k, p]) => h("a", { href: `#/${k}/board`, class: `side-item${k === route.project ? " current" : ""}` },
      h("span", { class: "dot", style: `background:${p.color}` }), p.name)),
    h("div", { class: "side-foot muted" }, "You're in a team-managed project"));
}

function renderContent() {
  const content = $(".content");
  const scroll = content.scrollTop;
  const views = {
    board: () => renderBoard(client, route.project, { onOpen, filter: {
      ...boardFilter,
      onAssignee: (v) => { boardFilter.assignee = v; renderContent(); },
      onText: (v) => { boardFilter.text = v; renderContent(); focusSearch(); },
    } }),
    backlog: () => renderBacklog(client, route.project, { onOpen }),
    issues: () => renderIssueList(client, route.project, { onOpen, filter: {
      ...listFilter, on: (k, v) => { listFilter[k] = v; renderContent(); if (k === "text") focusSearch(); },
    } }),
  };
  content.replaceChildren(views[route.view]());
  content.scrollTop = scroll;
}

function focusSearch() {
  const input = $(".board-search");
  if (input) { input.focus(); input.setSelectionRange(input.value.length, input.value.length); }
}

function syncIssueDialog() {
  if (route.issue && openIssue !== route.issue) {
    document.querySelector("dialog[data-dialog=issue]")?.close();
    openIssue = route.issue;
    issueDialog(client, route.issue, () => {
      openIssue = null;
      if (route.issue) navigate(route.view, null);
    });
  } else if (!route.issue && openIssue) {
    openIssue = null;
    document.querySelector("dialog[data-dialog=issue]")?.close();
  }
}

function render() {
  parseRoute();
  renderTopbar();
  renderSidebar();
  renderContent();
  syncIssueDialog();
  const project = client.state.projects[route.project];
  document.title = `${project.name} ${route.view} - Issue Tracker`;
}

async function main() {
  try {
    await client.load();
  } catch (err) {
    showFatal(document.getElementById("app"), err);
    return;
  }
  client.subscribe(() => { renderTopbar(); renderSidebar(); renderContent(); });
  window.addEventListener("hashchange", render);
  render();
  document.documentElement.dataset.ready = "true";
}

main();
