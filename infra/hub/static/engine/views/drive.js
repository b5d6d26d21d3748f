// A file drive: a folder breadcrumb and a grid of tiles, folders first, then files with their icon,
// size, owner and date. A folder tile (a button named by the folder) enters the folder; a file tile's
// name is the record link that opens its detail pane (rename, move, star, share, trash).
//
// The view's entity is the files; `parent` is the file's field holding its folder (a ref to the folder
// entity). While the search box holds text, every matching file shows, whatever its folder.
// options:
//   folder_parent: the folder entity's field holding its parent folder (nested folders)
//   size:  a number field shown as bytes on the tiles
//   kind:  an enum field choosing each file's icon colour
//   where: {field: [values]}: only records whose field holds one of the values (e.g. not trashed)
//   flat:  true to list the view's files without folders (a Starred or Trash view)
//   root:  the breadcrumb's first crumb (default "My files")
import { formatBytes, h, icon } from "../../../_hub/static/dom.js";
import { badge, createDialog, detailPane, display, label, recordLink, titleOf, toolbar, visibleRecords } from "../core.js";

export const stylesheet = true;

const current = {}; // per view id: the folder shown (null: the root)
const KIND_COLOURS = ["#1a73e8", "#188038", "#e37400", "#d93025", "#8e24aa", "#5f6368", "#00897b"];

function matches(record, where) {
  return Object.entries(where || {}).every(([key, values]) => values.includes(record[key] ?? null));
}

function folderChain(state, folders, up, id) {
  const chain = [];
  const seen = new Set();
  let at = id;
  while (at && state[folders]?.[at] && !seen.has(at)) {
    chain.unshift(at);
    seen.add(at);
    at = up ? state[folders][at][up] : null;
  }
  return chain;
}

function fileTile(ctx, id, r) {
  const { def, client, view } = ctx;
  const entity = view.entity;
  const e = def.entities[entity];
  const o = view.options;
  const kindField = o.kind && e.fields[o.kind];
  const colour = kindField ? KIND_COLOURS[Math.max(0, kindField.options.indexOf(r[o.kind])) % KIND_COLOURS.length] : KIND_COLOURS[0];
  const meta = view.columns.filter((k) => k !== e.title && e.fields[k] && r[k] !== undefined && r[k] !== null && r[k] !== ""
    && !(Array.isArray(r[k]) && !r[k].length));
  const starred = Object.entries(e.fields).find(([, f]) => f.type === "bool" && /star/i.test(f.label || ""))?.[0]
    || Object.keys(e.fields).find((k) => /star/.test(k));
  return h("article", { class: `tile file-tile${id === ctx.record ? " selected" : ""}`, "data-id": id },
    h("div", { class: "tile-thumb", style: `--kind:${colour}` }, icon("file", 34),
      kindField && r[o.kind] ? h("span", { class: "kind-tag" }, display(def, client.state, entity, o.kind, r[o.kind])) : null),
    h("div", { class: "tile-name" }, starred && r[starred] ? h("span", { class: "star", title: "Starred" }, icon("star", 13)) : null,
      recordLink(ctx, entity, id)),
    h("div", { class: "tile-meta" }, meta.map((k) => h("span", { class: "tile-field", title: label(def, entity, k) },
      k === o.size && typeof r[k] === "number" ? formatBytes(r[k])
        : e.fields[k].type === "refs" ? [icon("users", 12), display(def, client.state, entity, k, r[k])]
          : badge(def, client.state, entity, k, r[k])))));
}

export function render(ctx) {
  const { def, client, view } = ctx;
  const s = client.state;
  const entity = view.entity;
  const e = def.entities[entity];
  const o = view.options;
  const parent = view.parent && e.fields[view.parent] ? view.parent : null;
  const folders = parent ? e.fields[parent].to : null;
  const up = folders && o.folder_parent && def.entities[folders].fields[o.folder_parent] ? o.folder_parent : null;
  const flat = !!o.flat || !parent || !!ctx.search;
  let here = current[view.id] ?? null;
  if (here && !s[folders]?.[here]) here = current[view.id] = null;
  const enter = (id) => { current[view.id] = id; ctx.rerender(); };

  const rows = visibleRecords(ctx).filter(([, r]) => matches(r, o.where));
  const files = flat ? rows : rows.filter(([, r]) => (r[parent] ?? null) === here);
  const subfolders = flat ? [] : Object.entries(s[folders] || {})
    .filter(([, f]) => (up ? f[up] ?? null : null) === here && (up || here === null))
    .sort(([, a], [, b]) => String(a[def.entities[folders].title]).localeCompare(String(b[def.entities[folders].title])));

  const root = o.root || "My files";
  const crumbs = flat ? [h("span", { class: "crumb current" }, ctx.search ? `Search results for “${ctx.search}”` : view.label)]
    : [h("button", { type: "button", class: `crumb${here ? "" : " current"}`, onclick: () => enter(null) }, root),
      ...folderChain(s, folders, up, here).flatMap((fid) => [icon("chevronRight", 14, "crumb-sep"),
        h("button", { type: "button", class: `crumb${fid === here ? " current" : ""}`, onclick: () => enter(fid) }, titleOf(def, s, folders, fid))])];
  const newFolder = folders && !flat && def.entities[folders].creatable
    ? h("button", { type: "button", class: "btn", onclick: () => createDialog(ctx, folders, up ? { [up]: here } : {}, () => ctx.rerender()) },
      icon("folder", 14), `New ${def.entities[folders].label.toLowerCase()}`)
    : null;

  const main = h("div", { class: "view-main drive-main" }, toolbar(ctx, entity, newFolder ? [newFolder] : []),
    h("nav", { class: "drive-crumbs", "aria-label": "Breadcrumb" }, crumbs),
    subfolders.length ? h("section", { class: "drive-section", "aria-label": def.entities[folders].plural || `${def.entities[folders].label}s` },
      h("h3", {}, def.entities[folders].plural || `${def.entities[folders].label}s`),
      h("div", { class: "tile-grid folders" }, subfolders.map(([fid]) => h("button", { type: "button", class: "tile folder-tile", "data-id": fid,
        ondblclick: () => enter(fid), onclick: () => enter(fid) }, icon("folder", 22), h("span", {}, titleOf(def, s, folders, fid)))))) : null,
    h("section", { class: "drive-section", "aria-label": e.plural || `${e.label}s` },
      h("h3", {}, e.plural || `${e.label}s`, h("span", { class: "count" }, String(files.length))),
      files.length ? h("div", { class: "tile-grid" }, files.map(([id, r]) => fileTile(ctx, id, r)))
        : h("p", { class: "empty muted" }, subfolders.length ? "No files here." : "This folder is empty.")));
  return h("div", { class: `view view-drive${ctx.record ? " with-detail" : ""}` }, main,
    ctx.record && s[entity]?.[ctx.record] ? detailPane(ctx, entity, ctx.record, { related: view.related }) : null);
}
