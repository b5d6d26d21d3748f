// Small DOM toolkit shared by the mock UIs: element builder, icons, dialogs, menus, toasts, formats.
// No framework and no build step: every UI re-renders its regions from state after each change.

/** h("button", {class: "btn", onclick}, "Save") -> element. Props: class, style, on*, data-*, attrs. */
export function h(tag, props = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(props || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") el.addEventListener(key.slice(2), value);
    else if (key === "class") el.className = value;
    else if (key === "style") el.style.cssText = value;
    else if (key in el && !key.startsWith("data-") && !key.startsWith("aria-") && key !== "list")
      el[key] = value;
    else el.setAttribute(key, value === true ? "" : value);
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

// Icons: 24x24 stroke paths drawn for these mocks (no third-party icon set).
const ICONS = {
  plus: "M12 5v14M5 12h14",
  x: "M6 6l12 12M18 6L6 18",
  check: "M5 12l5 5L20 7",
  search: "M11 4a7 7 0 1 0 0 14a7 7 0 1 0 0-14zM20 20l-4-4",
  hash: "M10 4L8 20M16 4l-2 16M4 9h16M4 15h16",
  lock: "M6 11h12v9H6zM8 11V8a4 4 0 0 1 8 0v3",
  message: "M4 5h16v11H9l-5 4z",
  smile: "M12 3a9 9 0 1 0 0 18a9 9 0 1 0 0-18zM8 14c1 1.5 2.5 2 4 2s3-.5 4-2M9 9.5h.01M15 9.5h.01",
  star: "M12 3l2.8 5.7 6.2.9-4.5 4.4 1.1 6.2L12 17.3l-5.6 2.9 1.1-6.2L3 9.6l6.2-.9z",
  trash: "M4 7h16M9 7V4h6v3M6 7l1 13h10l1-13M10 11v6M14 11v6",
  archive: "M3 4h18v4H3zM5 8v12h14V8M10 12h4",
  inbox: "M3 13l3-8h12l3 8v6H3zM3 13h5l1 3h6l1-3h5",
  send: "M3 11l18-8-8 18-2-8z",
  file: "M6 3h8l4 4v14H6zM14 3v4h4",
  tag: "M3 12V3h9l9 9-9 9zM7.5 7.5h.01",
  edit: "M4 20h4L19 9l-4-4L4 16zM13 7l4 4",
  user: "M12 12a4 4 0 1 0 0-8a4 4 0 0 0 0 8zM4 21c1-4 4-6 8-6s7 2 8 6",
  users: "M9 11a3.5 3.5 0 1 0 0-7a3.5 3.5 0 0 0 0 7zM2 20c.8-3.5 3.5-5 7-5s6.2 1.5 7 5M16 4.5a3.5 3.5 0 0 1 0 6.5M18 15c2 .6 3.4 2.2 4 5",
  home: "M3 11l9-8 9 8M5 10v10h5v-6h4v6h5V10",
  box: "M3 7l9-4 9 4v10l-9 4-9-4zM3 7l9 4 9-4M12 11v10",
  orders: "M8 3h8v4H8zM6 5H4v16h16V5h-2M8 12h8M8 16h5",
  percent: "M19 5L5 19M7 5a2 2 0 1 0 0 4a2 2 0 0 0 0-4zM17 15a2 2 0 1 0 0 4a2 2 0 0 0 0-4z",
  clip: "M20 11l-8 8a5 5 0 0 1-7-7l8.5-8.5a3.5 3.5 0 0 1 5 5L10 17a2 2 0 0 1-3-3l7.5-7.5",
  reply: "M10 7L4 12l6 5M4 12h11a5 5 0 0 1 5 5v2",
  replyAll: "M11 7l-5 5 5 5M7 7l-5 5 5 5M6 12h9a5 5 0 0 1 5 5v2",
  forward: "M14 7l6 5-6 5M20 12H9a5 5 0 0 0-5 5v2",
  folder: "M3 6h6l2 2h10v11H3z",
  mail: "M3 5h18v14H3zM3 6l9 7 9-7",
  board: "M4 4h4v16H4zM10 4h4v10h-4zM16 4h4v13h-4z",
  list: "M9 6h12M9 12h12M9 18h12M4 6h.01M4 12h.01M4 18h.01",
  chevronDown: "M6 9l6 6 6-6",
  chevronRight: "M9 6l6 6-6 6",
  chevronLeft: "M15 6l-6 6 6 6",
  more: "M5 12h.01M12 12h.01M19 12h.01",
  equal: "M5 9h14M5 15h14",
  pin: "M9 3h6l-1 6 3 3v2H7v-2l3-3zM12 14v7",
  truck: "M2 6h12v10H2zM14 10h4l3 3v3h-7M6 19a2 2 0 1 0 0-4a2 2 0 0 0 0 4zM17 19a2 2 0 1 0 0-4a2 2 0 0 0 0 4z",
  task: "M4 4h16v16H4zM8 12l3 3 5-6",
  bug: "M8 9h8v7a4 4 0 0 1-8 0zM12 9v11M4 13h4M16 13h4M5 8l3 2M19 8l-3 2M10 5l1 4M14 5l-1 4",
  story: "M6 3h12v18l-6-4-6 4z",
  epic: "M13 2L4 14h7l-1 8 9-12h-7z",
  up: "M12 19V5M6 11l6-6 6 6",
  down: "M12 5v14M6 13l6 6 6-6",
  calendar: "M4 5h16v15H4zM4 10h16M8 3v4M16 3v4",
  refresh: "M20 11a8 8 0 1 0-2.3 5.7M20 4v7h-7",
  flag: "M5 21V4M5 4h11l-2 4 2 4H5",
  settings: "M4 7h10M18 7h2M4 17h4M12 17h8M14 4v6M8 14v6",
  bell: "M6 16V11a6 6 0 0 1 12 0v5l2 2H4zM10 20a2 2 0 0 0 4 0",
  eye: "M2 12s4-7 10-7 10 7 10 7-4 7-10 7S2 12 2 12zM12 9a3 3 0 1 0 0 6a3 3 0 0 0 0-6z",
  thread: "M4 5h16v10H8l-4 4zM8 9h8M8 12h5",
  download: "M12 4v12M6 10l6 6 6-6M4 20h16",
  mailOpen: "M3 10l9-6 9 6v10H3zM3 10l9 6 9-6",
  sprint: "M4 12a8 8 0 0 1 14-5.3M20 12a8 8 0 0 1-14 5.3M18 3v4h-4M6 21v-4h4",
};

export function icon(name, size = 16, cls = "") {
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("width", size);
  svg.setAttribute("height", size);
  svg.setAttribute("class", `icon ${cls}`.trim());
  svg.setAttribute("aria-hidden", "true");
  const path = document.createElementNS(ns, "path");
  path.setAttribute("d", ICONS[name] || ICONS.file);
  svg.append(path);
  return svg;
}

/** Initials avatar in a colour; `person` is {name, color}. */
export function avatar(person, size = 32) {
  const name = person?.name || "?";
  const letters = name.split(/\s+/).map((part) => part[0]).join("").slice(0, 2).toUpperCase();
  return h("span", {
    class: "avatar", title: name,
    style: `width:${size}px;height:${size}px;font-size:${Math.round(size * 0.4)}px;background:${person?.color || "#8a8f98"}`,
  }, letters);
}

/**
 * A modal dialog holding a form. `onSubmit(data, form)` gets the FormData as an object; returning
 * a string keeps the dialog open and shows it as an error (validation the real apps also do).
 */
export function openDialog({ title, body, submitLabel = "Save", danger = false, onSubmit, wide = false, name }) {
  const error = h("p", { class: "form-error", role: "alert" });
  const form = h("form", { method: "dialog", class: "modal-form" },
    h("header", { class: "modal-head" },
      h("h2", {}, title),
      h("button", { type: "button", class: "icon-btn", "aria-label": "Close", onclick: () => close() }, icon("x"))),
    h("div", { class: "modal-body" }, body, error),
    h("footer", { class: "modal-foot" },
      h("button", { type: "button", class: "btn", onclick: () => close() }, onSubmit ? "Cancel" : "Close"),
      onSubmit ? h("button", { type: "submit", class: danger ? "btn btn-danger" : "btn btn-primary" }, submitLabel) : null));
  const dialog = h("dialog", { class: wide ? "modal modal-wide" : "modal", "aria-label": title, "data-dialog": name || "" }, form);
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const data = Object.fromEntries(new FormData(form).entries());
    const problem = onSubmit ? onSubmit(data, form) : undefined;
    if (typeof problem === "string") error.textContent = problem;
    else close();
  });
  dialog.addEventListener("close", () => dialog.remove());
  function close() {
    if (dialog.open) dialog.close();
    dialog.remove();
  }
  document.body.append(dialog);
  dialog.showModal();
  const first = dialog.querySelector("input:not([type=hidden]),textarea,select");
  if (first) first.focus();
  return dialog;
}

/** A labelled form field. `control` is an input/select/textarea element. */
export function field(label, control, helpText) {
  return h("label", { class: "field" }, h("span", { class: "field-label" }, label), control,
    helpText ? h("span", { class: "field-help" }, helpText) : null);
}

export function select(name, options, value, props = {}) {
  return h("select", { name, ...props },
    options.map(([v, label]) => h("option", { value: v, selected: v === value }, label)));
}

let menuCleanup = null;

/** A popup menu under `anchor`: items are {label, icon?, onClick, danger?} or "-" separators. */
export function openMenu(anchor, items, options = {}) {
  return openPopover(anchor, items.map((item) => item === "-" ? h("hr") : h("button", {
    type: "button", role: "menuitem", class: item.danger ? "menu-item danger" : "menu-item",
    onclick: () => { closeMenu(); item.onClick(); },
  }, item.icon ? icon(item.icon) : null, item.label)), options);
}

/** Any content in a floating box under `anchor`; closes on outside click, Escape or closeMenu(). */
export function openPopover(anchor, content, { align = "left", cls = "" } = {}) {
  closeMenu();
  const menu = h("div", { class: `menu ${cls}`.trim(), role: "menu" }, content);
  document.body.append(menu);
  const rect = anchor.getBoundingClientRect();
  const left = align === "right" ? rect.right - menu.offsetWidth : rect.left;
  menu.style.left = `${Math.max(8, Math.min(left, innerWidth - menu.offsetWidth - 8))}px`;
  const below = rect.bottom + 4 + menu.offsetHeight < innerHeight;
  menu.style.top = `${below ? rect.bottom + 4 : Math.max(8, rect.top - menu.offsetHeight - 4)}px`;
  const onDown = (event) => { if (!menu.contains(event.target) && !anchor.contains(event.target)) closeMenu(); };
  const onKey = (event) => { if (event.key === "Escape") closeMenu(); };
  setTimeout(() => document.addEventListener("mousedown", onDown));
  document.addEventListener("keydown", onKey);
  menuCleanup = () => {
    menu.remove();
    document.removeEventListener("mousedown", onDown);
    document.removeEventListener("keydown", onKey);
  };
  return menu;
}

export function closeMenu() {
  if (menuCleanup) menuCleanup();
  menuCleanup = null;
}

/** A short notice at the bottom of the screen; kind is info | success | error. */
export function toast(message, kind = "info") {
  let host = document.querySelector(".toasts");
  if (!host) {
    host = h("div", { class: "toasts", "aria-live": "polite" });
    document.body.append(host);
  }
  const note = h("div", { class: `toast toast-${kind}`, role: kind === "error" ? "alert" : "status" }, message);
  host.append(note);
  setTimeout(() => note.remove(), kind === "error" ? 6000 : 3500);
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** "Jun 3" (same year as `now`) or "Jun 3, 2023"; dates are shown in UTC so every run looks alike. */
export function formatDate(iso, withYear = false) {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return "";
  const base = `${MONTHS[d.getUTCMonth()]} ${d.getUTCDate()}`;
  return withYear ? `${base}, ${d.getUTCFullYear()}` : base;
}

export function formatTime(iso) {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return "";
  const hours = d.getUTCHours();
  const minutes = String(d.getUTCMinutes()).padStart(2, "0");
  return `${hours % 12 || 12}:${minutes} ${hours < 12 ? "AM" : "PM"}`;
}

export function formatMoney(amount, currency = "USD") {
  return new Intl.NumberFormat("en-US", { style: "currency", currency }).format(amount || 0);
}

export function formatBytes(size) {
  if (size < 1024) return `${size} B`;
  if (size < 1024 * 1024) return `${(size / 1024).toFixed(1)} KB`;
  return `${(size / 1024 / 1024).toFixed(1)} MB`;
}

/** Round money to cents so JSON never carries 0.30000000000000004. */
export function cents(value) {
  return Math.round(Number(value) * 100) / 100;
}

export function nowIso() {
  return new Date().toISOString().replace(/\.\d{3}Z$/, "Z");
}
