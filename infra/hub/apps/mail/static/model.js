// Mail domain helpers and mutations. A message lives in exactly one folder; labels are tags.
import { nextId } from "../../_hub/static/hub.js";
import { nowIso } from "../../_hub/static/dom.js";

export const FOLDER_ICONS = { inbox: "inbox", sent: "send", drafts: "file", archive: "archive", spam: "flag", trash: "trash" };
export const LABEL_COLORS = ["#1c7ed6", "#2f9e44", "#e8590c", "#9c36b5", "#c2255c", "#0c8599", "#5f3dc4", "#868e96"];

export function folders(s) {
  return Object.entries(s.folders).sort(([, a], [, b]) => a.order - b.order || a.name.localeCompare(b.name));
}

/** Messages shown for a mailbox view: {kind: folder|label|starred|search, id}; newest first. */
export function messagesFor(s, box, query = "") {
  const q = query.trim().toLowerCase();
  return Object.entries(s.messages)
    .filter(([, m]) => {
      if (box.kind === "folder") return m.folder === box.id;
      if (box.kind === "label") return m.labels.includes(box.id) && !["trash", "spam"].includes(m.folder);
      if (box.kind === "starred") return m.starred && m.folder !== "trash";
      return m.folder !== "trash";
    })
    .filter(([, m]) => !q || `${m.subject} ${m.body} ${m.from.name} ${m.from.email} ${m.to.map((p) => p.email).join(" ")}`.toLowerCase().includes(q))
    .sort(([, a], [, b]) => b.date.localeCompare(a.date));
}

export function unread(s, folderId) {
  return Object.values(s.messages).filter((m) => m.folder === folderId && !m.read).length;
}

export function threadOf(s, id) {
  const thread = s.messages[id].thread;
  return Object.entries(s.messages).filter(([, m]) => m.thread === thread && m.folder !== "trash")
    .sort(([, a], [, b]) => a.date.localeCompare(b.date));
}

export const displayName = (p) => p.name || p.email;
export const formatAddress = (p) => (p.name ? `${p.name} <${p.email}>` : p.email);

/** "Sam <sam@x.test>, bob@y.test" -> [{name, email}]; returns {people, bad} with unparsable parts. */
export function parseAddresses(text) {
  const people = [];
  const bad = [];
  for (const part of (text || "").split(/[,;]/).map((x) => x.trim()).filter(Boolean)) {
    const match = part.match(/^(.*?)\s*<([^<>\s]+@[^<>\s]+)>$/) || part.match(/^()([^<>\s]+@[^<>\s]+\.[^<>\s]+)$/);
    if (match) people.push({ name: match[1].replace(/^"|"$/g, "").trim(), email: match[2] });
    else bad.push(part);
  }
  return { people, bad };
}

// ---- mutations (inside client.commit) ----

export function moveTo(s, ids, folder) {
  for (const id of ids) s.messages[id].folder = folder;
}

/** Delete: to Trash, or for good when already in Trash (replies then lose their parent link). */
export function deleteMessages(s, ids) {
  for (const id of ids) {
    if (s.messages[id].folder !== "trash") {
      s.messages[id].folder = "trash";
      continue;
    }
    for (const m of Object.values(s.messages)) if (m.in_reply_to === id) m.in_reply_to = null;
    delete s.messages[id];
  }
}

export function setRead(s, ids, read) {
  for (const id of ids) if (s.messages[id].read !== read) s.messages[id].read = read;
}

export function toggleLabel(s, ids, label) {
  const all = ids.every((id) => s.messages[id].labels.includes(label));
  for (const id of ids) {
    const labels = s.messages[id].labels.filter((l) => l !== label);
    if (!all) labels.push(label);
    s.messages[id].labels = labels;
  }
}

/** Send (or save as a draft) what the compose window holds; `draftId` reuses an open draft. */
export function saveOutgoing(s, { to, cc, subject, body, attachments, replyTo, draftId }, folder) {
  const id = draftId || nextId(s.messages, "e", 3);
  const parent = replyTo ? s.messages[replyTo] : null;
  s.messages[id] = {
    folder, thread: parent ? parent.thread : `t_${id}`, from: { name: s.account.name, email: s.account.email },
    to, cc, subject, body, date: nowIso(), read: true, starred: draftId ? s.messages[draftId].starred : false,
    labels: draftId ? s.messages[draftId].labels : parent ? [...parent.labels] : [], attachments, in_reply_to: replyTo || null,
  };
  return id;
}

export function createLabel(s, name) {
  const base = name.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "") || "label";
  let id = base;
  for (let n = 2; s.labels[id]; n += 1) id = `${base}-${n}`;
  s.labels[id] = { name, color: LABEL_COLORS[Object.keys(s.labels).length % LABEL_COLORS.length] };
  return id;
}

export function createFolder(s, name) {
  const base = name.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "") || "folder";
  let id = base;
  for (let n = 2; s.folders[id]; n += 1) id = `${base}-${n}`;
  s.folders[id] = { name, system: false, order: 100 };
  return id;
}
