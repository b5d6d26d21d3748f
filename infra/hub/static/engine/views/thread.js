// A forum: categories on the left (the view's `parent` ref field; a category button filters by it),
// the threads as a list (pinned first, with reply counts, tags and solved/locked marks), and an open
// thread as a page of its posts, oldest first, with a reply composer ("Write a reply" + "Post reply")
// under them and the thread's detail pane (fields, actions) on the right.
//
// The posts are the view's first `related` entry ({entity, via, compose, set}): `compose` is the text
// field a reply writes, `set` its other fields (tokens allowed).
// options (field keys of the view's entity, all optional):
//   pinned: a bool field listed first and marked (default "pinned")
//   locked: a bool field that closes the thread to replies (default "locked")
//   solved: a bool field shown as a "Solved" mark (default "solved")
//   tags: a tags field shown as chips (default "tags")
import { avatar, formatDate, formatTime, h, icon, toast } from "../../../_hub/static/dom.js";
import { addRecord, detailPane, display, recordLink, resolve, titleOf, toolbar, visibleRecords } from "../core.js";

export const stylesheet = true;

function opts(view) {
  return { pinned: "pinned", locked: "locked", solved: "solved", tags: "tags", ...view.options };
}

function postsOf(ctx, id) {
  const rel = ctx.view.related[0];
  if (!rel) return [];
  const { def, client } = ctx;
  const other = def.entities[rel.entity];
  const stamp = Object.entries(other.fields).find(([, f]) => f.type === "datetime")?.[0];
  const rows = Object.entries(client.state[rel.entity] || {}).filter(([, r]) => r[rel.via] === id);
  if (stamp) rows.sort(([, a], [, b]) => String(a[stamp]).localeCompare(String(b[stamp])));
  return rows;
}

function categoryRail(ctx) {
  const { def, client, view } = ctx;
  const to = def.entities[view.entity].fields[view.parent].to;
  const chosen = ctx.filters[view.parent] || "all";
  const all = Object.values(client.state[view.entity] || {});
  const item = (value, text, n, color) => h("button", { type: "button", class: `cat-item${chosen === value ? " active" : ""}`,
    "aria-pressed": String(chosen === value), onclick: () => { ctx.setFilter(view.parent, value); if (ctx.record) ctx.navigate(view.id); } },
  h("span", { class: "cat-dot", style: `background:${color || "var(--muted)"}` }), h("span", { class: "cat-name" }, text), h("span", { class: "count" }, String(n)));
  const plural = def.entities[to].plural || `${def.entities[to].label}s`;
  return h("nav", { class: "cat-rail", "aria-label": plural }, h("div", { class: "rail-title" }, plural),
    item("all", "All topics", all.length),
    Object.entries(client.state[to] || {}).map(([cid, c]) => item(cid, titleOf(def, client.state, to, cid),
      all.filter((r) => r[view.parent] === cid).length, c.color)));
}

function marks(o, fields, r) {
  return [
    o.pinned in fields && r[o.pinned] ? h("span", { class: "mark pinned", title: "Pinned" }, icon("pin", 13), "Pinned") : null,
    o.locked in fields && r[o.locked] ? h("span", { class: "mark locked", title: "Locked" }, icon("lock", 13), "Locked") : null,
    o.solved in fields && r[o.solved] ? h("span", { class: "mark solved", title: "Solved" }, icon("check", 13), "Solved") : null,
  ];
}

function threadList(ctx, o) {
  const { def, client, view } = ctx;
  const s = client.state;
  const e = def.entities[view.entity];
  const rows = visibleRecords(ctx);
  if (o.pinned in e.fields) rows.sort(([, a], [, b]) => Number(!!b[o.pinned]) - Number(!!a[o.pinned]));
  const author = Object.entries(e.fields).find(([, f]) => f.type === "ref" && f.to === def.people)?.[0];
  const stamp = Object.entries(e.fields).find(([, f]) => f.type === "datetime")?.[0];
  return h("div", { class: "view-main" }, toolbar(ctx),
    rows.length ? h("ul", { class: "thread-list", "aria-label": view.label }, rows.map(([id, r]) => {
      const posts = postsOf(ctx, id);
      const who = author && r[author] ? titleOf(def, s, def.people, r[author]) : "";
      return h("li", { class: "thread-row", "data-id": id },
        avatar({ name: s[def.people]?.[r[author]]?.name || who, color: s[def.people]?.[r[author]]?.color }, 36),
        h("div", { class: "thread-main" },
          h("div", { class: "thread-title" }, marks(o, e.fields, r), recordLink(ctx, view.entity, id)),
          h("div", { class: "thread-meta muted" },
            view.parent ? h("span", { class: "thread-cat" }, display(def, s, view.entity, view.parent, r[view.parent])) : null,
            who ? ` · started by ${who}` : "", stamp && r[stamp] ? ` · ${formatDate(r[stamp], true)}` : "",
            o.tags in e.fields ? (r[o.tags] || []).map((t) => h("span", { class: "tag-chip" }, t)) : null)),
        h("div", { class: "thread-stats" }, h("strong", {}, String(posts.length)), h("span", { class: "muted" }, posts.length === 1 ? "reply" : "replies")));
    })) : h("p", { class: "empty muted" }, `No ${(e.plural || `${e.label}s`).toLowerCase()} match.`));
}

function threadPage(ctx, o) {
  const { def, client, view } = ctx;
  const s = client.state;
  const e = def.entities[view.entity];
  const id = ctx.record;
  const r = s[view.entity]?.[id];
  const pane = detailPane(ctx, view.entity, id, { related: [] });
  if (!r) return h("div", { class: "view view-thread" }, h("div", { class: "view-main" }, pane));
  const rel = view.related[0];
  const other = rel ? def.entities[rel.entity] : null;
  const by = other ? Object.entries(other.fields).find(([, f]) => f.type === "ref" && f.to === def.people)?.[0] : null;
  const stamp = other ? Object.entries(other.fields).find(([, f]) => f.type === "datetime")?.[0] : null;
  const text = rel ? rel.compose || other.title : null;
  const locked = o.locked in e.fields && !!r[o.locked];
  const box = h("textarea", { rows: 4, "aria-label": "Write a reply", placeholder: locked ? "This thread is locked." : "Write a reply…", disabled: locked });
  const reply = () => {
    const value = box.value.trim();
    if (!value || locked) return;
    const given = { [rel.via]: id, [text]: value };
    for (const [k, v] of Object.entries(rel.set || {})) given[k] = resolve(def, s, v, { record: id });
    client.commit((st) => addRecord(def, st, rel.entity, given));
    toast("Reply posted", "success");
  };
  return h("div", { class: "view view-thread with-detail" },
    h("div", { class: "view-main thread-page" },
      h("a", { class: "back-link", href: `#/${view.id}` }, icon("list", 14), `All ${view.label.toLowerCase()}`),
      h("h1", { class: "thread-heading" }, titleOf(def, s, view.entity, id)),
      h("div", { class: "thread-marks" }, marks(o, e.fields, r),
        view.parent ? h("span", { class: "thread-cat" }, display(def, s, view.entity, view.parent, r[view.parent])) : null,
        o.tags in e.fields ? (r[o.tags] || []).map((t) => h("span", { class: "tag-chip" }, t)) : null),
      h("section", { class: "posts-list", "aria-label": other ? other.plural || `${other.label}s` : "Posts" },
        postsOf(ctx, id).map(([pid, p], n) => {
          const who = by && p[by] ? titleOf(def, s, def.people, p[by]) : "Someone";
          return h("article", { class: "forum-post", "data-id": pid },
            avatar({ name: s[def.people]?.[p[by]]?.name || who, color: s[def.people]?.[p[by]]?.color }, 40),
            h("div", { class: "forum-post-main" },
              h("header", {}, h("strong", {}, who), n === 0 ? h("span", { class: "op" }, "Original post") : null,
                stamp && p[stamp] ? h("span", { class: "muted" }, `${formatDate(p[stamp], true)} ${formatTime(p[stamp])}`) : null,
                h("span", { class: "muted post-no" }, `#${n + 1}`)),
              h("p", {}, String(p[text] ?? ""))));
        })),
      rel ? h("section", { class: "reply-box", "aria-label": "Reply" }, box,
        h("button", { type: "button", class: "btn btn-primary", disabled: locked, onclick: reply }, "Post reply")) : null),
    pane);
}

export function render(ctx) {
  const o = opts(ctx.view);
  const rail = ctx.view.parent ? categoryRail(ctx) : null;
  if (ctx.record) return h("div", { class: "forum-shell" }, rail, threadPage(ctx, o));
  return h("div", { class: "forum-shell" }, rail, h("div", { class: "view view-thread" }, threadList(ctx, o)));
}
