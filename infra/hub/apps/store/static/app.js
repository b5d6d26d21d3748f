// Store admin shell: top bar, section sidebar, hash routing (#/<section>[/<id>]) and the home dashboard.
import { StateClient, showFatal } from "../../_hub/static/hub.js";
import { formatDate, formatMoney, h, icon } from "../../_hub/static/dom.js";
import { renderCustomer, renderCustomers, renderDiscounts } from "./customers.js";
import { FULFILMENT, customerName, orderTotals } from "./model.js";
import { renderOrder, renderOrders } from "./orders.js";
import { renderNewProduct, renderProduct, renderProducts } from "./products.js";

const client = new StateClient();
const $ = (sel) => document.querySelector(sel);
const SECTIONS = [["home", "Home", "home"], ["orders", "Orders", "orders"], ["products", "Products", "box"],
  ["customers", "Customers", "users"], ["discounts", "Discounts", "percent"]];
const views = { orders: { tab: "all", query: "" }, products: { tab: "all", query: "" }, customers: { query: "" } };
let route = { section: "home", id: null };

function parseRoute() {
  const [, section, id] = location.hash.split("/");
  route = { section: SECTIONS.some(([s]) => s === section) ? section : "home", id: id || null };
}

/** List-view state (tab, query) lives in memory; `quiet` keeps focus in the search box while typing. */
function viewOf(section) {
  return { ...views[section], set: (changes, quiet) => {
    Object.assign(views[section], changes);
    renderContent();
    if (quiet) {
      const input = $(".table-tools input");
      input.focus();
      input.setSelectionRange(input.value.length, input.value.length);
    }
  } };
}

function renderTopbar() {
  const s = client.state;
  $(".topbar").replaceChildren(
    h("div", { class: "brand" }, h("span", { class: "brand-mark" }, icon("box", 16)), "Store Admin"),
    h("input", { type: "search", class: "global-search", placeholder: "Search orders, products, customers", "aria-label": "Search",
      onkeydown: (e) => {
        if (e.key !== "Enter") return;
        const q = e.target.value.trim();
        const order = Object.entries(s.orders).find(([, o]) => o.number.replace("#", "") === q.replace("#", ""));
        if (order) { location.hash = `#/orders/${order[0]}`; return; }
        views.products.query = q;
        location.hash = "#/products";
      } }),
    h("div", { class: "store-chip" }, h("span", { class: "sync-dot", title: "Sync status" }),
      h("span", { class: "store-avatar" }, s.store.name.slice(0, 2).toUpperCase()), s.store.name));
}

function renderSidebar() {
  const s = client.state;
  const toFulfil = Object.values(s.orders).filter((o) => o.fulfillment_status === "unfulfilled" && o.financial_status === "paid" && !o.cancelled).length;
  $(".sidebar").replaceChildren(
    h("nav", {}, SECTIONS.map(([id, label, iconName]) => h("a", {
      href: `#/${id}`, class: `side-item${route.section === id ? " active" : ""}`, "data-section": id,
    }, icon(iconName, 17), label, id === "orders" && toFulfil ? h("span", { class: "side-count" }, toFulfil) : null))),
    h("div", { class: "side-foot" }, h("div", { class: "side-label" }, "Sales channels"),
      h("div", { class: "side-item static" }, icon("home", 17), "Online Store"),
      h("div", { class: "side-item static" }, icon("orders", 17), "Point of Sale")));
}

function renderHome() {
  const s = client.state;
  const money = (v) => formatMoney(v, s.store.currency);
  const orders = Object.entries(s.orders).sort(([, a], [, b]) => b.created.localeCompare(a.created));
  const paid = orders.filter(([, o]) => o.financial_status === "paid");
  const sales = paid.reduce((n, [, o]) => n + orderTotals(s, o).total, 0);
  const toFulfil = orders.filter(([, o]) => o.fulfillment_status === "unfulfilled" && o.financial_status === "paid" && !o.cancelled);
  const pending = orders.filter(([, o]) => o.financial_status === "pending" && !o.cancelled);
  const lowStock = Object.entries(s.products).filter(([, p]) => p.status === "active")
    .flatMap(([pid, p]) => Object.values(p.variants).filter((v) => v.inventory < 10).map((v) => [pid, p, v]));
  const kpi = (label, value, hint, href) => h("a", { class: "card kpi", href }, h("span", { class: "muted" }, label), h("b", {}, value), h("span", { class: "muted small" }, hint));
  return h("div", { class: "page" },
    h("div", { class: "page-head" }, h("h1", {}, `Good day, ${s.store.name} team`)),
    h("div", { class: "kpis" },
      kpi("Total sales", money(sales), `${paid.length} paid orders`, "#/orders"),
      kpi("Orders to fulfill", toFulfil.length, "Paid and unfulfilled", "#/orders"),
      kpi("Payments pending", pending.length, "Awaiting payment", "#/orders"),
      kpi("Low stock", lowStock.length, "Variants under 10 units", "#/products")),
    h("div", { class: "two-col" },
      h("section", { class: "card panel col-main" }, h("h3", {}, "Recent orders"),
        h("table", { class: "table" }, h("tbody", {}, orders.slice(0, 6).map(([id, o]) => h("tr", { class: "clickable",
          onclick: () => { location.hash = `#/orders/${id}`; } }, h("td", {}, h("b", {}, o.number)), h("td", {}, customerName(s, o.customer)),
        h("td", { class: "muted" }, formatDate(o.created, true)),
        h("td", {}, h("span", { class: `badge ${FULFILMENT[o.fulfillment_status][1]}` }, FULFILMENT[o.fulfillment_status][0])),
        h("td", {}, money(orderTotals(s, o).total))))))),
      h("section", { class: "card panel col-side" }, h("h3", {}, "Inventory alerts"),
        lowStock.length ? lowStock.map(([pid, p, v]) => h("a", { class: "alert-row", href: `#/products/${pid}` },
          h("span", {}, `${p.title}${Object.keys(p.variants).length > 1 ? ` – ${v.title}` : ""}`),
          h("span", { class: v.inventory === 0 ? "badge badge-red" : "badge badge-yellow" }, v.inventory === 0 ? "Out of stock" : `${v.inventory} left`)))
          : h("p", { class: "muted" }, "All products are well stocked."))));
}

function renderContent() {
  const { section, id } = route;
  const content = $(".content");
  const scroll = content.scrollTop;
  let page;
  if (section === "orders") page = id ? renderOrder(client, id) : renderOrders(client, viewOf("orders"));
  else if (section === "products") page = id === "new" ? renderNewProduct(client) : id ? renderProduct(client, id) : renderProducts(client, viewOf("products"));
  else if (section === "customers") page = id ? renderCustomer(client, id) : renderCustomers(client, viewOf("customers"));
  else if (section === "discounts") page = renderDiscounts(client);
  else page = renderHome();
  content.replaceChildren(page);
  content.scrollTop = scroll;
}

function render(resetScroll = false) {
  parseRoute();
  renderTopbar();
  renderSidebar();
  renderContent();
  if (resetScroll) $(".content").scrollTop = 0;
  const label = SECTIONS.find(([s]) => s === route.section)[1];
  document.title = `${label} · ${client.state.store.name} · Store Admin`;
}

async function main() {
  try {
    await client.load();
  } catch (err) {
    showFatal(document.getElementById("app"), err);
    return;
  }
  client.subscribe(() => render());
  window.addEventListener("hashchange", () => render(true));
  render();
  document.documentElement.dataset.ready = "true";
}

main();
