// The reading pane: the selected message with its thread, and the actions on it.
import { avatar, formatBytes, formatDate, formatTime, h, icon, openMenu, toast } from "../../_hub/static/dom.js";
import { composeFields, openCompose } from "./compose.js";
import { deleteMessages, displayName, folders, moveTo, setRead, threadOf, toggleLabel } from "./model.js";

const COLORS = ["#1c7ed6", "#2f9e44", "#e8590c", "#9c36b5", "#c2255c", "#0c8599"];
const personColor = (email) => COLORS[[...email].reduce((n, ch) => n + ch.charCodeAt(0), 0) % COLORS.length];

/** `ctx` = {client, selected, onLeave(), onOpen(id)}; onLeave runs when the message leaves the current view. */
export function renderReader(ctx) {
  const { client, selected } = ctx;
  const s = client.state;
  const m = selected && s.messages[selected];
  if (!m) {
    return h("div", { class: "reader-empty" }, icon("mail", 48), h("p", {}, "Select a message to read it"));
  }
  if (m.folder === "drafts") {
    return h("div", { class: "reader-empty" }, icon("edit", 40), h("p", {}, "This message is a draft."),
      h("button", { type: "button", class: "btn btn-primary", onclick: () => openCompose(client, composeFields(s, "draft", selected)) }, "Continue editing"));
  }
  const thread = threadOf(s, selected);
  const labelChips = m.labels.map((l) => h("span", { class: "label-chip", style: `--c:${s.labels[l]?.color || "#868e96"}` },
    s.labels[l]?.name || l, h("button", { type: "button", class: "chip-x", "aria-label": `Remove label ${s.labels[l]?.name || l}`,
      onclick: () => client.commit((st) => toggleLabel(st, [selected], l)) }, icon("x", 10))));
  const act = (label, iconName, onclick, extra = {}) =>
    h("button", { type: "button", class: "icon-btn", title: label, "aria-label": label, onclick, ...extra }, icon(iconName, 18));
  const toolbar = h("div", { class: "reader-toolbar", role: "toolbar", "aria-label": "Message actions" },
    m.folder === "archive" || m.folder === "trash"
      ? act("Move to Inbox", "inbox", () => { client.commit((st) => moveTo(st, [selected], "inbox")); toast("Conversation moved to Inbox"); ctx.onLeave(); })
      : act("Archive", "archive", () => { client.commit((st) => moveTo(st, [selected], "archive")); toast("Conversation archived"); ctx.onLeave(); }),
    m.folder === "spam"
      ? act("Not spam", "inbox", () => { client.commit((st) => moveTo(st, [selected], "inbox")); toast("Moved to Inbox"); ctx.onLeave(); })
      : act("Report spam", "flag", () => { client.commit((st) => moveTo(st, [selected], "spam")); toast("Reported as spam"); ctx.onLeave(); }),
    act(m.folder === "trash" ? "Delete forever" : "Delete", "trash", () => {
      client.commit((st) => deleteMessages(st, [selected]));
      toast(m.folder === "trash" ? "Message deleted forever" : "Conversation moved to Trash");
      ctx.onLeave();
    }),
    h("span", { class: "sep" }),
    act("Mark as unread", "mailOpen", () => { client.commit((st) => setRead(st, [selected], false)); ctx.onLeave(); }),
    act("Move to", "folder", (e) => openMenu(e.currentTarget, folders(s).filter(([id]) => id !== m.folder && id !== "drafts")
      .map(([id, f]) => ({ label: f.name, icon: "folder", onClick: () => { client.commit((st) => moveTo(st, [selected], id)); toast(`Moved to ${f.name}`); ctx.onLeave(); } })))),
    act("Labels", "tag", (e) => openMenu(e.currentTarget, Object.entries(s.labels).map(([id, l]) => ({
      label: `${m.labels.includes(id) ? "✓ " : ""}${l.name}`, icon: "tag", onClick: () => client.commit((st) => toggleLabel(st, [selected], id)),
    })))),
    h("span", { class: "spacer" }),
    act(m.starred ? "Unstar" : "Star", "star", () => client.commit((st) => { st.messages[selected].starred = !m.starred; }),
      { class: `icon-btn${m.starred ? " starred" : ""}` }));
  return h("article", { class: "reader-inner", "data-message": selected },
    toolbar,
    h("div", { class: "reader-scroll" },
      h("h1", { class: "reader-subject" }, m.subject || "(no subject)", labelChips),
      thread.map(([id, msg]) => id === selected || thread.length === 1 ? fullMessage(client, id, msg) : collapsed(ctx, id, msg))));
}

function collapsed(ctx, id, msg) {
  return h("button", { type: "button", class: "thread-collapsed", onclick: () => ctx.onOpen(id) },
    avatar({ name: displayName(msg.from), color: personColor(msg.from.email) }, 28),
    h("b", {}, displayName(msg.from)), h("span", { class: "muted snippet" }, msg.body.split("\n")[0]),
    h("span", { class: "muted" }, formatDate(msg.date)));
}

function fullMessage(client, id, msg) {
  const s = client.state;
  const reply = (mode) => openCompose(client, composeFields(s, mode, id));
  return h("section", { class: "message-full", "data-id": id },
    h("header", { class: "message-head" },
      avatar({ name: displayName(msg.from), color: personColor(msg.from.email) }, 40),
      h("div", { class: "message-meta" },
        h("div", {}, h("b", {}, displayName(msg.from)), h("span", { class: "muted" }, ` <${msg.from.email}>`)),
        h("div", { class: "muted" }, `to ${msg.to.map((p) => (p.email === s.account.email ? "me" : displayName(p))).join(", ")}`,
          msg.cc.length ? `, cc ${msg.cc.map(displayName).join(", ")}` : "")),
      h("span", { class: "muted date" }, `${formatDate(msg.date, true)}, ${formatTime(msg.date)}`)),
    h("div", { class: "message-body" }, msg.body),
    msg.attachments.length ? h("div", { class: "attachments" }, msg.attachments.map((a) => h(a.url ? "a" : "div", {
      class: "attachment", href: a.url || undefined, target: a.url ? "_blank" : undefined, title: `${a.name} (${a.content_type})`,
    }, icon("file", 22), h("div", {}, h("b", {}, a.name), h("div", { class: "muted" }, formatBytes(a.size || 0)))))) : null,
    h("div", { class: "reply-bar" },
      h("button", { type: "button", class: "btn", onclick: () => reply("reply") }, icon("reply", 14), "Reply"),
      h("button", { type: "button", class: "btn", onclick: () => reply("replyAll") }, icon("replyAll", 14), "Reply all"),
      h("button", { type: "button", class: "btn", onclick: () => reply("forward") }, icon("forward", 14), "Forward")));
}
