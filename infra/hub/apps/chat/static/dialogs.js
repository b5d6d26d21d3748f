// Chat dialogs: create/browse channels, channel details, new DM, edit/delete message, set status.
import { avatar, field, formatDate, h, icon, openDialog, toast } from "../../_hub/static/dom.js";
import { CHANNEL_NAME, createChannel, deleteMessage, me, openDm, user } from "./model.js";

export function createChannelDialog(client, go) {
  openDialog({
    title: "Create a channel", submitLabel: "Create", name: "create-channel",
    body: [
      field("Name", h("input", { name: "name", placeholder: "e.g. plan-budget", autocomplete: "off" }),
        "Lowercase letters, numbers, hyphens and underscores."),
      field("Description (optional)", h("input", { name: "purpose", placeholder: "What is this channel about?" })),
      h("label", { class: "check" }, h("input", { type: "checkbox", name: "private" }), "Make private"),
    ],
    onSubmit: (data) => {
      const name = (data.name || "").trim().toLowerCase().replace(/\s+/g, "-");
      if (!CHANNEL_NAME.test(name)) return "Channel names can only contain lowercase letters, numbers, hyphens and underscores.";
      if (Object.values(client.state.channels).some((c) => c.name === name)) return `A channel named #${name} already exists.`;
      const id = client.commit((s) => createChannel(s, { name, purpose: (data.purpose || "").trim(), isPrivate: !!data.private }));
      go(id);
      return undefined;
    },
  });
}

export function browseChannelsDialog(client, go) {
  const s = client.state;
  const rows = Object.entries(s.channels)
    .filter(([, c]) => !c.private || c.members.includes(me(s)))
    .sort(([, a], [, b]) => a.name.localeCompare(b.name))
    .map(([id, c]) => {
      const joined = c.members.includes(me(s));
      return h("div", { class: "browse-row" },
        h("div", {},
          h("div", { class: "browse-name" }, icon(c.private ? "lock" : "hash", 14), c.name,
            c.archived ? h("span", { class: "badge badge-gray" }, "Archived") : null),
          h("div", { class: "muted" }, `${c.members.length} members${c.purpose ? ` · ${c.purpose}` : ""}`)),
        h("button", {
          type: "button", class: joined ? "btn btn-sm" : "btn btn-sm btn-primary",
          onclick: () => {
            if (!joined && !c.archived) client.commit((st) => { st.channels[id].members.push(me(st)); });
            dialog.close();
            go(id);
          },
        }, joined || c.archived ? "View" : "Join"));
    });
  const dialog = openDialog({ title: "Browse channels", body: h("div", { class: "browse-list" }, rows), wide: true, name: "browse" });
}

export function channelDetailsDialog(client, id, go) {
  const s = client.state;
  const c = s.channels[id];
  const topic = h("input", { name: "topic", value: c.topic, placeholder: "Add a topic" });
  const purpose = h("input", { name: "purpose", value: c.purpose, placeholder: "Add a description" });
  const members = h("div", { class: "member-list" },
    c.members.map((uid) => h("div", { class: "member" }, avatar(user(s, uid), 24), user(s, uid).name,
      h("span", { class: "muted" }, user(s, uid).title))));
  const addSelect = h("select", { name: "add_member" }, h("option", { value: "" }, "Add people…"),
    Object.entries(s.users).filter(([uid]) => !c.members.includes(uid)).map(([uid, u]) => h("option", { value: uid }, u.name)));
  const dialog = openDialog({
    title: `#${c.name}`, submitLabel: "Save changes", wide: true, name: "channel-details",
    body: [
      field("Topic", topic), field("Description", purpose),
      h("p", { class: "muted" }, `Created by ${user(s, c.created_by).name} on ${formatDate(c.created, true)}`),
      h("h3", { class: "section-title" }, `Members (${c.members.length})`), members,
      c.archived ? null : field("Add a member", addSelect),
      h("div", { class: "danger-zone" },
        c.members.includes(me(s)) && !c.archived ? h("button", { type: "button", class: "btn", onclick: () => {
          client.commit((st) => { st.channels[id].members = st.channels[id].members.filter((m) => m !== me(st)); });
          dialog.close();
          go(null);
        } }, "Leave channel") : null,
        h("button", { type: "button", class: c.archived ? "btn" : "btn btn-danger", onclick: () => {
          client.commit((st) => { st.channels[id].archived = !c.archived; });
          toast(c.archived ? `#${c.name} was unarchived` : `#${c.name} was archived`, "success");
          dialog.close();
        } }, c.archived ? "Unarchive channel" : "Archive channel")),
    ],
    onSubmit: (data) => {
      const changes = {};
      if (data.topic.trim() !== c.topic) changes.topic = data.topic.trim();
      if (data.purpose.trim() !== c.purpose) changes.purpose = data.purpose.trim();
      if (!Object.keys(changes).length && !data.add_member) return undefined;
      client.commit((st) => {
        Object.assign(st.channels[id], changes);
        if (data.add_member) st.channels[id].members.push(data.add_member);
      });
      return undefined;
    },
  });
}

export function newDmDialog(client, go) {
  const s = client.state;
  openDialog({
    title: "New message", submitLabel: "Open conversation", name: "new-dm",
    body: field("To", h("select", { name: "user" },
      Object.entries(s.users).filter(([uid]) => uid !== me(s)).map(([uid, u]) => h("option", { value: uid }, `${u.name} (@${u.handle})`)))),
    onSubmit: (data) => {
      const id = client.commit((st) => openDm(st, data.user));
      go(id);
      return undefined;
    },
  });
}

export function editMessageDialog(client, id) {
  const msg = client.state.messages[id];
  openDialog({
    title: "Edit message", name: "edit-message",
    body: field("Message", h("textarea", { name: "text", value: msg.text })),
    onSubmit: (data) => {
      const text = data.text.trim();
      if (!text) return "A message cannot be empty; delete it instead.";
      if (text !== msg.text) client.commit((s) => Object.assign(s.messages[id], { text, edited: true }));
      return undefined;
    },
  });
}

export function deleteMessageDialog(client, id, onDeleted) {
  const count = Object.values(client.state.messages).filter((m) => m.thread === id).length;
  openDialog({
    title: "Delete message", submitLabel: "Delete", danger: true, name: "delete-message",
    body: h("p", {}, "Are you sure you want to delete this message? This cannot be undone.",
      count ? ` Its ${count} thread ${count === 1 ? "reply" : "replies"} will be deleted too.` : ""),
    onSubmit: () => {
      client.commit((s) => deleteMessage(s, id));
      onDeleted?.();
      return undefined;
    },
  });
}

export function statusDialog(client) {
  const self = client.state.users[me(client.state)];
  openDialog({
    title: "Set a status", name: "status",
    body: [
      field("Status", h("input", { name: "status_text", value: self.status_text, placeholder: "What's your status?" })),
      h("label", { class: "check" }, h("input", { type: "checkbox", name: "away", checked: self.presence === "away" }),
        "Set yourself as away"),
    ],
    onSubmit: (data) => {
      const status = (data.status_text || "").trim();
      const presence = data.away ? "away" : "active";
      if (status === self.status_text && presence === self.presence) return undefined;
      client.commit((s) => Object.assign(s.users[me(s)], { status_text: status, presence }));
      return undefined;
    },
  });
}
