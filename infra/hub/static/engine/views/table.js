// Issue list + detail: a filterable table of the view's records (columns from the view) and, when
// one is open, its detail pane on the right.
import { h } from "../../../_hub/static/dom.js";
import { badge, detailPane, label, recordLink, toolbar, visibleRecords } from "../core.js";

export function render(ctx) {
  const { def, client, view } = ctx;
  const entity = view.entity;
  const e = def.entities[entity];
  const columns = view.columns.length ? view.columns : [e.title];
  const rows = visibleRecords(ctx);
  const table = h("table", { class: "grid-table", "aria-label": view.label },
    h("thead", {}, h("tr", {}, h("th", {}, "ID"), columns.map((key) => h("th", {}, label(def, entity, key))))),
    h("tbody", {}, rows.map(([id, r]) => h("tr", { class: id === ctx.record ? "selected" : "", "data-id": id },
      h("td", { class: "muted id" }, id),
      columns.map((key) => h("td", {}, key === e.title ? recordLink(ctx, entity, id) : badge(def, client.state, entity, key, r[key])))))));
  return h("div", { class: `view view-table${ctx.record ? " with-detail" : ""}` },
    h("div", { class: "view-main" }, toolbar(ctx),
      rows.length ? table : h("p", { class: "empty muted" }, `No ${(e.plural || `${e.label}s`).toLowerCase()} match.`)),
    ctx.record ? detailPane(ctx, entity, ctx.record, { related: view.related }) : null);
}
