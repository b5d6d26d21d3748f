// Chat domain helpers over the raw state (pure functions plus the mutations the UI performs).
// Every mutation here changes only the fields the SCHEMA.md "observable state changes" table lists.
import { nextId } from "../../_hub/static/hub.js";
import { nowIso } from "../../_hub/static/dom.js";

// Glyphs chosen from ranges common desktop fonts cover, so reactions render without emoji fonts.
export const REACTIONS = {
  check: "\u2714", heart: "\u2764", smile: "\u263A", star: "\u2605",
  zap: "\u26A1", coffee: "\u2615", point_up: "\u261D", v: "\u270C",
};

export const me = (s) => s.current_user;
export const user = (s, id) => s.users[id] || { name: id, handle: id, color: "#868e96" };

export function conversation(s, id) {
  if (s.channels[id]) return { id, kind: "channel", ...s.channels[id] };
  if (s.dms[id]) return { id, kind: "dm", ...s.dms[id] };
  return null;
}

/** Display name: "#general" for channels, the other person's name for DMs. */
export function conversationTitle(s, id) {
  const c = conversation(s, id);
  if (!c) return id;
  if (c.kind === "channel") return c.name;
  const other = c.members.find((m) => m !== me(s)) || me(s);
  return user(s, other).name;
}

export function dmPartner(s, id) {
  const members = s.dms[id]?.members || [];
  return members.find((m) => m !== me(s)) || me(s);
}

/** Top-level messages of a conversation (thread replies excluded), oldest first. */
export function topLevel(s, convId) {
  return Object.entries(s.messages)
    .filter(([, m]) => m.conversation === convId && !m.thread)
    .sort(([, a], [, b]) => a.ts.localeCompare(b.ts));
}

export function replies(s, parentId) {
  return Object.entries(s.messages)
    .filter(([, m]) => m.thread === parentId)
    .sort(([, a], [, b]) => a.ts.localeCompare(b.ts));
}

export function unreadCount(s, convId) {
  const seen = s.last_read?.[convId] || "";
  return topLevel(s, convId).filter(([, m]) => m.ts > seen && m.user !== me(s)).length;
}

export function joinedChannels(s) {
  return Object.entries(s.channels)
    .filter(([, c]) => !c.archived && c.members.includes(me(s)))
    .sort(([, a], [, b]) => a.name.localeCompare(b.name));
}

// ---- mutations (called inside client.commit) ----

export function postMessage(s, convId, text, { thread = null, files = [] } = {}) {
  const id = nextId(s.messages, "m");
  s.messages[id] = {
    conversation: convId, user: me(s), text, ts: nowIso(), thread,
    reactions: {}, edited: false, pinned: false, files,
  };
  return id;
}

export function toggleReaction(s, messageId, name) {
  const msg = s.messages[messageId];
  const users = msg.reactions[name] || [];
  if (users.includes(me(s))) {
    const left = users.filter((u) => u !== me(s));
    if (left.length) msg.reactions[name] = left;
    else delete msg.reactions[name];
  } else {
    msg.reactions[name] = [...users, me(s)];
  }
}

export function deleteMessage(s, messageId) {
  for (const [id, m] of Object.entries(s.messages)) if (m.thread === messageId) delete s.messages[id];
  delete s.messages[messageId];
}

export function createChannel(s, { name, purpose, isPrivate }) {
  const id = `c_${name.replace(/-/g, "_")}`;
  s.channels[id] = {
    name, topic: "", purpose, private: isPrivate, archived: false, starred: false,
    members: [me(s)], created_by: me(s), created: nowIso(),
  };
  return id;
}

export function openDm(s, userId) {
  const existing = Object.entries(s.dms).find(([, d]) =>
    d.members.length === 2 && d.members.includes(userId) && d.members.includes(me(s)));
  if (existing) return existing[0];
  const id = `d_${user(s, userId).handle}`;
  s.dms[id] = { members: [me(s), userId] };
  return id;
}

export const CHANNEL_NAME = /^[a-z0-9][a-z0-9_-]{0,79}$/;
