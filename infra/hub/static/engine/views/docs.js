// A wiki / document editor: the page tree on the left (built from the view's `parent` field, each
// page a record link), the open page in the middle as a document (its title and a large body text
// area, saved when it loses focus), and the rest of its detail pane (fields, actions, comments) in a
// side column.
//
// options:
//   body:  the longtext field shown as the document (default: the entity's first longtext field)
//   group: a ref or enum field whose values head the tree's sections (e.g. a page's space)
//   meta:  fields shown in the byline under the title (default: none)
import { h, icon } from "../../../_hub/static/dom.js";
import { badge, detailPane, display, label, optionLabel, recordLink, titleOf, toolbar, visibleRecords } from "../core.js";

export const stylesheet = true;

function bodyField(e, options) {
  if (options.body && e.fields[options.body]) return options.body;
  return Object.entries(e.fields).find(([, f]) => f.type === "longtext")?.[0] || null;
}

/** The ancestors of `id`, root first (a cycle in the data stops the walk). */
function ancestors(state, entity, parent, id) {
  const chain = [];
  const seen = new Set([id]);
  let at = state[entity]?.[id]?.[parent];
  while (at && state[entity][at] && !seen.has(at)) {
    chain.unshift(at);
    seen.add(at);
    at = state[entity][at][parent];
  }
  return chain;
}

function tree(ctx, rows) {
  const { def, client, view } = ctx;
  const entity = view.entity;
  const e = def.entities[entity];
  const parent = view.parent;
  const shown = new Map(rows);
  const children = new Map();
  const roots = [];
  for (const [id, r] of rows) {
    const up = parent ? r[parent] : null;
    if (up && shown.has(up) && !ctx.search) {
      if (!children.has(up)) children.set(up, []);
      children.get(up).push(id);
    } else roots.push(id);
  }
  const byTitle = (a, b) => titleOf(def, client.state, entity, a).localeCompare(titleOf(def, client.state, entity, b));
  const node = (id, depth, trail) => {
    const kids = trail.has(id) ? [] : (children.get(id) || []).sort(byTitle);
    const open = id === ctx.record;
    return h("li", { class: `tree-node${open ? " open" : ""}`, "data-id": id },
      h("div", { class: "tree-row", style: `padding-left:${8 + depth * 16}px` },
        icon(kids.length ? "chevronDown" : "file", 14, "tree-icon"), recordLink(ctx, entity, id)),
      kids.length ? h("ul", { class: "tree-list" }, kids.map((k) => node(k, depth + 1, new Set([...trail, id])))) : null);
  };
  const group = view.options.group;
  if (!group || !e.fields[group]) return h("ul", { class: "tree-list" }, roots.sort(byTitle).map((id) => node(id, 0, new Set())));
  const sections = new Map();
  for (const id of roots) {
    const key = String(client.state[entity][id][group] ?? "");
    if (!sections.has(key)) sections.set(key, []);
    sections.get(key).push(id);
  }
  const f = e.fields[group];
  const heading = (key) => (!key ? "Unfiled" : f.type === "enum" ? optionLabel(key) : display(def, client.state, entity, group, key));
  return h("div", { class: "tree-sections" }, [...sections.keys()].sort((a, b) => heading(a).localeCompare(heading(b))).map((key) =>
    h("section", { class: "tree-section", "aria-label": heading(key) },
      h("div", { class: "tree-heading" }, icon(f.type === "ref" ? "box" : "tag", 13), heading(key)),
      h("ul", { class: "tree-list" }, sections.get(key).sort(byTitle).map((id) => node(id, 0, new Set()))))));
}

function documentPane(ctx, id) {
  const { def, client, view } = ctx;
  const s = client.state;
  const entity = view.entity;
  const e = def.entities[entity];
  const record = s[entity][id];
  const body = bodyField(e, view.options);
  const set = (key) => (value) => client.commit((st) => { st[entity][id][key] = value; });
  const crumbs = view.parent ? ancestors(s, entity, view.parent, id) : [];
  const meta = (view.options.meta || []).filter((k) => e.fields[k] && record[k] !== undefined && record[k] !== null && record[k] !== "");
  const titleInput = h("input", { type: "text", class: "doc-title", "aria-label": label(def, entity, e.title), value: record[e.title] ?? "",
    onkeydown: (ev) => { if (ev.key === "Enter") ev.target.blur(); },
    onchange: (ev) => { if (ev.target.value.trim()) set(e.title)(ev.target.value.trim()); } });
  return h("article", { class: "doc", "aria-label": `Document: ${titleOf(def, s, entity, id)}` },
    h("nav", { class: "doc-crumbs", "aria-label": "Breadcrumb" },
      [...crumbs, id].flatMap((cid, i) => [i ? h("span", { class: "sep" }, "/") : null,
        h("span", { class: i === crumbs.length ? "crumb current" : "crumb" }, titleOf(def, s, entity, cid))])),
    titleInput,
    meta.length ? h("div", { class: "doc-meta" }, meta.map((k) => h("span", { class: "doc-meta-item" },
      h("span", { class: "muted" }, `${label(def, entity, k)}:`), badge(def, s, entity, k, record[k])))) : null,
    body ? h("textarea", { class: "doc-body", name: body, "aria-label": label(def, entity, body), rows: 22,
      placeholder: "Start writing…", value: record[body] ?? "", onchange: (ev) => set(body)(ev.target.value) }) : null);
}

export function render(ctx) {
  const { def, client, view } = ctx;
  const entity = view.entity;
  const e = def.entities[entity];
  const rows = visibleRecords(ctx);
  const open = ctx.record && client.state[entity]?.[ctx.record] ? ctx.record : null;
  const side = h("aside", { class: "doc-tree", "aria-label": `${view.label} tree` }, toolbar(ctx),
    rows.length ? tree(ctx, rows) : h("p", { class: "empty muted" }, `No ${(e.plural || `${e.label}s`).toLowerCase()} match.`));
  if (!open) {
    return h("div", { class: "view view-docs" }, side,
      h("div", { class: "doc-empty" }, icon("file", 40), h("h2", {}, `Pick a ${e.label.toLowerCase()} from the tree`),
        h("p", { class: "muted" }, `${rows.length} ${(e.plural || `${e.label}s`).toLowerCase()} in ${view.label}.`)));
  }
  const pane = detailPane(ctx, entity, open, { related: view.related });
  // The document itself edits the title and the body; the side column keeps every other field.
  for (const key of [e.title, bodyField(e, view.options)]) {
    pane.querySelector(`.detail-fields [name="${key}"]`)?.closest(".field")?.remove();
  }
  pane.classList.add("doc-side");
  return h("div", { class: "view view-docs with-detail" }, side, h("div", { class: "doc-wrap" }, documentPane(ctx, open)), pane);
}
