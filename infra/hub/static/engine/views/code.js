// Code hosting: repositories on the left (the view's `parent` ref field filters by one), the
// pull-request list with each one's state, and an open pull request as its own page: title, state,
// branch, description, the unified diff drawn with coloured +/- lines and line numbers, and on the
// right the record's detail pane (its actions, e.g. Approve / Merge / Close, and related review
// comments).
//
// options (all optional; field keys of the view's entity):
//   diff: the longtext field holding a unified diff (drawn, not edited; default "diff")
//   description: the longtext field shown as the pull request's body (default "description")
//   state: the enum field drawn as the state badge (default "state")
//   branch: the text field naming the source branch (default "branch")
import { avatar, formatDate, h, icon } from "../../../_hub/static/dom.js";
import { badge, detailPane, display, optionLabel, recordLink, titleOf, toolbar, visibleRecords } from "../core.js";

export const stylesheet = true;

const STATE_ICON = { open: "forward", draft: "edit", merged: "check", closed: "x" };

function opts(view) {
  return { diff: "diff", description: "description", state: "state", branch: "branch", ...view.options };
}

/** A unified diff as rows: file headers, hunk headers, and added/removed/context lines numbered on
 * both sides the way the hunk header says. */
export function diffRows(text) {
  const rows = [];
  let oldNo = 0;
  let newNo = 0;
  for (const line of String(text || "").split("\n")) {
    if (line.startsWith("+++") || line.startsWith("---")) {
      if (line.startsWith("+++")) rows.push({ kind: "file", text: line.replace(/^\+\+\+ (b\/)?/, "") });
      continue;
    }
    const hunk = line.match(/^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/);
    if (hunk) {
      oldNo = Number(hunk[1]);
      newNo = Number(hunk[2]);
      rows.push({ kind: "hunk", text: line });
    } else if (line.startsWith("+")) {
      rows.push({ kind: "add", old: "", new: newNo++, text: line });
    } else if (line.startsWith("-")) {
      rows.push({ kind: "del", old: oldNo++, new: "", text: line });
    } else {
      rows.push({ kind: "ctx", old: oldNo++, new: newNo++, text: line || " " });
    }
  }
  return rows;
}

function diffView(text) {
  const rows = diffRows(text);
  const added = rows.filter((r) => r.kind === "add").length;
  const removed = rows.filter((r) => r.kind === "del").length;
  const files = [];
  for (const row of rows) {
    if (row.kind === "file" || !files.length) files.push({ name: row.kind === "file" ? row.text : "changes", rows: [] });
    if (row.kind !== "file") files[files.length - 1].rows.push(row);
  }
  return h("section", { class: "diff", "aria-label": "Files changed" },
    h("h3", {}, icon("file", 14), "Files changed", h("span", { class: "count" }, String(files.length)),
      h("span", { class: "diffstat" }, h("span", { class: "plus" }, `+${added}`), h("span", { class: "minus" }, `−${removed}`))),
    files.map((file) => h("div", { class: "diff-file" },
      h("div", { class: "diff-file-head" }, file.name),
      h("table", { class: "diff-table", "aria-label": `Diff of ${file.name}` }, h("tbody", {}, file.rows.map((r) => r.kind === "hunk"
        ? h("tr", { class: "hunk" }, h("td", { class: "ln" }), h("td", { class: "ln" }), h("td", { class: "code" }, r.text))
        : h("tr", { class: r.kind }, h("td", { class: "ln" }, String(r.old)), h("td", { class: "ln" }, String(r.new)),
          h("td", { class: "code" }, r.text))))))));
}

function stateBadge(value) {
  return h("span", { class: `pr-state state-${value}` }, icon(STATE_ICON[value] || "forward", 14), optionLabel(value ?? ""));
}

function repoRail(ctx) {
  const { def, client, view } = ctx;
  const parent = def.entities[view.entity].fields[view.parent];
  const chosen = ctx.filters[view.parent] || "all";
  const all = Object.values(client.state[view.entity] || {});
  const item = (value, text, n) => h("button", { type: "button", class: `repo-item${chosen === value ? " active" : ""}`,
    "aria-pressed": String(chosen === value), onclick: () => { ctx.setFilter(view.parent, value); if (ctx.record) ctx.navigate(view.id); } },
  icon(value === "all" ? "home" : "folder", 14), h("span", { class: "repo-name" }, text), h("span", { class: "count" }, String(n)));
  return h("nav", { class: "repo-rail", "aria-label": def.entities[parent.to].plural || `${def.entities[parent.to].label}s` },
    h("div", { class: "rail-head" }, def.entities[parent.to].plural || `${def.entities[parent.to].label}s`),
    item("all", "All", all.length),
    Object.keys(client.state[parent.to] || {}).map((rid) => item(rid, titleOf(def, client.state, parent.to, rid),
      all.filter((r) => r[view.parent] === rid).length)));
}

function listView(ctx, o) {
  const { def, client, view } = ctx;
  const entity = view.entity;
  const e = def.entities[entity];
  const s = client.state;
  const rows = visibleRecords(ctx);
  const author = Object.entries(e.fields).find(([, f]) => f.type === "ref" && f.to === def.people && f.readonly)?.[0];
  const stamp = Object.entries(e.fields).find(([, f]) => f.type === "datetime")?.[0];
  const shown = view.columns.filter((k) => k !== o.state && k !== author && k !== e.title);
  const list = h("ul", { class: "pr-list", "aria-label": view.label }, rows.map(([id, r]) => h("li", { class: "pr-row", "data-id": id },
    h("span", { class: `pr-icon state-${r[o.state]}`, title: optionLabel(r[o.state] ?? "") }, icon(STATE_ICON[r[o.state]] || "forward", 16)),
    h("div", { class: "pr-main" },
      h("div", { class: "pr-title" }, recordLink(ctx, entity, id),
        shown.map((k) => e.fields[k].type === "tags"
          ? (r[k] || []).map((t) => h("span", { class: "label-chip" }, t))
          : h("span", { class: "pr-col" }, badge(def, s, entity, k, r[k])))),
      h("div", { class: "pr-meta muted" }, `#${id} `, view.parent ? `in ${display(def, s, entity, view.parent, r[view.parent])} · ` : "",
        r[o.state] === "merged" ? "merged" : "opened", stamp && r[stamp] ? ` ${formatDate(r[stamp], true)}` : "",
        author && r[author] ? ` by ${display(def, s, entity, author, r[author])}` : "")))));
  const counts = e.fields[o.state]?.options?.map((opt) => h("span", { class: "state-count" }, stateBadge(opt),
    String(rows.filter(([, r]) => r[o.state] === opt).length))) || [];
  return h("div", { class: "view-main" }, toolbar(ctx),
    h("div", { class: "pr-box" }, h("div", { class: "pr-box-head" }, counts),
      rows.length ? list : h("p", { class: "empty muted" }, `No ${(e.plural || `${e.label}s`).toLowerCase()} match.`)));
}

function recordPage(ctx, o) {
  const { def, client, view } = ctx;
  const entity = view.entity;
  const s = client.state;
  const e = def.entities[entity];
  const id = ctx.record;
  const r = s[entity]?.[id];
  const pane = detailPane(ctx, entity, id, { related: view.related });
  // The diff is read on the page, drawn; its raw text stays out of the editable fields.
  pane.querySelector(`[name="${o.diff}"]`)?.closest(".field")?.remove();
  if (!r) return h("div", { class: "view view-code" }, h("div", { class: "view-main" }, pane));
  const author = Object.entries(e.fields).find(([, f]) => f.type === "ref" && f.to === def.people && f.readonly)?.[0];
  const who = author && r[author] ? titleOf(def, s, def.people, r[author]) : "someone";
  const repo = view.parent ? s[e.fields[view.parent].to]?.[r[view.parent]] : null;
  const base = repo?.default_branch || "main";
  return h("div", { class: "view view-code with-detail" },
    h("div", { class: "view-main pr-page" },
      h("a", { class: "back-link", href: `#/${view.id}` }, icon("list", 14), `All ${view.label.toLowerCase()}`),
      h("h1", { class: "pr-heading" }, titleOf(def, s, entity, id), h("span", { class: "muted pr-number" }, ` #${id}`)),
      h("div", { class: "pr-subhead" }, stateBadge(r[o.state]),
        h("span", {}, h("strong", {}, who), r[o.state] === "merged" ? " merged into " : " wants to merge into ",
          h("code", { class: "branch" }, base), " from ", h("code", { class: "branch" }, r[o.branch] || "patch-1"),
          repo ? ` · ${titleOf(def, s, e.fields[view.parent].to, r[view.parent])}` : "")),
      h("article", { class: "pr-body" },
        h("header", {}, author && r[author] ? avatar({ name: who, color: s[def.people]?.[r[author]]?.color }, 24) : null,
          h("strong", {}, who), h("span", { class: "muted" }, " commented")),
        h("p", {}, String(r[o.description] || "No description provided."))),
      diffView(r[o.diff])),
    pane);
}

export function render(ctx) {
  const o = opts(ctx.view);
  if (ctx.record) return h("div", { class: "code-shell" }, ctx.view.parent ? repoRail(ctx) : null, recordPage(ctx, o));
  return h("div", { class: "code-shell" }, ctx.view.parent ? repoRail(ctx) : null,
    h("div", { class: "view view-code" }, listView(ctx, o)));
}
