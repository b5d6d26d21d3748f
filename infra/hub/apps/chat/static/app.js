// Team chat UI. Navigation lives in the URL hash (#<conversation> or #<conversation>/<thread>);
// read markers go to state.last_read (volatile); every other change is a real state change.
import { StateClient, showFatal } from "../../_hub/static/hub.js";
import { avatar, formatTime, h, icon, openMenu, toast } from "../../_hub/static/dom.js";
import {
  browseChannelsDialog, channelDetailsDialog, createChannelDialog, deleteMessageDialog, editMessageDialog,
  newDmDialog, statusDialog,
} from "./dialogs.js";
import { renderMessageList, messageRow } from "./messages.js";
import {
  conversation, conversationTitle, dmPartner, joinedChannels, me, postMessage, replies, topLevel, unreadCount, user,
} from "./model.js";

const client = new StateClient();
const $ = (sel) => document.querySelector(sel);
let route = { conv: null, thread: null };
let search = "";
let renderedConv = null;

function go(conv, thread = null) {
  location.hash = conv ? (thread ? `${conv}/${thread}` : conv) : "";
}

function readRoute() {
  const [conv, thread] = location.hash.slice(1).split("/");
  const s = client.state;
  route = {
    conv: conversation(s, conv) ? conv : (joinedChannels(s)[0]?.[0] || Object.keys(s.channels)[0]),
    thread: thread && s.messages[thread] ? thread : null,
  };
}

function markRead() {
  // Opening a conversation moves its read marker; volatile, so it never shows in /go's diff.
  const latest = topLevel(client.state, route.conv).at(-1)?.[1].ts;
  if (latest && client.state.last_read?.[route.conv] !== latest) {
    client.commit((s) => { s.last_read = { ...(s.last_read || {}), [route.conv]: latest }; });
  }
}

// ---- sidebar ----

function sidebarItem(id, label, iconEl, { unread = 0, extra = null } = {}) {
  return h("a", { href: `#${id}`, class: `nav-item${id === route.conv ? " active" : ""}${unread ? " unread" : ""}`,
    "data-conv": id }, iconEl, h("span", { class: "nav-label" }, label), extra,
  unread ? h("span", { class: "nav-badge" }, unread) : null);
}

function renderSidebar() {
  const s = client.state;
  const self = user(s, me(s));
  const starred = joinedChannels(s).filter(([, c]) => c.starred);
  const channelItem = ([id, c]) => sidebarItem(id, c.name, icon(c.private ? "lock" : "hash", 15), { unread: unreadCount(s, id) });
  const dmItems = Object.keys(s.dms).map((id) => {
    const partner = user(s, dmPartner(s, id));
    return sidebarItem(id, partner.name, h("span", { class: `presence ${partner.presence}` }), { unread: unreadCount(s, id) });
  });
  $(".sidebar").replaceChildren(
    h("div", { class: "ws-header" },
      h("button", { type: "button", class: "ws-name", onclick: (e) => openMenu(e.currentTarget, [
        { label: "Browse channels", icon: "hash", onClick: () => browseChannelsDialog(client, go) },
        { label: "Create a channel", icon: "plus", onClick: () => createChannelDialog(client, go) },
        "-", { label: "Set a status", icon: "smile", onClick: () => statusDialog(client) },
      ]) }, s.workspace.name, icon("chevronDown", 14)),
      h("button", { type: "button", class: "icon-btn compose", title: "New message", "aria-label": "New message",
        onclick: () => newDmDialog(client, go) }, icon("edit"))),
    h("nav", { class: "nav" },
      starred.length ? section("Starred", starred.map(channelItem)) : null,
      section("Channels", joinedChannels(s).filter(([, c]) => !c.starred).map(channelItem),
        h("button", { type: "button", class: "icon-btn add", title: "Add channel", "aria-label": "Add channel",
          onclick: (e) => openMenu(e.currentTarget, [
            { label: "Create a new channel", icon: "plus", onClick: () => createChannelDialog(client, go) },
            { label: "Browse channels", icon: "search", onClick: () => browseChannelsDialog(client, go) },
          ]) }, icon("plus", 14))),
      section("Direct messages", dmItems,
        h("button", { type: "button", class: "icon-btn add", title: "New message", "aria-label": "New direct message",
          onclick: () => newDmDialog(client, go) }, icon("plus", 14)))),
    h("footer", { class: "me-card" }, avatar(self, 32),
      h("div", { class: "me-text" }, h("b", {}, self.name),
        h("span", { class: "muted" }, self.status_text || (self.presence === "away" ? "Away" : "Active"))),
      h("span", { class: "sync-dot", title: "Sync status" })));
}

function section(title, items, action = null) {
  return h("div", { class: "nav-section" },
    h("div", { class: "nav-section-head" }, h("span", {}, title), action), items);
}

// ---- conversation ----

function renderHeader() {
  const s = client.state;
  const c = conversation(s, route.conv);
  const isChannel = c.kind === "channel";
  const partner = isChannel ? null : user(s, dmPartner(s, route.conv));
  $(".conv-header").replaceChildren(
    h("div", { class: "conv-title" },
      isChannel ? icon(c.private ? "lock" : "hash", 18) : avatar(partner, 24),
      h("h1", {}, conversationTitle(s, route.conv)),
      isChannel ? h("button", { type: "button", class: `icon-btn star${c.starred ? " active" : ""}`,
        title: c.starred ? "Unstar channel" : "Star channel", "aria-label": c.starred ? "Unstar channel" : "Star channel",
        onclick: () => client.commit((st) => { st.channels[route.conv].starred = !c.starred; }) }, icon("star")) : null,
      h("span", { class: "conv-topic muted" }, isChannel ? c.topic : partner.title)),
    h("div", { class: "conv-tools" },
      h("input", { type: "search", class: "search", placeholder: `Search ${s.workspace.name}`, value: search,
        "aria-label": "Search messages", oninput: (e) => { search = e.target.value; renderMessages(); } }),
      isChannel ? h("button", { type: "button", class: "btn btn-sm members-btn", title: "Channel details",
        "aria-label": `Channel details, ${c.members.length} members`, onclick: () => channelDetailsDialog(client, route.conv, go) }, icon("users", 14), c.members.length) : null,
      h("button", { type: "button", class: "icon-btn", title: "Pinned messages", "aria-label": "Pinned messages",
        onclick: showPinned }, icon("pin"))));
}

function showPinned(event) {
  const s = client.state;
  const pinned = topLevel(s, route.conv).filter(([, m]) => m.pinned);
  openMenu(event.currentTarget, pinned.length
    ? pinned.map(([id, m]) => ({ label: `${user(s, m.user).name}: ${m.text.slice(0, 60)}`, icon: "pin",
      onClick: () => document.getElementById(`msg-${id}`)?.scrollIntoView({ block: "center" }) }))
    : [{ label: "No pinned messages yet", onClick: () => {} }], { align: "right" });
}

const ctx = {
  client,
  onOpenThread: (id) => go(route.conv, id),
  onEdit: (id) => editMessageDialog(client, id),
  onDelete: (id) => deleteMessageDialog(client, id, () => { if (route.thread === id) go(route.conv); }),
};

function renderMessages() {
  const s = client.state;
  const box = $(".messages");
  const atBottom = box.scrollHeight - box.scrollTop - box.clientHeight < 40;
  if (search.trim()) {
    const q = search.trim().toLowerCase();
    const hits = Object.entries(s.messages).filter(([, m]) => m.text.toLowerCase().includes(q))
      .sort(([, a], [, b]) => b.ts.localeCompare(a.ts));
    box.replaceChildren(h("div", { class: "search-head" }, `${hits.length} results for “${search.trim()}”`),
      ...hits.map(([id, m]) => h("a", { class: "search-hit", href: `#${m.conversation}${m.thread ? `/${m.thread}` : ""}`,
        onclick: () => { search = ""; } }, h("div", { class: "muted" }, `#${conversationTitle(s, m.conversation)} · ${formatTime(m.ts)}`),
      messageRow(id, m, { ...ctx, inThread: true }))));
    return;
  }
  const c = conversation(s, route.conv);
  const intro = h("div", { class: "conv-intro" },
    h("h2", {}, c.kind === "channel" ? `#${c.name}` : conversationTitle(s, route.conv)),
    h("p", { class: "muted" }, c.kind === "channel"
      ? (c.purpose || `This is the very beginning of the #${c.name} channel.`)
      : `This is the beginning of your direct message history with ${conversationTitle(s, route.conv)}.`));
  box.replaceChildren(intro, ...renderMessageList(topLevel(s, route.conv), { ...ctx, inThread: false }));
  if (atBottom || renderedConv !== route.conv) box.scrollTop = box.scrollHeight;
}

/** A message box; `onSend(text, files)` posts. Files are uploaded to the session on selection. */
function composer(placeholder, onSend, disabledNote = null) {
  if (disabledNote) return h("div", { class: "composer archived-note" }, disabledNote);
  const attached = [];
  const chips = h("div", { class: "attach-chips" });
  const input = h("textarea", { class: "composer-input", rows: 1, placeholder, "aria-label": placeholder });
  const fileInput = h("input", { type: "file", multiple: true, hidden: true, onchange: async () => {
    try {
      for (const f of await client.upload(fileInput.files)) {
        attached.push({ name: f.original_name, url: f.url, size: f.size, content_type: f.content_type });
        chips.append(h("span", { class: "badge badge-blue" }, icon("clip", 12), f.original_name));
      }
    } catch (err) { toast(`Upload failed: ${err.message}`, "error"); }
    fileInput.value = "";
  } });
  const send = () => {
    const text = input.value.trim();
    if (!text && !attached.length) return;
    onSend(text, attached.splice(0));
    input.value = "";
    chips.replaceChildren();
  };
  input.addEventListener("keydown", (e) => {
    if (e.key === "Enter" && !e.shiftKey) { e.preventDefault(); send(); }
  });
  return h("div", { class: "composer" }, chips,
    h("div", { class: "composer-row" },
      h("button", { type: "button", class: "icon-btn", title: "Attach files", "aria-label": "Attach files",
        onclick: () => fileInput.click() }, icon("clip")),
      input, fileInput,
      h("button", { type: "button", class: "icon-btn send", title: "Send", "aria-label": "Send message", onclick: send }, icon("send"))));
}

function renderComposer() {
  const s = client.state;
  const c = conversation(s, route.conv);
  const note = c.archived ? "You are viewing an archived channel. New messages cannot be posted." : null;
  const label = c.kind === "channel" ? `Message #${c.name}` : `Message ${conversationTitle(s, route.conv)}`;
  $(".composer-slot").replaceChildren(composer(label, (text, files) => {
    client.commit((st) => postMessage(st, route.conv, text, { files }));
    $(".messages").scrollTop = $(".messages").scrollHeight;
  }, note));
}

function renderThread() {
  const pane = $(".thread-pane");
  const s = client.state;
  if (!route.thread || !s.messages[route.thread]) {
    pane.hidden = true;
    pane.replaceChildren();
    return;
  }
  const parentId = route.thread;
  const parent = s.messages[parentId];
  const list = h("div", { class: "thread-messages" }, messageRow(parentId, parent, { ...ctx, inThread: true }),
    h("div", { class: "thread-count muted" }, `${replies(s, parentId).length} replies`),
    renderMessageList(replies(s, parentId), { ...ctx, inThread: true }));
  const keep = pane.dataset.thread === parentId ? pane.querySelector(".composer") : null;
  pane.hidden = false;
  pane.dataset.thread = parentId;
  pane.replaceChildren(
    h("header", { class: "thread-head" }, h("div", {}, h("h2", {}, "Thread"),
      h("span", { class: "muted" }, `#${conversationTitle(s, parent.conversation)}`)),
    h("button", { type: "button", class: "icon-btn", "aria-label": "Close thread", onclick: () => go(route.conv) }, icon("x"))),
    list,
    keep || composer("Reply…", (text, files) => client.commit((st) => postMessage(st, parent.conversation, text, { thread: parentId, files })),
      conversation(s, parent.conversation).archived ? "Archived channel" : null));
  list.scrollTop = list.scrollHeight;
}

function render() {
  readRoute();
  renderSidebar();
  renderHeader();
  renderMessages();
  if (renderedConv !== route.conv || $(".composer-slot").dataset.archived !== String(!!conversation(client.state, route.conv).archived)) {
    renderComposer();
    $(".composer-slot").dataset.archived = String(!!conversation(client.state, route.conv).archived);
  }
  renderThread();
  renderedConv = route.conv;
  document.title = `${conversationTitle(client.state, route.conv)} - ${client.state.workspace.name} - Team Chat`;
}

async function main() {
  try {
    await client.load();
  } catch (err) {
    showFatal(document.getElementById("app"), err);
    return;
  }
  client.subscribe(render);
  window.addEventListener("hashchange", () => { render(); markRead(); });
  render();
  markRead();
  document.documentElement.dataset.ready = "true";
}

main();
