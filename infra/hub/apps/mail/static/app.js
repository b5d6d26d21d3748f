// Mail client shell: sidebar (folders, labels), message list with bulk actions, reading pane.
// Routing: #/<box>[/<message id>] where box is a folder id, "starred", or "label:<id>".
// Opening an unread message marks it read (a real, rewardable change, as in any mail client).
import { StateClient, showFatal } from "../../_hub/static/hub.js";
import { formatDate, formatTime, h, icon, openDialog, field, openMenu, toast, nowIso } from "../../_hub/static/dom.js";
import { composeFields, openCompose } from "./compose.js";
import {
  FOLDER_ICONS, createFolder, createLabel, deleteMessages, displayName, folders, messagesFor, moveTo, setRead, toggleLabel, unread,
} from "./model.js";
import { renderReader } from "./reader.js";

const client = new StateClient();
const $ = (sel) => document.querySelector(sel);
let route = { boxToken: "inbox", box: { kind: "folder", id: "inbox" }, message: null };
let query = "";
const checked = new Set();

function parseRoute() {
  const [, token = "inbox", message] = location.hash.split("/");
  const s = client.state;
  let box = { kind: "folder", id: "inbox" };
  if (token === "starred") box = { kind: "starred", id: "starred" };
  else if (token.startsWith("label:") && s.labels[token.slice(6)]) box = { kind: "label", id: token.slice(6) };
  else if (s.folders[token]) box = { kind: "folder", id: token };
  const changed = token !== route.boxToken;
  route = { boxToken: box.kind === "folder" ? box.id : token, box, message: message && s.messages[message] ? message : null };
  if (changed) checked.clear();
}

const open = (id) => { location.hash = `#/${route.boxToken}/${id}`; };
const leave = () => { location.hash = `#/${route.boxToken}`; };

function markOpenedRead() {
  const m = route.message && client.state.messages[route.message];
  if (m && !m.read) client.commit((s) => setRead(s, [route.message], true));
}

function renderTopbar() {
  const s = client.state;
  $(".topbar").replaceChildren(
    h("div", { class: "brand" }, h("span", { class: "brand-mark" }, icon("mail", 18)), "Mail"),
    h("div", { class: "search-wrap" }, icon("search", 16),
      h("input", { type: "search", class: "mail-search", placeholder: "Search mail", value: query, "aria-label": "Search mail",
        oninput: (e) => { query = e.target.value; renderList(); } })),
    h("div", { class: "account" }, h("span", { class: "sync-dot", title: "Sync status" }),
      h("button", { type: "button", class: "icon-btn", title: "Check for new mail", "aria-label": "Refresh", onclick: () => {
        client.commit((st) => { st.account.last_sync = nowIso(); });
        toast("No new messages");
      } }, icon("refresh")),
      h("span", { class: "account-name" }, s.account.email)));
}

function renderSidebar() {
  const s = client.state;
  const item = (token, label, iconEl, count = 0) => h("a", {
    href: `#/${token}`, class: `side-item${route.boxToken === token ? " active" : ""}${count ? " has-unread" : ""}`, "data-box": token,
  }, iconEl, h("span", { class: "side-label" }, label), count ? h("span", { class: "side-count" }, count) : null);
  const system = folders(s).filter(([, f]) => f.system);
  const custom = folders(s).filter(([, f]) => !f.system);
  $(".sidebar").replaceChildren(
    h("button", { type: "button", class: "compose-btn", onclick: () => openCompose(client, composeFields(s, "new")) }, icon("edit", 18), "Compose"),
    h("nav", {},
      item("inbox", "Inbox", icon("inbox"), unread(s, "inbox")),
      item("starred", "Starred", icon("star")),
      ...system.filter(([id]) => id !== "inbox").map(([id, f]) => item(id, f.name, icon(FOLDER_ICONS[id] || "folder"),
        id === "drafts" ? Object.values(s.messages).filter((m) => m.folder === "drafts").length : id === "spam" ? unread(s, "spam") : 0)),
      h("div", { class: "side-head" }, "Folders", h("button", { type: "button", class: "icon-btn", "aria-label": "New folder", title: "New folder",
        onclick: () => nameDialog("New folder", "Folder name", (name) => client.commit((st) => createFolder(st, name))) }, icon("plus", 14))),
      ...custom.map(([id, f]) => item(id, f.name, icon("folder"), unread(s, id))),
      h("div", { class: "side-head" }, "Labels", h("button", { type: "button", class: "icon-btn", "aria-label": "New label", title: "New label",
        onclick: () => nameDialog("New label", "Label name", (name) => client.commit((st) => createLabel(st, name))) }, icon("plus", 14))),
      ...Object.entries(s.labels).map(([id, l]) => item(`label:${id}`, l.name, h("span", { class: "label-dot", style: `background:${l.color}` })))));
}

function nameDialog(title, label, create) {
  openDialog({
    title, submitLabel: "Create", name: "name",
    body: field(label, h("input", { name: "name", autocomplete: "off" })),
    onSubmit: (data) => {
      const name = (data.name || "").trim();
      if (!name) return "Please enter a name.";
      create(name);
      return undefined;
    },
  });
}

function bulkBar(ids) {
  const s = client.state;
  const selected = ids.filter((id) => checked.has(id));
  const all = ids.length > 0 && selected.length === ids.length;
  const run = (fn, message) => () => {
    if (!selected.length) return;
    client.commit((st) => fn(st, selected));
    toast(message(selected.length));
    checked.clear();
    if (route.message && selected.includes(route.message)) leave();
    else renderList();
  };
  const inArchive = route.box.kind === "folder" && ["archive", "trash", "spam"].includes(route.box.id);
  const act = (label, iconName, onclick) => h("button", { type: "button", class: "icon-btn", title: label, "aria-label": label,
    disabled: !selected.length, onclick }, icon(iconName, 18));
  return h("div", { class: "list-toolbar", role: "toolbar", "aria-label": "Bulk actions" },
    h("input", { type: "checkbox", class: "select-all", checked: all, "aria-label": "Select all", onchange: (e) => {
      checked.clear();
      if (e.target.checked) ids.forEach((id) => checked.add(id));
      renderList();
    } }),
    inArchive ? act("Move to Inbox", "inbox", run((st, sel) => moveTo(st, sel, "inbox"), (n) => `${n} moved to Inbox`))
      : act("Archive", "archive", run((st, sel) => moveTo(st, sel, "archive"), (n) => `${n} conversation${n > 1 ? "s" : ""} archived`)),
    act("Delete", "trash", run((st, sel) => deleteMessages(st, sel), (n) => `${n} moved to Trash`)),
    act("Mark as read", "mailOpen", run((st, sel) => setRead(st, sel, true), (n) => `${n} marked as read`)),
    act("Mark as unread", "mail", run((st, sel) => setRead(st, sel, false), (n) => `${n} marked as unread`)),
    h("button", { type: "button", class: "icon-btn", title: "Label", "aria-label": "Label", disabled: !selected.length,
      onclick: (e) => openMenu(e.currentTarget, Object.entries(s.labels).map(([id, l]) => ({ label: l.name, icon: "tag",
        onClick: run((st, sel) => toggleLabel(st, sel, id), (n) => `Label "${l.name}" updated on ${n}`) }))) }, icon("tag", 18)),
    h("span", { class: "spacer" }), h("span", { class: "muted count" }, `${ids.length} message${ids.length === 1 ? "" : "s"}`));
}

function renderList() {
  const s = client.state;
  const rows = messagesFor(s, route.box, query);
  const title = route.box.kind === "label" ? s.labels[route.box.id].name : route.box.kind === "starred" ? "Starred" : s.folders[route.box.id].name;
  $(".list-pane").replaceChildren(
    h("div", { class: "list-title" }, h("h2", {}, title)),
    bulkBar(rows.map(([id]) => id)),
    h("div", { class: "message-list", role: "list" },
      rows.length ? rows.map(([id, m]) => {
        const who = ["sent", "drafts"].includes(m.folder) ? `To: ${m.to.map(displayName).join(", ") || "(no recipients)"}` : displayName(m.from);
        return h("div", { class: `row${m.read ? "" : " unread"}${route.message === id ? " selected" : ""}`, role: "listitem", "data-id": id,
          onclick: (e) => { if (!e.target.closest("input,button")) open(id); } },
        h("input", { type: "checkbox", checked: checked.has(id), "aria-label": `Select ${m.subject}`,
          onchange: (e) => { if (e.target.checked) checked.add(id); else checked.delete(id); renderList(); } }),
        h("button", { type: "button", class: `star-btn${m.starred ? " on" : ""}`, "aria-label": m.starred ? "Unstar" : "Star",
          onclick: () => client.commit((st) => { st.messages[id].starred = !m.starred; }) }, icon("star", 16)),
        h("div", { class: "row-main" },
          h("div", { class: "row-top" }, h("span", { class: "row-from" }, m.folder === "drafts" ? h("span", { class: "draft-tag" }, "Draft ") : null, who),
            h("span", { class: "row-date" }, m.date.slice(0, 10) === rows[0][1].date.slice(0, 10) ? formatTime(m.date) : formatDate(m.date))),
          h("div", { class: "row-subject" }, m.subject || "(no subject)", m.attachments.length ? icon("clip", 13) : null),
          h("div", { class: "row-snippet" }, m.labels.map((l) => h("span", { class: "mini-label", style: `--c:${s.labels[l]?.color}` }, s.labels[l]?.name || l)),
            m.body.replace(/\s+/g, " ").slice(0, 110))));
      }) : h("div", { class: "empty" }, query ? "No messages matched your search." : "Nothing in here.")));
}

function renderReaderPane() {
  $(".reader").replaceChildren(renderReader({ client, selected: route.message, onLeave: leave, onOpen: open }));
}

function render() {
  parseRoute();
  renderTopbar();
  renderSidebar();
  renderList();
  renderReaderPane();
  const n = unread(client.state, "inbox");
  document.title = `${n ? `Inbox (${n})` : "Inbox"} - ${client.state.account.email} - Mail`;
}

async function main() {
  try {
    await client.load();
  } catch (err) {
    showFatal(document.getElementById("app"), err);
    return;
  }
  client.subscribe(() => { renderSidebar(); renderList(); renderReaderPane(); });
  window.addEventListener("hashchange", () => { render(); markOpenedRead(); });
  render();
  markOpenedRead();
  document.documentElement.dataset.ready = "true";
}

main();
