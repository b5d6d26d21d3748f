// A spreadsheet-like data grid: one row per record, one column per field of the view's `columns`,
// every cell an in-place editor labelled "<column label> of <record title>" (a change is saved when
// the cell is left, as in a sheet). The row's first cell is the record link that opens its detail
// pane. Each column header is a button named by the column's label that sorts the grid by it
// (again: the other way round); the sorted header carries aria-sort.
//
// options:
//   frozen: how many leading columns stay visible while the grid scrolls sideways (default 1)
import { h, icon } from "../../../_hub/static/dom.js";
import { control, detailPane, label, recordLink, titleOf, toolbar, visibleRecords } from "../core.js";

export const stylesheet = true;

const sorting = {}; // per view id: {key, dir}

function compare(a, b) {
  if (typeof a === "number" && typeof b === "number") return a - b;
  if (typeof a === "boolean" || typeof b === "boolean") return Number(!!a) - Number(!!b);
  return String(a ?? "").localeCompare(String(b ?? ""), "en", { numeric: true });
}

export function render(ctx) {
  const { def, client, view } = ctx;
  const entity = view.entity;
  const e = def.entities[entity];
  const columns = view.columns.length ? view.columns : Object.keys(e.fields);
  const sort = sorting[view.id];
  let rows = visibleRecords(ctx);
  if (sort) rows = [...rows].sort(([ia, a], [ib, b]) => sort.dir * compare(a[sort.key], b[sort.key]) || ia.localeCompare(ib));
  const letters = columns.map((_, i) => String.fromCharCode(66 + i)); // A is the record column

  const header = h("tr", { class: "grid-head" },
    h("th", { class: "rownum corner", "aria-hidden": "true" }),
    h("th", { class: "rec" }, e.label),
    columns.map((key) => {
      const sorted = sort && sort.key === key;
      return h("th", { "aria-sort": sorted ? (sort.dir > 0 ? "ascending" : "descending") : null, "data-key": key },
        h("button", { type: "button", class: `sort-btn${sorted ? " sorted" : ""}`,
          onclick: () => {
            sorting[view.id] = sorted ? { key, dir: -sort.dir } : { key, dir: 1 };
            ctx.rerender();
          } }, label(def, entity, key), sorted ? icon(sort.dir > 0 ? "up" : "down", 12) : null));
    }));
  const letterRow = h("tr", { class: "grid-letters", "aria-hidden": "true" }, h("th", { class: "rownum corner" }), h("th", {}, "A"),
    letters.map((l) => h("th", {}, l)));

  const body = rows.map(([id, r], index) => {
    const title = titleOf(def, client.state, entity, id);
    return h("tr", { class: id === ctx.record ? "selected" : "", "data-id": id },
      h("td", { class: "rownum", "aria-hidden": "true" }, String(index + 1)),
      h("td", { class: "rec" }, recordLink(ctx, entity, id)),
      columns.map((key) => {
        const f = e.fields[key];
        if (f.readonly) return h("td", { class: "cell readonly" }, String(r[key] ?? ""));
        const el = control(def, client.state, entity, key, r[key] ?? null, {
          onChange: (value) => client.commit((s) => { s[entity][id][key] = value; }),
        });
        el.setAttribute("aria-label", `${label(def, entity, key)} of ${title}`);
        return h("td", { class: `cell cell-${f.type}` }, el);
      }));
  });

  const table = h("table", { class: "sheet", "aria-label": view.label }, h("thead", {}, letterRow, header), h("tbody", {}, body));
  const status = h("div", { class: "sheet-status" },
    h("span", {}, `${rows.length} ${rows.length === 1 ? e.label.toLowerCase() : (e.plural || `${e.label}s`).toLowerCase()}`),
    sort ? h("span", {}, `Sorted by ${label(def, entity, sort.key)} (${sort.dir > 0 ? "ascending" : "descending"})`) : h("span", {}, "Unsorted"));
  return h("div", { class: `view view-grid${ctx.record ? " with-detail" : ""}` },
    h("div", { class: "view-main" }, toolbar(ctx),
      h("div", { class: "sheet-wrap" }, rows.length ? table : h("p", { class: "empty muted" }, "No rows match.")), status),
    ctx.record ? detailPane(ctx, entity, ctx.record, { related: view.related }) : null);
}
