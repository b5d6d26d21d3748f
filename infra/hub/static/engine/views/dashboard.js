// An analytics dashboard: KPI tiles over the view's records, SVG bar charts grouped by an enum or ref
// field, and the records themselves in a table below (each title a record link that opens its
// detail pane). The filters and the search box narrow every tile, bar and row alike.
// Tiles and bars carry accessible names with their values ("Revenue: $12,400.00",
// "Revenue by channel: Email $12,400.00") so a reader of the page gets the figures, not only pixels.
//
// options:
//   tiles:  [{label, field?, agg: count|sum|avg}]   (default: a count, and the sum of `total`)
//   charts: [{by, field?, agg: count|sum, label?}] (`by` an enum or ref field; default agg: sum of
//           `field`, or of `total`; label default "<Field> by <by>")
import { formatMoney, h } from "../../../_hub/static/dom.js";
import { badge, detailPane, display, label, optionLabel, plural, recordLink, titleOf, toolbar, visibleRecords } from "../core.js";

export const stylesheet = true;

const BAR_H = 26;

function aggregate(rows, field, agg) {
  if (agg === "count" || !field) return rows.length;
  const sum = rows.reduce((acc, [, r]) => acc + (Number(r[field]) || 0), 0);
  if (agg === "avg") return rows.length ? sum / rows.length : 0;
  return Math.round(sum * 100) / 100;
}

function formatter(def, entity, field, agg) {
  const f = field ? def.entities[entity].fields[field] : null;
  if (agg !== "count" && f && f.type === "money") return (n) => formatMoney(n, def.currency);
  return (n) => Number(n).toLocaleString("en-US", { maximumFractionDigits: agg === "avg" ? 1 : 2 });
}

function tile(def, entity, rows, spec) {
  const agg = spec.agg || (spec.field ? "sum" : "count");
  const value = aggregate(rows, spec.field, agg);
  const text = formatter(def, entity, spec.field, agg)(value);
  const name = spec.label || (spec.field ? label(def, entity, spec.field) : plural(def.entities[entity]));
  return h("div", { class: "kpi", role: "group", "aria-label": `${name}: ${text}` },
    h("span", { class: "kpi-label" }, name), h("strong", { class: "kpi-value" }, text),
    h("span", { class: "kpi-sub" }, agg === "count" ? "records" : agg === "avg" ? "average" : "total"));
}

function chart(ctx, rows, spec) {
  const { def, client, view } = ctx;
  const entity = view.entity;
  const by = def.entities[entity].fields[spec.by];
  const field = spec.field || view.total;
  const agg = spec.agg || (field ? "sum" : "count");
  const fmt = formatter(def, entity, field, agg);
  const keys = by.type === "enum" ? [...by.options] : Object.keys(client.state[by.to] || {});
  const name = spec.label || `${agg === "count" ? plural(def.entities[entity]) : label(def, entity, field)} by ${label(def, entity, spec.by).toLowerCase()}`;
  const groups = keys.map((k) => [by.type === "enum" ? optionLabel(k) : titleOf(def, client.state, by.to, k),
    aggregate(rows.filter(([, r]) => r[spec.by] === k), field, agg)]).filter(([, v], i) => v || by.type === "enum" || i < 0);
  const max = Math.max(1, ...groups.map(([, v]) => v));
  const width = 520;
  const labelW = 150;
  const valueW = 110;
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", `0 0 ${width} ${groups.length * BAR_H + 8}`);
  svg.setAttribute("class", "bars");
  svg.setAttribute("role", "list");
  svg.setAttribute("aria-label", name);
  const el = (tag, attrs, text) => {
    const node = document.createElementNS(ns, tag);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
    if (text !== undefined) node.textContent = text;
    return node;
  };
  groups.forEach(([group, value], i) => {
    const y = i * BAR_H + 4;
    const w = Math.max(2, ((width - labelW - valueW) * value) / max);
    const g = el("g", { role: "listitem", "aria-label": `${name}: ${group} ${fmt(value)}` });
    g.append(el("text", { x: labelW - 8, y: y + 16, "text-anchor": "end", class: "bar-label" }, group),
      el("rect", { x: labelW, y: y + 3, width: w, height: BAR_H - 8, rx: 3, class: `bar bar-${i % 6}` }),
      el("text", { x: labelW + w + 6, y: y + 16, class: "bar-value" }, fmt(value)));
    svg.append(g);
  });
  return h("section", { class: "chart-card", "aria-label": name }, h("h3", {}, name), svg);
}

export function render(ctx) {
  const { def, client, view } = ctx;
  const entity = view.entity;
  const e = def.entities[entity];
  const o = view.options || {};
  const rows = visibleRecords(ctx);
  const tiles = o.tiles || [{ label: plural(e), agg: "count" }, ...(view.total ? [{ field: view.total }] : [])];
  const charts = o.charts || [];
  const columns = view.columns.length ? view.columns : [e.title];
  const table = h("table", { class: "grid-table dash-table", "aria-label": `${view.label} records` },
    h("thead", {}, h("tr", {}, columns.map((key) => h("th", { class: ["number", "money"].includes(e.fields[key].type) ? "num" : "" }, label(def, entity, key))))),
    h("tbody", {}, rows.map(([id, r]) => h("tr", { class: id === ctx.record ? "selected" : "", "data-id": id },
      columns.map((key) => {
        const num = ["number", "money"].includes(e.fields[key].type);
        if (key === e.title) return h("td", {}, recordLink(ctx, entity, id));
        return h("td", { class: num ? "num" : "" }, num ? display(def, client.state, entity, key, r[key]) : badge(def, client.state, entity, key, r[key]));
      })))));
  return h("div", { class: `view view-dashboard${ctx.record ? " with-detail" : ""}` },
    h("div", { class: "view-main" }, toolbar(ctx),
      h("div", { class: "kpis" }, tiles.map((spec) => tile(def, entity, rows, spec))),
      charts.length ? h("div", { class: "charts" }, charts.map((spec) => chart(ctx, rows, spec))) : null,
      h("h2", { class: "dash-sub" }, plural(e)),
      rows.length ? table : h("p", { class: "empty muted" }, `No ${plural(e).toLowerCase()} match.`)),
    ctx.record ? detailPane(ctx, entity, ctx.record, { related: view.related }) : null);
}
