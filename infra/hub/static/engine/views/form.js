// Forms & e-signature: a list of envelopes on the left; the open one in the middle as a paper form
// (its form fields as labelled inputs, then the signature step: a "Type your full name to sign" entry
// and the sign action's button) with its status; the rest of its detail pane on the right.
//
// options:
//   fields: the entity of an envelope's form fields; via: its ref to the envelope
//   label / value: the form field's text fields holding the question and the answer
//   required: the form field's bool field marking a required answer
//   sign_action: the action (with a prompt) that signs; its prompt labels the signature entry
//   signature / signed_at: the envelope's fields shown in the completed signature block
//   done: the status values that count as completed (default: [signed])
import { formatDate, formatTime, h, icon, toast } from "../../../_hub/static/dom.js";
import { actionShown, applyAction, badge, detailPane, display, recordLink, titleOf, toolbar, visibleRecords } from "../core.js";

export const stylesheet = true;

function formFields(ctx, id) {
  const { def, client, view } = ctx;
  const o = view.options;
  const s = client.state;
  if (!o.fields || !def.entities[o.fields] || !o.via) return null;
  const fe = def.entities[o.fields];
  const labelKey = o.label || fe.title;
  const valueKey = o.value || "value";
  const rows = Object.entries(s[o.fields] || {}).filter(([, r]) => r[o.via] === id).sort(([a], [b]) => a.localeCompare(b));
  const locked = (o.done || ["signed"]).includes(s[view.entity][id][view.group || "status"]);
  return h("section", { class: "form-fields", "aria-label": "Form fields" },
    h("h3", {}, "Fields to fill", h("span", { class: "count" }, String(rows.length))),
    rows.length ? rows.map(([fid, r]) => {
      const question = String(r[labelKey] ?? fid);
      const required = o.required && r[o.required];
      return h("label", { class: "form-row" },
        h("span", { class: "form-q" }, question, required ? h("span", { class: "req", "aria-hidden": "true" }, " *") : null),
        h("input", { type: "text", "aria-label": question, value: r[valueKey] ?? "", disabled: locked, placeholder: locked ? "" : "Type your answer",
          onkeydown: (e) => { if (e.key === "Enter") e.target.blur(); },
          onchange: (e) => client.commit((st) => { st[o.fields][fid][valueKey] = e.target.value; }) }));
    }) : h("p", { class: "muted" }, "This document has no fields to fill."));
}

/** A stamp kept as text (an ISO time) read the way the app shows dates. */
function when(def, s, entity, key, value) {
  return /^\d{4}-\d\d-\d\dT\d\d:\d\d/.test(String(value)) ? `${formatDate(value, true)} ${formatTime(value)}` : display(def, s, entity, key, value);
}

function signatureStep(ctx, id) {
  const { def, client, view } = ctx;
  const o = view.options;
  const s = client.state;
  const entity = view.entity;
  const record = s[entity][id];
  const action = def.actions.find((a) => a.id === o.sign_action && a.entity === entity);
  if (o.signature && record[o.signature]) {
    return h("section", { class: "sign-step signed", "aria-label": "Signature" },
      h("div", { class: "sig-line" }, h("span", { class: "sig-script" }, String(record[o.signature]))),
      h("div", { class: "sig-caption" }, icon("check", 14), `Signed by ${record[o.signature]}`,
        o.signed_at && record[o.signed_at] ? ` on ${when(def, s, entity, o.signed_at, record[o.signed_at])}` : ""));
  }
  if (!action || !actionShown(action, record)) {
    return h("section", { class: "sign-step idle", "aria-label": "Signature" },
      h("div", { class: "sig-line" }), h("div", { class: "sig-caption muted" }, "Signature (available once the envelope is sent)"));
  }
  const prompt = action.prompt || "Type your full name to sign";
  const box = h("input", { type: "text", class: "sig-input", "aria-label": prompt, placeholder: "Full name" });
  const go = () => {
    const name = box.value.trim();
    if (!name) { toast(`${prompt} first.`, "error"); return; }
    applyAction(ctx, action, entity, id, name);
  };
  box.addEventListener("keydown", (e) => { if (e.key === "Enter") go(); });
  return h("section", { class: "sign-step", "aria-label": "Signature" },
    h("label", { class: "sig-label" }, h("span", {}, prompt), box),
    h("button", { type: "button", class: "btn btn-primary sig-btn", onclick: go }, icon("edit", 14), action.label));
}

function paper(ctx, id) {
  const { def, client, view } = ctx;
  const s = client.state;
  const entity = view.entity;
  const e = def.entities[entity];
  const record = s[entity][id];
  const statusKey = view.group || "status";
  const meta = view.columns.filter((k) => k !== e.title && k !== statusKey && e.fields[k] && record[k] !== undefined && record[k] !== null && record[k] !== "");
  const done = (view.options.done || ["signed"]).includes(record[statusKey]);
  return h("article", { class: `paper${done ? " done" : ""}`, "aria-label": `Document: ${titleOf(def, s, entity, id)}` },
    h("header", { class: "paper-head" },
      h("div", {}, h("div", { class: "muted id" }, id), h("h2", {}, titleOf(def, s, entity, id))),
      e.fields[statusKey] ? h("span", { class: "paper-status" }, badge(def, s, entity, statusKey, record[statusKey])) : null),
    done ? h("div", { class: "paper-banner", role: "status" }, icon("check", 16), "Completed: every signature is collected.") : null,
    meta.length ? h("dl", { class: "paper-meta" }, meta.flatMap((k) => [h("dt", {}, e.fields[k].label || k.replaceAll("_", " ")),
      h("dd", {}, badge(def, s, entity, k, record[k]))])) : null,
    formFields(ctx, id),
    signatureStep(ctx, id));
}

export function render(ctx) {
  const { def, client, view } = ctx;
  const s = client.state;
  const entity = view.entity;
  const e = def.entities[entity];
  const rows = visibleRecords(ctx);
  const statusKey = view.group || "status";
  const open = ctx.record && s[entity]?.[ctx.record] ? ctx.record : null;
  const list = h("aside", { class: "env-list", "aria-label": view.label }, toolbar(ctx),
    rows.length ? h("ul", {}, rows.map(([id, r]) => h("li", { class: `env-row${id === open ? " selected" : ""}`, "data-id": id },
      h("span", { class: "env-icon" }, icon(e.icon || "file", 18)),
      h("div", { class: "env-main" }, recordLink(ctx, entity, id),
        h("div", { class: "env-sub" }, view.columns.filter((k) => k !== e.title && k !== statusKey && r[k] !== undefined && r[k] !== null && r[k] !== "")
          .slice(0, 2).map((k) => h("span", {}, badge(def, s, entity, k, r[k]))))),
      e.fields[statusKey] ? badge(def, s, entity, statusKey, r[statusKey]) : null)))
      : h("p", { class: "empty muted" }, `No ${(e.plural || `${e.label}s`).toLowerCase()} match.`));
  if (!open) {
    return h("div", { class: "view view-form" }, list,
      h("div", { class: "paper-empty" }, icon("edit", 40), h("h2", {}, `Open a ${e.label.toLowerCase()} to fill and sign it`)));
  }
  const pane = detailPane(ctx, entity, open, { related: view.related });
  // The signature step is the sign action's one place; the form fields are edited on the paper.
  pane.querySelector(`[data-action="${view.options.sign_action}"]`)?.remove();
  pane.classList.add("form-side");
  return h("div", { class: "view view-form with-detail" }, list, h("div", { class: "paper-wrap" }, paper(ctx, open)), pane);
}
