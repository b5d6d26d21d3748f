// What every engine view shares: the definition's vocabulary (fields, titles, tokens), the labelled
// control of each field type, record creation, actions and the record detail pane.
//
// Accessibility is the teachers' map (skills/kit/teach_web.py): a record in any list is a link named
// by its title; the detail pane is a region named "<Label>: <title>" whose controls are labelled by
// their field's label; actions are buttons named by their label; "New <label>" opens a dialog of the
// same name.
import { nextId } from "../../_hub/static/hub.js";
import { avatar, field, formatDate, formatMoney, formatTime, h, icon, openDialog, toast } from "../../_hub/static/dom.js";

export const label = (def, entity, key) => def.entities[entity].fields[key].label || cap(key.replaceAll("_", " "));
export const cap = (text) => text.charAt(0).toUpperCase() + text.slice(1);
export const plural = (e) => e.plural || `${e.label}s`;
export const optionLabel = (value) => cap(String(value).replaceAll("_", " "));

/** The name a record goes by: its title field; a ref shows the target's title. */
export function titleOf(def, state, entity, id) {
  const record = state[entity]?.[id];
  if (!record) return id ?? "";
  const value = record[def.entities[entity].title];
  return value === undefined || value === null || value === "" ? id : String(value);
}

export function today(def) { return def.seed.now.slice(0, 10); }

/** A token of an action or composer, resolved; anything else is a literal. */
export function resolve(def, state, value, { record, input } = {}) {
  switch (value) {
    case "$me": return state.current_user;
    case "$record": return record;
    case "$now": return def.seed.now;
    case "$today": return today(def);
    case "$input": return input;
    default: return value;
  }
}

/** Text shown for a field's value in lists and cards. */
export function display(def, state, entity, key, value) {
  const f = def.entities[entity].fields[key];
  if (value === undefined || value === null || value === "") return "";
  switch (f.type) {
    case "ref": return titleOf(def, state, f.to, value);
    case "refs": return value.map((id) => titleOf(def, state, f.to, id)).join(", ");
    case "enum": return optionLabel(value);
    case "money": return formatMoney(value, def.currency);
    case "date": return formatDate(`${value}T00:00:00Z`, true);
    case "datetime": return `${formatDate(value, true)} ${formatTime(value)}`;
    case "bool": return value ? "Yes" : "No";
    case "tags": return value.join(", ");
    default: return String(value);
  }
}

/** A cell or card line for a field: enums as coloured pills, people refs with an avatar. */
export function badge(def, state, entity, key, value) {
  const f = def.entities[entity].fields[key];
  const text = display(def, state, entity, key, value);
  if (f.type === "enum" && text) {
    const index = f.options.indexOf(value);
    return h("span", { class: `pill pill-${index % 6}` }, text);
  }
  if (f.type === "ref" && f.to === def.people && value) {
    return h("span", { class: "person" }, avatar({ name: text, color: state[f.to]?.[value]?.color }, 20), text);
  }
  return text;
}

/** The editing control of one field, labelled by the field's label (its accessible name). */
export function control(def, state, entity, key, value, { name = key, onChange } = {}) {
  const f = def.entities[entity].fields[key];
  const aria = label(def, entity, key);
  const commit = (v) => onChange && onChange(v);
  const onEnter = (e) => { if (e.key === "Enter" && e.target.tagName === "INPUT") e.target.blur(); };
  switch (f.type) {
    case "enum":
      return h("select", { name, "aria-label": aria, onchange: (e) => commit(e.target.value) },
        f.required || value !== null && value !== undefined ? null : h("option", { value: "" }, "—"),
        f.options.map((o) => h("option", { value: o, selected: o === value }, optionLabel(o))));
    case "ref": {
      const targets = Object.keys(state[f.to] || {});
      return h("select", { name, "aria-label": aria, onchange: (e) => commit(e.target.value || null) },
        f.required ? null : h("option", { value: "", selected: !value }, f.optional ? "Unassigned" : "—"),
        targets.map((id) => h("option", { value: id, selected: id === value }, titleOf(def, state, f.to, id))));
    }
    case "refs": {
      const chosen = new Set(value || []);
      return h("fieldset", { class: "checks", "aria-label": aria },
        Object.keys(state[f.to] || {}).map((id) => h("label", { class: "check" },
          h("input", { type: "checkbox", name, value: id, checked: chosen.has(id), onchange: (e) => {
            if (e.target.checked) chosen.add(id); else chosen.delete(id);
            commit([...chosen]);
          } }), titleOf(def, state, f.to, id))));
    }
    case "bool":
      return h("input", { type: "checkbox", name, "aria-label": aria, checked: !!value, onchange: (e) => commit(e.target.checked) });
    case "longtext":
      return h("textarea", { name, "aria-label": aria, rows: 3, value: value ?? "", onchange: (e) => commit(e.target.value) });
    case "number": case "money":
      return h("input", { type: "number", name, "aria-label": aria, step: f.type === "money" ? "0.01" : "any",
        value: value ?? "", onkeydown: onEnter,
        onchange: (e) => commit(e.target.value === "" ? null : Math.round(Number(e.target.value) * 100) / 100) });
    case "date":
      // Chromium fires change per typed segment; saving then re-renders the pane and steals focus
      // mid-date, so a date is saved when the field is left (or on Enter), never on change.
      return h("input", { type: "date", name, "aria-label": aria, value: value ?? "",
        onblur: (e) => {
          // Moving between the date's own segments blurs it too; only a focus that really left saves.
          const el = e.target;
          setTimeout(() => {
            if (el.isConnected && document.activeElement !== el && (el.value || null) !== (value ?? null)) commit(el.value || null);
          }, 0);
        },
        onkeydown: (e) => { if (e.key === "Enter") { e.preventDefault(); e.target.blur(); } } });
    case "datetime":
      return h("input", { type: "datetime-local", name, "aria-label": aria, value: value ? value.slice(0, 16) : "",
        onchange: (e) => commit(e.target.value ? `${e.target.value.slice(0, 16)}:00Z` : null) });
    case "tags":
      return h("input", { type: "text", name, "aria-label": aria, value: (value || []).join(", "), placeholder: "comma, separated",
        onkeydown: onEnter, onchange: (e) => commit(e.target.value.split(",").map((t) => t.trim()).filter(Boolean)) });
    case "color":
      return h("input", { type: "color", name, "aria-label": aria, value: value || "#3b5bdb", onchange: (e) => commit(e.target.value) });
    default:
      return h("input", { type: f.type === "email" ? "email" : f.type === "url" ? "url" : "text", name, "aria-label": aria,
        value: value ?? "", onkeydown: onEnter, onchange: (e) => commit(e.target.value) });
  }
}

/** A new record's fields: what the user gave, then defaults (readonly stamps get the app's clock and user). */
function newRecord(def, state, entity, given) {
  const record = {};
  for (const [key, f] of Object.entries(def.entities[entity].fields)) {
    let value = given[key];
    if (value === undefined || value === "") value = f.default ?? null;
    if (value === null && f.readonly) {
      if (f.type === "datetime") value = def.seed.now;
      else if (f.type === "date") value = today(def);
      else if (f.type === "ref" && f.to === def.people) value = state.current_user;
    }
    if (value === null && (f.type === "tags" || f.type === "refs")) value = [];
    if (value !== null) record[key] = value;
  }
  return record;
}

export function addRecord(def, state, entity, given) {
  const e = def.entities[entity];
  const id = nextId(state[entity] || {}, e.id_prefix || entity[0]);
  state[entity] = state[entity] || {};
  state[entity][id] = newRecord(def, state, entity, given);
  return id;
}

/** The "New <label>" dialog: every editable field, required ones checked before anything is saved. */
export function createDialog(ctx, entity, preset = {}, onCreated) {
  const { def, client } = ctx;
  const e = def.entities[entity];
  const values = { ...preset };
  const fields = Object.entries(e.fields).filter(([key, f]) => !f.readonly && !(key in preset));
  const body = h("div", { class: "form-grid" }, fields.map(([key]) =>
    field(label(def, entity, key), control(def, client.state, entity, key, values[key] ?? null, { onChange: (v) => { values[key] = v; } }))));
  openDialog({
    title: `New ${e.label.toLowerCase()}`, name: `new-${entity}`, submitLabel: `Create ${e.label.toLowerCase()}`, body,
    onSubmit: (data) => {
      for (const [key, f] of fields) if (values[key] === undefined && data[key] !== undefined && f.type !== "refs") values[key] = data[key];
      const missing = fields.filter(([key, f]) => f.required && (values[key] === undefined || values[key] === null || values[key] === "")).map(([key]) => label(def, entity, key));
      if (missing.length) return `Fill in ${missing.join(", ")}.`;
      for (const [key, f] of fields) {
        if ((f.type === "number" || f.type === "money") && typeof values[key] === "string") values[key] = values[key] === "" ? null : Number(values[key]);
        if (f.type === "tags" && typeof values[key] === "string") values[key] = values[key].split(",").map((t) => t.trim()).filter(Boolean);
      }
      const id = client.commit((s) => addRecord(def, s, entity, values));
      toast(`${e.label} created`, "success");
      if (onCreated) onCreated(id);
      return undefined;
    },
  });
}

/** Whether `action` applies to `record` (each `when` field holds one of its values). */
export function actionShown(action, record) {
  return Object.entries(action.when || {}).every(([key, values]) => values.includes(record[key] ?? null));
}

/** Apply `action`'s effects to record `id` ($input: what the user typed into its prompt). */
export function applyAction(ctx, action, entity, id, input) {
  const { def, client } = ctx;
  client.commit((s) => {
    const record = s[entity][id];
    if (action.create) {
      const fields = Object.fromEntries(Object.entries(action.create.fields || {}).map(([k, v]) => [k, resolve(def, s, v, { record: id, input })]));
      addRecord(def, s, action.create.entity, fields);
    }
    for (const [key, value] of Object.entries(action.set || {})) record[key] = resolve(def, s, value, { record: id, input });
    for (const [key, by] of Object.entries(action.inc || {})) record[key] = Math.round(((record[key] || 0) + by) * 100) / 100;
    if (action.delete) delete s[entity][id];
  });
  toast(`${action.label}: done`, "success");
  if (action.delete) ctx.navigate(ctx.view.id);
}

/** Run an action on a record, asking its prompt or confirmation first. */
export function runAction(ctx, action, entity, id) {
  if (action.prompt) {
    openDialog({ title: action.label, name: `action-${action.id}`, submitLabel: action.label,
      body: field(action.prompt, h("textarea", { name: "input", rows: 3, "aria-label": action.prompt })),
      onSubmit: (data) => {
        if (!data.input.trim()) return `${action.prompt} is empty.`;
        applyAction(ctx, action, entity, id, data.input.trim());
        return undefined;
      } });
  } else if (action.confirm) {
    openDialog({ title: action.label, name: `action-${action.id}`, submitLabel: action.label, danger: !!action.delete,
      body: h("p", {}, action.confirm), onSubmit: () => { applyAction(ctx, action, entity, id); return undefined; } });
  } else {
    applyAction(ctx, action, entity, id);
  }
}

export function actionButtons(ctx, entity, id) {
  const record = ctx.client.state[entity][id];
  return ctx.def.actions.filter((a) => a.entity === entity && actionShown(a, record)).map((a) =>
    h("button", { type: "button", class: a.delete ? "btn btn-danger-ghost" : "btn", "data-action": a.id,
      onclick: () => runAction(ctx, a, entity, id) }, a.label));
}

/** The records of a related entity pointing at `id`, oldest first, with their composer. */
function relatedBlock(ctx, rel, id) {
  const { def, client } = ctx;
  const s = client.state;
  const other = def.entities[rel.entity];
  const text = rel.compose || other.title;
  const rows = Object.entries(s[rel.entity] || {}).filter(([, r]) => r[rel.via] === id);
  const stamp = Object.entries(other.fields).find(([, f]) => f.type === "datetime")?.[0];
  if (stamp) rows.sort(([, a], [, b]) => String(a[stamp]).localeCompare(String(b[stamp])));
  const by = Object.entries(other.fields).find(([, f]) => f.type === "ref" && f.to === def.people)?.[0];
  const heading = rel.label || plural(other);
  const box = rel.compose ? h("textarea", { rows: 2, "aria-label": `Add ${other.label.toLowerCase()}`, placeholder: `Add ${other.label.toLowerCase()}…` }) : null;
  // The composer sits above the list, so it stays on screen however long the conversation grows.
  return h("section", { class: "related", "aria-label": heading },
    h("h3", {}, heading, h("span", { class: "count" }, String(rows.length))),
    box ? h("div", { class: "composer" }, box, h("button", { type: "button", class: "btn btn-primary", onclick: () => {
      const value = box.value.trim();
      if (!value) return;
      const given = { [rel.via]: id, [text]: value };
      for (const [k, v] of Object.entries(rel.set || {})) given[k] = resolve(def, s, v, { record: id });
      client.commit((st) => addRecord(def, st, rel.entity, given));
    } }, `Add ${other.label.toLowerCase()}`)) : null,
    rows.map(([rid, r]) => h("article", { class: "related-item", "data-id": rid },
      h("div", { class: "related-meta" }, by && r[by] ? badge(def, s, rel.entity, by, r[by]) : null,
        stamp && r[stamp] ? h("span", { class: "muted" }, display(def, s, rel.entity, stamp, r[stamp])) : null),
      // A title that is a ref (an order line's product) reads as the target's title, not its id.
      h("p", {}, other.fields[text]?.type === "ref" ? display(def, s, rel.entity, text, r[text]) : String(r[text] ?? "")))));
}

/** The detail pane of a record: title, actions, a labelled control per field, related records. */
export function detailPane(ctx, entity, id, { related = [] } = {}) {
  const { def, client } = ctx;
  const s = client.state;
  const e = def.entities[entity];
  const record = s[entity]?.[id];
  if (!record) return h("section", { class: "detail empty" }, h("p", { class: "muted" }, `No ${e.label.toLowerCase()} selected.`));
  const title = titleOf(def, s, entity, id);
  const set = (key) => (value) => client.commit((st) => { st[entity][id][key] = value; });
  return h("section", { class: "detail", role: "region", "aria-label": `${e.label}: ${title}` },
    h("header", { class: "detail-head" },
      h("div", {}, h("div", { class: "muted id" }, id), h("h2", {}, title)),
      h("button", { type: "button", class: "icon-btn", "aria-label": "Close details", onclick: () => ctx.navigate(ctx.view.id) }, icon("x"))),
    h("div", { class: "detail-actions" }, actionButtons(ctx, entity, id),
      e.deletable ? h("button", { type: "button", class: "btn btn-danger-ghost", onclick: () => openDialog({
        title: `Delete ${e.label.toLowerCase()}`, submitLabel: "Delete", danger: true, body: h("p", {}, `Delete “${title}”? This cannot be undone.`),
        onSubmit: () => { client.commit((st) => { delete st[entity][id]; }); ctx.navigate(ctx.view.id); return undefined; } }) }, `Delete ${e.label.toLowerCase()}`) : null),
    h("div", { class: "detail-fields" }, Object.entries(e.fields).map(([key, f]) => {
      const wide = ["longtext", "refs"].includes(f.type) || key === e.title;
      const el = f.readonly
        ? h("div", { class: "field readonly" }, h("span", { class: "field-label" }, label(def, entity, key)), h("span", {}, display(def, s, entity, key, record[key])))
        : field(label(def, entity, key), control(def, s, entity, key, record[key] ?? null, { onChange: set(key) }));
      if (wide) el.classList.add("wide");
      return el;
    })),
    related.map((rel) => relatedBlock(ctx, rel, id)));
}

/** A record's title as the link that opens it (in any list, card or cell). */
export function recordLink(ctx, entity, id, text) {
  return h("a", { href: `#/${ctx.view.id}/${encodeURIComponent(id)}`, class: "record-link" }, text ?? titleOf(ctx.def, ctx.client.state, entity, id));
}

/** The records of a view, after the search box and the filters, in the view's sort order. */
export function visibleRecords(ctx, entity = ctx.view.entity) {
  const { def, client, view, filters, search } = ctx;
  const s = client.state;
  const e = def.entities[entity];
  let rows = Object.entries(s[entity] || {});
  for (const [key, value] of Object.entries(filters || {})) if (value !== "all") rows = rows.filter(([, r]) => String(r[key] ?? "") === value);
  if (search) {
    const q = search.toLowerCase();
    rows = rows.filter(([id, r]) => id.toLowerCase().includes(q) || Object.entries(e.fields).some(([k, f]) =>
      ["text", "longtext", "email", "tags"].includes(f.type) && String(r[k] ?? "").toLowerCase().includes(q)));
  }
  if (view.sort) {
    const key = view.sort.replace(/^-/, "");
    const dir = view.sort.startsWith("-") ? -1 : 1;
    rows.sort(([, a], [, b]) => dir * compare(a[key], b[key]));
  }
  return rows;
}

function compare(a, b) {
  if (typeof a === "number" && typeof b === "number") return a - b;
  return String(a ?? "").localeCompare(String(b ?? ""));
}

/** The toolbar above a list: filter selects (enum/ref fields of the view) and the "New" button. */
export function toolbar(ctx, entity = ctx.view.entity, extra = []) {
  const { def, client, view, filters } = ctx;
  const e = def.entities[entity];
  return h("div", { class: "toolbar" },
    h("h1", {}, view.label),
    h("div", { class: "filters" }, view.filters.map((key) => {
      const f = e.fields[key];
      const options = f.type === "enum" ? f.options.map((o) => [o, optionLabel(o)])
        : Object.keys(client.state[f.to] || {}).map((id) => [id, titleOf(def, client.state, f.to, id)]);
      return h("select", { "aria-label": `Filter by ${label(def, entity, key).toLowerCase()}`, onchange: (ev) => ctx.setFilter(key, ev.target.value) },
        h("option", { value: "all" }, `${label(def, entity, key)}: all`),
        options.map(([v, text]) => h("option", { value: v, selected: filters[key] === v }, text)));
    })),
    extra,
    e.creatable ? h("button", { type: "button", class: "btn btn-primary", onclick: () => createDialog(ctx, entity, {}, (id) => ctx.navigate(view.id, id)) },
      icon("plus", 14), `New ${e.label.toLowerCase()}`) : null);
}
