// An inbox: a message list on the left (sender, subject, date, a line of the body) and a reader pane
// on the right with the open message's body, then its detail pane (actions, labelled fields, related
// records). Each row's subject is the record's link.
//
// options (all optional; defaults in brackets):
//   sender:  the field shown as the row's sender, a ref (to people: with an avatar) or text [first ref]
//   subject: the row's link text [the entity's title]
//   body:    the longtext read in the reader pane and previewed in the row [first longtext]
//   date:    a date/datetime shown on the right of the row [first datetime, else date]
//   folder:  an enum field whose options become folder tabs (All, then each option) above the list
//   unread:  a bool field; rows where it is true are bold (opening a message never changes it)
import { avatar, formatDate, h } from "../../../_hub/static/dom.js";
import { detailPane, display, label, optionLabel, recordLink, titleOf, toolbar, visibleRecords } from "../core.js";

export const stylesheet = true;

function fieldsOf(def, view) {
  const e = def.entities[view.entity];
  const entries = Object.entries(e.fields);
  const first = (...types) => entries.find(([, f]) => types.includes(f.type))?.[0];
  const o = view.options;
  return {
    sender: o.sender || first("ref") || null,
    subject: o.subject || e.title,
    body: o.body || first("longtext") || null,
    date: o.date || first("datetime") || first("date") || null,
    folder: o.folder || null,
    unread: o.unread || null,
  };
}

function when(def, state, view, key, value) {
  if (!key || !value) return "";
  const type = def.entities[view.entity].fields[key].type;
  const stamp = type === "date" ? `${value}T00:00:00Z` : value;
  if (type === "datetime" && String(value).slice(0, 10) === def.seed.now.slice(0, 10)) {
    return display(def, state, view.entity, key, value).split(" ").slice(-2).join(" ");
  }
  return formatDate(stamp, String(value).slice(0, 4) !== def.seed.now.slice(0, 4));
}

function senderOf(def, state, view, key, r) {
  if (!key) return { name: "", color: null };
  const f = def.entities[view.entity].fields[key];
  const name = display(def, state, view.entity, key, r[key]);
  return { name, color: f.type === "ref" ? state[f.to]?.[r[key]]?.color : null };
}

export function render(ctx) {
  const { def, client, view } = ctx;
  const s = client.state;
  const entity = view.entity;
  const e = def.entities[entity];
  const k = fieldsOf(def, view);
  let rows = visibleRecords(ctx);
  if (!view.sort && k.date) rows.sort(([, a], [, b]) => String(b[k.date] ?? "").localeCompare(String(a[k.date] ?? "")));
  let folders = null;
  if (k.folder) {
    const f = e.fields[k.folder];
    const current = ctx.filters[k.folder] || "all";
    const all = visibleRecords({ ...ctx, filters: { ...ctx.filters, [k.folder]: "all" } });
    const count = (o) => all.filter(([, r]) => o === "all" || r[k.folder] === o).length;
    folders = h("div", { class: "inbox-folders", role: "group", "aria-label": label(def, entity, k.folder) },
      ["all", ...f.options].map((o) => h("button", { type: "button", class: `folder-tab${current === o ? " on" : ""}`, "aria-pressed": String(current === o),
        onclick: () => ctx.setFilter(k.folder, o) }, o === "all" ? "All" : optionLabel(o), h("span", { class: "count" }, String(count(o))))));
  }
  const list = h("div", { class: "inbox-list", role: "list", "aria-label": view.label },
    rows.length ? rows.map(([id, r]) => {
      const who = senderOf(def, s, view, k.sender, r);
      const preview = k.body ? String(r[k.body] ?? "").replace(/\s+/g, " ").slice(0, 110) : "";
      const tag = k.folder && r[k.folder] ? h("span", { class: `pill pill-${e.fields[k.folder].options.indexOf(r[k.folder]) % 6}` }, optionLabel(r[k.folder])) : null;
      return h("div", { role: "listitem", class: `inbox-row${id === ctx.record ? " selected" : ""}${k.unread && r[k.unread] ? " unread" : ""}`, "data-id": id },
        avatar({ name: who.name || "?", color: who.color }, 34),
        h("div", { class: "inbox-text" },
          h("div", { class: "inbox-line" }, h("span", { class: "inbox-sender" }, who.name), h("span", { class: "inbox-date" }, when(def, s, view, k.date, r[k.date]))),
          h("div", { class: "inbox-subject" }, recordLink(ctx, entity, id, String(r[k.subject] ?? titleOf(def, s, entity, id)))),
          h("div", { class: "inbox-preview" }, tag, h("span", {}, preview))));
    }) : h("p", { class: "empty muted" }, `No ${(e.plural || `${e.label}s`).toLowerCase()} here.`));
  let reader;
  const record = ctx.record && s[entity]?.[ctx.record];
  if (record) {
    const who = senderOf(def, s, view, k.sender, record);
    reader = h("article", { class: "reader", "aria-label": "Reading pane" },
      h("header", { class: "reader-head" },
        h("h2", { class: "reader-subject" }, String(record[k.subject] ?? "")),
        h("div", { class: "reader-from" }, avatar({ name: who.name || "?", color: who.color }, 40),
          h("div", {}, h("div", { class: "reader-sender" }, who.name),
            h("div", { class: "muted" }, k.date ? display(def, s, entity, k.date, record[k.date]) : "")))),
      k.body ? h("div", { class: "reader-body" }, String(record[k.body] ?? "")) : null,
      detailPane(ctx, entity, ctx.record, { related: view.related }));
  } else {
    reader = h("div", { class: "reader reader-empty" }, h("p", { class: "muted" }, `Select a ${e.label.toLowerCase()} to read it.`));
  }
  return h("div", { class: "view view-inbox" },
    h("div", { class: "inbox-side" }, h("div", { class: "inbox-top" }, toolbar(ctx)), folders, list),
    reader);
}
