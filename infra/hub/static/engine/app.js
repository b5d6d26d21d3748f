// The engine's UI shell: loads the app's definition and the session's state, draws the top bar
// (brand, search, signed-in user) and the views' navigation, and routes #/<view>[/<record id>] to
// the view's archetype module (views/<archetype>.js, each exporting render(ctx) -> element).
// The browser's title names the view and, when one is open, the record: "<record> - <view> - <title>".
import { StateClient, showFatal } from "../../_hub/static/hub.js";
import { avatar, h, icon } from "../../_hub/static/dom.js";
import { titleOf } from "./core.js";

const client = new StateClient();
const $ = (sel) => document.querySelector(sel);
const modules = {};
let def = null;
let route = { view: null, record: null };
const filters = {}; // per view id: {field: value}
const searches = {}; // per view id: text

function parseRoute() {
  const [, view, record] = location.hash.split("/");
  const known = def.views.find((v) => v.id === view) || def.views[0];
  route = { view: known, record: record ? decodeURIComponent(record) : null };
}

function navigate(view, record = null) {
  location.hash = `#/${view}${record ? `/${encodeURIComponent(record)}` : ""}`;
}

function context() {
  const view = route.view;
  return {
    def, client, view, record: route.record, navigate,
    filters: (filters[view.id] ||= {}),
    search: searches[view.id] || "",
    setFilter: (key, value) => { filters[view.id][key] = value; renderContent(); },
    rerender: () => renderContent(),
  };
}

function renderTopbar() {
  const s = client.state;
  const me = s[def.people]?.[s.current_user];
  const search = h("input", { type: "search", class: "global-search", placeholder: `Search ${route.view.label.toLowerCase()}`,
    "aria-label": "Search", value: searches[route.view.id] || "",
    oninput: (e) => { searches[route.view.id] = e.target.value; renderContent(); } });
  $(".topbar").replaceChildren(...[
    h("div", { class: "brand" }, h("span", { class: "brand-mark" }, icon(def.theme.logo || "box", 18)), def.brand),
    def.theme.nav === "top" ? navLinks("top-nav") : null,
    h("div", { class: "top-right" }, search, h("span", { class: "sync-dot", title: "Sync status" }),
      me ? h("span", { class: "me", title: titleOf(def, s, def.people, s.current_user) }, avatar({ name: titleOf(def, s, def.people, s.current_user), color: me.color }, 28)) : null)].filter(Boolean));
}

function navLinks(cls) {
  return h("div", { class: cls }, def.views.map((v) => h("a", {
    href: `#/${v.id}`, class: `nav-item${route.view.id === v.id ? " active" : ""}`, "aria-current": route.view.id === v.id ? "page" : null,
  }, icon(v.icon || "list", 16), v.label)));
}

function renderSidebar() {
  const side = $(".sidebar");
  if (def.theme.nav === "top") { side.hidden = true; return; }
  side.replaceChildren(h("div", { class: "side-label" }, def.category), navLinks("side-nav"));
}

async function renderContent() {
  const content = $(".content");
  const ctx = context();
  const archetype = ctx.view.archetype;
  if (!modules[archetype]) {
    modules[archetype] = await import(`./views/${archetype}.js`);
    // An archetype that needs its own look ships views/<archetype>.css and says so (`stylesheet`).
    if (modules[archetype].stylesheet) {
      document.head.append(h("link", { rel: "stylesheet", href: `assets/views/${archetype}.css` }));
    }
  }
  const scroll = content.scrollTop;
  content.replaceChildren(modules[archetype].render(ctx));
  content.scrollTop = scroll;
  const record = route.record && client.state[ctx.view.entity]?.[route.record]
    ? `${titleOf(def, client.state, ctx.view.entity, route.record)} - ` : "";
  document.title = `${record}${ctx.view.label} - ${def.title}`;
}

function renderAll() {
  parseRoute();
  renderTopbar();
  renderSidebar();
  return renderContent();
}

async function main() {
  try {
    const response = await fetch("definition", { cache: "no-store" });
    if (!response.ok) throw new Error(`definition: HTTP ${response.status}`);
    def = await response.json();
    await client.load();
  } catch (err) {
    showFatal($("#app"), err);
    return;
  }
  client.subscribe(() => renderAll());
  window.addEventListener("hashchange", () => renderAll());
  await renderAll();
  document.documentElement.dataset.ready = "true";
}

main();
