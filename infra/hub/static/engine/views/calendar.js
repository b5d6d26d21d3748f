// A calendar: a month grid (or a week strip) placing the view's records on their `date` field (a date
// or a datetime); each event chip is the record's link, and an open record shows its detail pane on
// the right. The month shown first is the one of the definition's seed.now, so every session and
// screenshot starts alike; "Previous month"/"Next month" (or "Previous week"/"Next week") page it.
//
// options (all optional):
//   time:    a text/datetime field shown before a chip's title (a datetime `date` shows its own time)
//   color:   an enum field whose option colours the chip (pill palette), or a ref whose colour field does
//   end:     a date field: a record spans from `date` to `end` (trips, hotel stays, leave)
//   legend:  true to list the `color` field's options under the toolbar
//   week:    true to offer a Month/Week switch
// When the search box matches records outside the period shown, they are listed under the grid.
import { h, icon } from "../../../_hub/static/dom.js";
import { detailPane, display, optionLabel, recordLink, today, toolbar, visibleRecords } from "../core.js";

export const stylesheet = true;

const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September",
  "October", "November", "December"];
const DAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
const shown = {}; // per view id: {anchor: "YYYY-MM-DD", mode: "month" | "week"}

const iso = (d) => d.toISOString().slice(0, 10);
const day = (text) => new Date(`${text}T00:00:00Z`);
const addDays = (d, n) => new Date(d.getTime() + n * 86400000);

function period(anchor, mode) {
  const a = day(anchor);
  if (mode === "week") {
    const start = addDays(a, -a.getUTCDay());
    return { start, days: 7, heading: `Week of ${MONTHS[start.getUTCMonth()]} ${start.getUTCDate()}, ${start.getUTCFullYear()}` };
  }
  const first = new Date(Date.UTC(a.getUTCFullYear(), a.getUTCMonth(), 1));
  const start = addDays(first, -first.getUTCDay());
  const last = new Date(Date.UTC(a.getUTCFullYear(), a.getUTCMonth() + 1, 0));
  const weeks = Math.ceil((first.getUTCDay() + last.getUTCDate()) / 7);
  return { start, days: weeks * 7, month: a.getUTCMonth(), heading: `${MONTHS[a.getUTCMonth()]} ${a.getUTCFullYear()}` };
}

function move(anchor, mode, by) {
  const a = day(anchor);
  if (mode === "week") return iso(addDays(a, 7 * by));
  return iso(new Date(Date.UTC(a.getUTCFullYear(), a.getUTCMonth() + by, 1)));
}

function chipColor(ctx, r) {
  const { def, client, view } = ctx;
  const key = view.options.color;
  const f = key && def.entities[view.entity].fields[key];
  if (!f || r[key] == null) return {};
  if (f.type === "enum") return { cls: ` tone-${f.options.indexOf(r[key]) % 6}` };
  const color = f.type === "ref" ? client.state[f.to]?.[r[key]]?.color : f.type === "color" ? r[key] : null;
  return color ? { style: `--chip:${color}` } : {};
}

function timeOf(ctx, r) {
  const { def, client, view } = ctx;
  const e = def.entities[view.entity];
  if (view.options.time) return String(display(def, client.state, view.entity, view.options.time, r[view.options.time]) || "");
  if (e.fields[view.date].type === "datetime" && r[view.date]) return display(def, client.state, view.entity, view.date, r[view.date]).split(" ").slice(-2).join(" ");
  return "";
}

function chip(ctx, id, r, { continued = false } = {}) {
  const { cls = "", style } = chipColor(ctx, r);
  const time = continued ? "" : timeOf(ctx, r);
  return h("div", { class: `cal-chip${cls}${id === ctx.record ? " selected" : ""}${continued ? " continued" : ""}`, style, "data-id": id },
    time ? h("span", { class: "cal-time" }, time) : null, recordLink(ctx, ctx.view.entity, id));
}

export function render(ctx) {
  const { def, client, view } = ctx;
  const entity = view.entity;
  const e = def.entities[entity];
  const state = (shown[view.id] ||= { anchor: today(def), mode: "month" });
  const { start, days, month, heading } = period(state.anchor, state.mode);
  const end = iso(addDays(start, days - 1));
  const first = iso(start);
  const rows = visibleRecords(ctx).filter(([, r]) => r[view.date]);
  const from = (r) => String(r[view.date]).slice(0, 10);
  const until = (r) => (view.options.end && r[view.options.end] && r[view.options.end] >= from(r) ? String(r[view.options.end]).slice(0, 10) : from(r));
  rows.sort(([, a], [, b]) => String(a[view.date]).localeCompare(String(b[view.date])));
  const byDay = {};
  for (const [id, r] of rows) {
    for (let d = day(from(r)); iso(d) <= until(r); d = addDays(d, 1)) {
      const key = iso(d);
      if (key < first || key > end) continue;
      (byDay[key] ||= []).push([id, r, key !== from(r) && key !== first && d.getUTCDay() !== 0]);
    }
  }
  const rerender = (patch) => { Object.assign(state, patch); ctx.rerender(); };
  const nav = h("div", { class: "cal-nav" },
    h("button", { type: "button", class: "btn", onclick: () => rerender({ anchor: today(def) }) }, "Today"),
    h("button", { type: "button", class: "icon-btn", "aria-label": state.mode === "week" ? "Previous week" : "Previous month",
      onclick: () => rerender({ anchor: move(state.anchor, state.mode, -1) }) }, h("span", { class: "chev" }, "‹")),
    h("button", { type: "button", class: "icon-btn", "aria-label": state.mode === "week" ? "Next week" : "Next month",
      onclick: () => rerender({ anchor: move(state.anchor, state.mode, 1) }) }, h("span", { class: "chev" }, "›")),
    h("h2", { class: "cal-heading", "aria-live": "polite" }, heading),
    view.options.week ? h("div", { class: "seg", role: "group", "aria-label": "Calendar range" },
      ["month", "week"].map((m) => h("button", { type: "button", class: `seg-btn${state.mode === m ? " on" : ""}`, "aria-pressed": String(state.mode === m),
        onclick: () => rerender({ mode: m }) }, optionLabel(m)))) : null);
  const todayKey = today(def);
  const cells = [];
  for (let i = 0; i < days; i += 1) {
    const d = addDays(start, i);
    const key = iso(d);
    const outside = month !== undefined && d.getUTCMonth() !== month;
    const items = byDay[key] || [];
    cells.push(h("div", { class: `cal-cell${outside ? " outside" : ""}${key === todayKey ? " today" : ""}`, role: "gridcell",
      "aria-label": `${MONTHS[d.getUTCMonth()]} ${d.getUTCDate()}`, "data-date": key },
      h("div", { class: "cal-date" }, h("span", { class: "cal-num" }, String(d.getUTCDate()))),
      h("div", { class: "cal-items" }, items.map(([id, r, continued]) => chip(ctx, id, r, { continued })))));
  }
  const grid = h("div", { class: `cal-grid ${state.mode}`, role: "grid", "aria-label": heading,
    style: `grid-template-rows: 28px repeat(${days / 7}, minmax(${state.mode === "week" ? 420 : 112}px, 1fr))` },
    DAYS.map((name) => h("div", { class: "cal-dow", role: "columnheader" }, name)), cells);
  const legendKey = view.options.legend && view.options.color;
  const legend = legendKey && def.entities[entity].fields[legendKey]?.type === "enum"
    ? h("div", { class: "cal-legend" }, def.entities[entity].fields[legendKey].options.map((o, i) =>
      h("span", { class: `cal-key tone-${i % 6}` }, h("i", {}), optionLabel(o)))) : null;
  const elsewhere = ctx.search ? rows.filter(([, r]) => until(r) < first || from(r) > end) : [];
  const agenda = elsewhere.length ? h("section", { class: "cal-agenda", "aria-label": "Other matches" },
    h("h3", {}, `Other ${(e.plural || `${e.label}s`).toLowerCase()} matching “${ctx.search}”`),
    elsewhere.map(([id, r]) => h("div", { class: "cal-agenda-row" },
      h("span", { class: "muted" }, display(def, client.state, entity, view.date, r[view.date])), recordLink(ctx, entity, id)))) : null;
  return h("div", { class: `view view-calendar${ctx.record ? " with-detail" : ""}` },
    h("div", { class: "view-main" }, toolbar(ctx, entity, [h("span", { class: "cal-icon" }, icon("calendar", 16))]), nav, legend, grid, agenda),
    ctx.record ? detailPane(ctx, entity, ctx.record, { related: view.related }) : null);
}
