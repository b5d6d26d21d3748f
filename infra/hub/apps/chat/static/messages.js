// Message rows, reaction chips and the reaction picker (shared by the channel view and the thread).
import { avatar, closeMenu, formatBytes, formatDate, formatTime, h, icon, openMenu, openPopover } from "../../_hub/static/dom.js";
import { REACTIONS, me, replies, toggleReaction, user } from "./model.js";

const GROUP_WINDOW_MS = 5 * 60 * 1000; // consecutive messages within 5 min render as one group

/**
 * Render `entries` ([id, message] pairs, oldest first) with day dividers and author grouping.
 * `ctx` = {client, inThread, onOpenThread(id), onEdit(id), onDelete(id)}.
 */
export function renderMessageList(entries, ctx) {
  const out = [];
  let lastDay = "";
  let previous = null;
  for (const [id, msg] of entries) {
    const day = msg.ts.slice(0, 10);
    if (day !== lastDay && !ctx.inThread) {
      out.push(h("div", { class: "day-divider" }, h("span", {}, formatDate(msg.ts, true))));
      previous = null;
    }
    lastDay = day;
    const grouped = previous && previous.user === msg.user && Date.parse(msg.ts) - Date.parse(previous.ts) < GROUP_WINDOW_MS;
    out.push(messageRow(id, msg, ctx, grouped));
    previous = msg;
  }
  return out;
}

export function messageRow(id, msg, ctx, grouped = false) {
  const s = ctx.client.state;
  const author = user(s, msg.user);
  const threadReplies = ctx.inThread ? [] : replies(s, id);
  return h("div", { class: grouped ? "msg grouped" : "msg", "data-id": id, id: `msg-${id}` },
    h("div", { class: "msg-gutter" }, grouped ? h("time", { class: "msg-hover-time" }, formatTime(msg.ts)) : avatar(author, 36)),
    h("div", { class: "msg-main" },
      grouped ? null : h("div", { class: "msg-head" },
        h("span", { class: "msg-author" }, author.name),
        h("time", { datetime: msg.ts, title: `${formatDate(msg.ts, true)} ${formatTime(msg.ts)}` }, formatTime(msg.ts)),
        msg.pinned ? h("span", { class: "pinned-flag" }, icon("pin", 12), "Pinned") : null),
      h("div", { class: "msg-text" }, renderText(s, msg.text), msg.edited ? h("span", { class: "edited" }, " (edited)") : null),
      msg.files?.length ? h("div", { class: "msg-files" }, msg.files.map(fileCard)) : null,
      reactionBar(id, msg, ctx),
      threadReplies.length ? h("button", { class: "thread-link", type: "button", onclick: () => ctx.onOpenThread(id) },
        h("span", { class: "thread-avatars" }, [...new Set(threadReplies.map(([, r]) => r.user))].slice(0, 3).map((u) => avatar(user(s, u), 20))),
        `${threadReplies.length} ${threadReplies.length === 1 ? "reply" : "replies"}`,
        h("span", { class: "muted" }, `Last reply ${formatTime(threadReplies.at(-1)[1].ts)}`)) : null),
    actionBar(id, msg, ctx));
}

function renderText(s, text) {
  // Plain text with @handle mentions highlighted; no HTML from state ever reaches the DOM.
  const parts = [];
  const handles = new Set(Object.values(s.users).map((u) => u.handle));
  for (const piece of text.split(/(@[a-z0-9_.-]+)/i)) {
    if (piece.startsWith("@") && handles.has(piece.slice(1))) parts.push(h("span", { class: "mention" }, piece));
    else if (piece) parts.push(piece);
  }
  return parts;
}

function fileCard(file) {
  const isImage = (file.content_type || "").startsWith("image/");
  return h("a", { class: "file-card", href: file.url, target: "_blank", rel: "noopener" },
    isImage ? h("img", { src: file.url, alt: file.name }) : icon("file", 22),
    h("span", { class: "file-meta" }, h("b", {}, file.name), h("span", { class: "muted" }, formatBytes(file.size || 0))));
}

function reactionBar(id, msg, ctx) {
  const s = ctx.client.state;
  const names = Object.keys(msg.reactions || {}).filter((n) => msg.reactions[n].length);
  if (!names.length) return null;
  return h("div", { class: "reactions" },
    names.map((name) => {
      const users = msg.reactions[name];
      const mine = users.includes(me(s));
      return h("button", {
        type: "button", class: mine ? "reaction mine" : "reaction", "data-reaction": name,
        title: `${users.map((u) => user(s, u).name).join(", ")} reacted with :${name}:`,
        onclick: () => ctx.client.commit((st) => toggleReaction(st, id, name)),
      }, h("span", { class: "emoji" }, REACTIONS[name] || `:${name}:`), h("span", { class: "count" }, users.length));
    }),
    h("button", { type: "button", class: "reaction add", "aria-label": "Add reaction",
      onclick: (e) => pickReaction(e.currentTarget, id, ctx) }, icon("smile", 14), icon("plus", 10)));
}

function actionBar(id, msg, ctx) {
  const s = ctx.client.state;
  const own = msg.user === me(s);
  return h("div", { class: "msg-actions", role: "toolbar", "aria-label": "Message actions" },
    h("button", { type: "button", class: "icon-btn", title: "Add reaction", "aria-label": "Add reaction",
      onclick: (e) => pickReaction(e.currentTarget, id, ctx) }, icon("smile")),
    ctx.inThread || msg.thread ? null : h("button", { type: "button", class: "icon-btn", title: "Reply in thread",
      "aria-label": "Reply in thread", onclick: () => ctx.onOpenThread(id) }, icon("thread")),
    h("button", { type: "button", class: "icon-btn", title: "More actions", "aria-label": "More actions",
      onclick: (e) => openMenu(e.currentTarget, [
        { label: msg.pinned ? "Unpin from channel" : "Pin to channel", icon: "pin",
          onClick: () => ctx.client.commit((st) => { st.messages[id].pinned = !st.messages[id].pinned; }) },
        { label: "Copy text", icon: "file", onClick: () => navigator.clipboard?.writeText(msg.text) },
        ...(own ? ["-", { label: "Edit message", icon: "edit", onClick: () => ctx.onEdit(id) },
          { label: "Delete message", icon: "trash", danger: true, onClick: () => ctx.onDelete(id) }] : []),
      ], { align: "right" }) }, icon("more")));
}

function pickReaction(anchor, id, ctx) {
  const buttons = Object.entries(REACTIONS).map(([name, glyph]) => h("button", {
    type: "button", class: "picker-item", title: `:${name}:`, "aria-label": `React with ${name}`, "data-reaction": name,
    onclick: () => {
      closeMenu();
      const mine = ctx.client.state.messages[id].reactions?.[name]?.includes(me(ctx.client.state));
      if (!mine) ctx.client.commit((st) => toggleReaction(st, id, name));
    },
  }, h("span", { class: "emoji" }, glyph)));
  openPopover(anchor, buttons, { align: "right", cls: "reaction-picker" });
}
