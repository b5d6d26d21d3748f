// The compose window (new message, reply, reply all, forward, or an opened draft), docked bottom-right
// like webmail. Nothing is written until Send or Save draft: a discarded message leaves no trace.
import { formatBytes, formatDate, formatTime, h, icon, toast } from "../../_hub/static/dom.js";
import { formatAddress, parseAddresses, saveOutgoing } from "./model.js";

const prefixed = (prefix, subject) => (subject.toLowerCase().startsWith(prefix.toLowerCase()) ? subject : `${prefix} ${subject}`);

/** Initial fields for `mode` (new | reply | replyAll | forward | draft) relative to message `id`. */
export function composeFields(s, mode, id) {
  if (mode === "new" || !id) return { to: "", cc: "", subject: "", body: s.account.signature ? `\n\n--\n${s.account.signature}` : "", attachments: [] };
  const m = s.messages[id];
  if (mode === "draft") {
    return { to: m.to.map(formatAddress).join(", "), cc: m.cc.map(formatAddress).join(", "), subject: m.subject, body: m.body,
      attachments: [...m.attachments], replyTo: m.in_reply_to, draftId: id };
  }
  const quote = `\n\nOn ${formatDate(m.date, true)} at ${formatTime(m.date)}, ${formatAddress(m.from)} wrote:\n` +
    m.body.split("\n").map((line) => `> ${line}`).join("\n");
  if (mode === "forward") {
    return { to: "", cc: "", subject: prefixed("Fwd:", m.subject), attachments: [...m.attachments],
      body: `\n\n---------- Forwarded message ----------\nFrom: ${formatAddress(m.from)}\nDate: ${formatDate(m.date, true)}\n` +
        `Subject: ${m.subject}\nTo: ${m.to.map(formatAddress).join(", ")}\n\n${m.body}` };
  }
  const mine = s.account.email;
  const sentByMe = m.from.email === mine;
  const to = sentByMe ? m.to : [m.from];
  const cc = mode === "replyAll" ? [...(sentByMe ? [] : m.to), ...m.cc].filter((p) => p.email !== mine && !to.some((t) => t.email === p.email)) : [];
  return { to: to.map(formatAddress).join(", "), cc: cc.map(formatAddress).join(", "), subject: prefixed("Re:", m.subject),
    body: quote, attachments: [], replyTo: id };
}

export function openCompose(client, fields, { onSent } = {}) {
  const host = document.querySelector(".compose-host");
  const attachments = [...(fields.attachments || [])];
  const chips = h("div", { class: "attach-list" });
  const paintChips = () => chips.replaceChildren(...attachments.map((a, i) => h("span", { class: "attach-chip" }, icon("clip", 12),
    `${a.name} (${formatBytes(a.size || 0)})`,
    h("button", { type: "button", class: "chip-x", "aria-label": `Remove ${a.name}`, onclick: () => { attachments.splice(i, 1); paintChips(); } }, icon("x", 12)))));
  paintChips();
  const to = h("input", { name: "to", value: fields.to, placeholder: "Recipients", "aria-label": "To", autocomplete: "off", list: "mail-contacts" });
  const cc = h("input", { name: "cc", value: fields.cc, placeholder: "Cc", "aria-label": "Cc", autocomplete: "off" });
  const subject = h("input", { name: "subject", value: fields.subject, placeholder: "Subject", "aria-label": "Subject" });
  const body = h("textarea", { name: "body", value: fields.body, "aria-label": "Message body" });
  const fileInput = h("input", { type: "file", multiple: true, hidden: true, onchange: async () => {
    try {
      for (const f of await client.upload(fileInput.files)) {
        attachments.push({ name: f.original_name, size: f.size, content_type: f.content_type, url: f.url });
      }
      paintChips();
    } catch (err) { toast(`Upload failed: ${err.message}`, "error"); }
    fileInput.value = "";
  } });

  function collect() {
    const parsedTo = parseAddresses(to.value);
    const parsedCc = parseAddresses(cc.value);
    const bad = [...parsedTo.bad, ...parsedCc.bad];
    return { bad, message: { to: parsedTo.people, cc: parsedCc.people, subject: subject.value.trim(), body: body.value,
      attachments, replyTo: fields.replyTo || null, draftId: fields.draftId || null } };
  }
  function send() {
    const { bad, message } = collect();
    if (bad.length) return toast(`The address "${bad[0]}" is not recognised. Please make sure that all addresses are properly formed.`, "error");
    if (!message.to.length) return toast("Please specify at least one recipient.", "error");
    const id = client.commit((s) => saveOutgoing(s, message, "sent"));
    close();
    toast("Message sent", "success");
    onSent?.(id);
    return id;
  }
  function saveDraft() {
    const { message } = collect();
    client.commit((s) => saveOutgoing(s, message, "drafts"));
    close();
    toast("Draft saved");
  }
  function close() {
    win.remove();
  }
  const win = h("div", { class: "compose-window", role: "dialog", "aria-label": "Compose message" },
    h("header", { class: "compose-head" }, h("span", {}, fields.subject || "New message"),
      h("button", { type: "button", class: "icon-btn", "aria-label": "Discard draft", title: "Discard", onclick: close }, icon("x"))),
    h("div", { class: "compose-fields" },
      h("label", { class: "compose-row" }, h("span", {}, "To"), to),
      h("label", { class: "compose-row" }, h("span", {}, "Cc"), cc),
      h("label", { class: "compose-row" }, subject)),
    body, chips,
    h("footer", { class: "compose-foot" },
      h("button", { type: "button", class: "btn btn-primary send-btn", onclick: send }, "Send", icon("send", 14)),
      h("button", { type: "button", class: "icon-btn", title: "Attach files", "aria-label": "Attach files", onclick: () => fileInput.click() }, icon("clip")),
      fileInput,
      h("span", { class: "spacer" }),
      h("button", { type: "button", class: "btn btn-ghost", onclick: saveDraft }, "Save draft"),
      h("button", { type: "button", class: "icon-btn", title: "Discard", "aria-label": "Discard", onclick: close }, icon("trash"))),
    h("datalist", { id: "mail-contacts" }, (client.state.contacts || []).map((p) => h("option", { value: formatAddress(p) }))));
  host.replaceChildren(win);
  (fields.to ? body : to).focus();
  if (fields.to) body.setSelectionRange(0, 0);
  return win;
}
