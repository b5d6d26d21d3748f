// Orders: list with status tabs, order page with payment, fulfilment and discount actions.
import { field, formatDate, formatMoney, formatTime, h, icon, openDialog, select, toast } from "../../_hub/static/dom.js";
import {
  CARRIERS, FINANCIAL, FULFILMENT, applyDiscount, customerName, discountAmount, discountProblem, fulfilOrder,
  orderTotals, removeDiscount,
} from "./model.js";

const badge = ([label, cls]) => h("span", { class: `badge ${cls}` }, label);
const TABS = [["all", "All"], ["unfulfilled", "Unfulfilled"], ["unpaid", "Unpaid"], ["closed", "Closed"]];

function matchesTab(order, tab) {
  if (tab === "unfulfilled") return order.fulfillment_status === "unfulfilled" && !order.cancelled && order.financial_status !== "refunded";
  if (tab === "unpaid") return order.financial_status === "pending" && !order.cancelled;
  if (tab === "closed") return order.cancelled || order.financial_status === "refunded" || order.fulfillment_status === "fulfilled";
  return true;
}

export function renderOrders(client, view) {
  const s = client.state;
  const q = view.query.toLowerCase();
  const rows = Object.entries(s.orders)
    .filter(([, o]) => matchesTab(o, view.tab))
    .filter(([, o]) => !q || `${o.number} ${customerName(s, o.customer)}`.toLowerCase().includes(q))
    .sort(([, a], [, b]) => b.created.localeCompare(a.created));
  return h("div", { class: "page" },
    h("div", { class: "page-head" }, h("h1", {}, icon("orders", 20), "Orders"),
      h("a", { class: "btn", href: `api/orders.csv?sid=${encodeURIComponent(client.sid)}`, download: "orders.csv" },
        icon("download", 14), "Export")),
    h("div", { class: "card" },
      h("div", { class: "tabs", role: "tablist" }, TABS.map(([id, label]) => h("button", {
        type: "button", role: "tab", class: `tab${view.tab === id ? " active" : ""}`, "aria-selected": String(view.tab === id),
        onclick: () => view.set({ tab: id }),
      }, label))),
      h("div", { class: "table-tools" }, h("input", { type: "search", placeholder: "Filter orders", value: view.query,
        "aria-label": "Filter orders", oninput: (e) => view.set({ query: e.target.value }, true) })),
      h("table", { class: "table" },
        h("thead", {}, h("tr", {}, ["Order", "Date", "Customer", "Total", "Payment status", "Fulfillment status", "Items"].map((c) => h("th", {}, c)))),
        h("tbody", {}, rows.map(([id, o]) => {
          const t = orderTotals(s, o);
          return h("tr", { class: "clickable", "data-order": id, onclick: () => { location.hash = `#/orders/${id}`; } },
            h("td", {}, h("b", {}, o.number), o.cancelled ? h("span", { class: "badge badge-red" }, "Cancelled") : null),
            h("td", { class: "muted" }, `${formatDate(o.created, true)} at ${formatTime(o.created)}`),
            h("td", {}, customerName(s, o.customer)), h("td", {}, formatMoney(t.total, s.store.currency)),
            h("td", {}, badge(FINANCIAL[o.financial_status])), h("td", {}, badge(FULFILMENT[o.fulfillment_status])),
            h("td", {}, `${t.items} item${t.items === 1 ? "" : "s"}`));
        }))),
      rows.length ? null : h("div", { class: "empty" }, "No orders match.")));
}

export function renderOrder(client, id) {
  const s = client.state;
  const o = s.orders[id];
  if (!o) return h("div", { class: "empty" }, "Order not found. ", h("a", { href: "#/orders" }, "Back to orders"));
  const t = orderTotals(s, o);
  const money = (v) => formatMoney(v, s.store.currency);
  const canFulfil = o.fulfillment_status === "unfulfilled" && !o.cancelled && o.financial_status !== "refunded";
  const customer = s.customers[o.customer];
  return h("div", { class: "page order-page" },
    h("div", { class: "page-head" },
      h("div", { class: "title-row" }, h("a", { class: "icon-btn", href: "#/orders", "aria-label": "Back to orders" }, icon("chevronLeft")),
        h("h1", {}, o.number), badge(FINANCIAL[o.financial_status]), badge(FULFILMENT[o.fulfillment_status]),
        o.cancelled ? h("span", { class: "badge badge-red" }, "Cancelled") : null,
        h("span", { class: "muted" }, `${formatDate(o.created, true)} at ${formatTime(o.created)}`)),
      h("div", { class: "head-actions" },
        o.financial_status === "paid" && !o.cancelled ? h("button", { type: "button", class: "btn", onclick: () => refundDialog(client, id) }, "Refund") : null,
        !o.cancelled && o.fulfillment_status === "unfulfilled" ? h("button", { type: "button", class: "btn", onclick: () => cancelDialog(client, id) }, "Cancel order") : null)),
    h("div", { class: "two-col" },
      h("div", { class: "col-main" },
        h("section", { class: "card panel" },
          h("header", { class: "panel-head" }, badge(FULFILMENT[o.fulfillment_status]), h("span", { class: "muted" }, `${t.items} items`)),
          o.lines.map((l) => h("div", { class: "line" },
            h("span", { class: "thumb" }, l.title.slice(0, 1)),
            h("div", { class: "line-text" }, h("a", { href: `#/products/${l.product}` }, l.title),
              h("div", { class: "muted" }, [l.variant_title, l.sku && `SKU: ${l.sku}`].filter(Boolean).join(" · "))),
            h("span", { class: "muted" }, `${money(l.price)} × ${l.quantity}`), h("b", {}, money(l.price * l.quantity)))),
          o.fulfillments.map((f) => h("div", { class: "tracking" }, icon("truck", 16),
            `${f.carrier} · tracking ${f.tracking} · ${formatDate(f.created, true)}`)),
          canFulfil ? h("footer", { class: "panel-foot" },
            h("button", { type: "button", class: "btn btn-primary", onclick: () => fulfilDialog(client, id) }, "Fulfill items")) : null),
        h("section", { class: "card panel" },
          h("header", { class: "panel-head" }, badge(FINANCIAL[o.financial_status])),
          h("dl", { class: "totals" },
            h("dt", {}, "Subtotal"), h("dd", {}, money(t.subtotal)),
            h("dt", {}, o.discount ? `Discount (${o.discount.code})` : "Discount"),
            h("dd", {}, o.discount ? `−${money(t.discount)}` : "—"),
            h("dt", {}, "Shipping"), h("dd", {}, money(o.shipping)),
            h("dt", {}, `Tax (${Math.round((s.store.tax_rate || 0) * 100)}%)`), h("dd", {}, money(t.tax)),
            h("dt", { class: "total" }, "Total"), h("dd", { class: "total" }, money(t.total))),
          o.financial_status === "pending" && !o.cancelled ? h("footer", { class: "panel-foot" },
            o.discount
              ? h("button", { type: "button", class: "btn", onclick: () => { client.commit((st) => removeDiscount(st, id)); toast("Discount removed"); } }, "Remove discount")
              : h("button", { type: "button", class: "btn", onclick: () => discountDialog(client, id) }, icon("percent", 14), "Apply discount"),
            h("button", { type: "button", class: "btn btn-primary", onclick: () => {
              client.commit((st) => { st.orders[id].financial_status = "paid"; });
              toast(`${o.number} marked as paid`, "success");
            } }, "Mark as paid")) : null)),
      h("div", { class: "col-side" },
        h("section", { class: "card panel" }, h("h3", {}, "Notes"),
          h("textarea", { class: "order-note", rows: 3, value: o.note, placeholder: "No notes from customer", "aria-label": "Order note",
            onchange: (e) => client.commit((st) => { st.orders[id].note = e.target.value; }) })),
        h("section", { class: "card panel" }, h("h3", {}, "Customer"),
          customer ? [h("a", { href: `#/customers/${o.customer}` }, customerName(s, o.customer)),
            h("div", { class: "muted" }, customer.email), h("div", { class: "muted" }, customer.phone)] : h("div", { class: "muted" }, "No customer"),
          h("h4", {}, "Shipping address"),
          h("div", { class: "address" }, o.shipping_address.name, h("br"), o.shipping_address.line1, h("br"),
            `${o.shipping_address.city} ${o.shipping_address.zip}`, h("br"), o.shipping_address.country)),
        h("section", { class: "card panel" }, h("h3", {}, "Tags"),
          h("input", { value: o.tags.join(", "), placeholder: "Add tags", "aria-label": "Order tags",
            onchange: (e) => client.commit((st) => { st.orders[id].tags = [...new Set(e.target.value.split(",").map((x) => x.trim()).filter(Boolean))]; }) })))));
}

function fulfilDialog(client, id) {
  const o = client.state.orders[id];
  openDialog({
    title: `Fulfill ${o.number}`, submitLabel: "Fulfill items", name: "fulfil",
    body: [
      h("p", { class: "muted" }, `${o.lines.reduce((n, l) => n + l.quantity, 0)} items will be marked as fulfilled.`),
      field("Shipping carrier", select("carrier", CARRIERS.map((c) => [c, c]), CARRIERS[0])),
      field("Tracking number", h("input", { name: "tracking", autocomplete: "off", placeholder: "e.g. PX10493821" })),
      h("label", { class: "check" }, h("input", { type: "checkbox", name: "notify", checked: true }), "Send shipment details to your customer now"),
    ],
    onSubmit: (data) => {
      const tracking = (data.tracking || "").trim();
      if (!tracking) return "Enter a tracking number.";
      client.commit((s) => fulfilOrder(s, id, { carrier: data.carrier, tracking, notify: !!data.notify }));
      toast(`${o.number} fulfilled`, "success");
      return undefined;
    },
  });
}

function discountDialog(client, id) {
  const s = client.state;
  const o = s.orders[id];
  const codes = Object.values(s.discounts).filter((d) => d.status === "active").map((d) => d.code);
  const preview = h("p", { class: "muted discount-preview" });
  const input = h("input", { name: "code", list: "discount-codes", autocomplete: "off", placeholder: "Discount code",
    oninput: (e) => {
      const code = e.target.value.trim().toUpperCase();
      const problem = code ? discountProblem(s, o, code) : null;
      preview.textContent = code && !problem ? `Saves ${formatMoney(discountAmount(s, o, code), s.store.currency)}` : problem || "";
    } });
  openDialog({
    title: "Apply discount", submitLabel: "Apply", name: "discount",
    body: [field("Code", input), h("datalist", { id: "discount-codes" }, codes.map((c) => h("option", { value: c }))),
      h("div", { class: "code-chips" }, codes.map((c) => h("button", { type: "button", class: "badge badge-blue chip",
        onclick: () => { input.value = c; input.dispatchEvent(new Event("input")); } }, c))), preview],
    onSubmit: (data) => {
      const code = (data.code || "").trim().toUpperCase();
      const problem = discountProblem(client.state, o, code);
      if (problem) return problem;
      client.commit((st) => applyDiscount(st, id, code));
      toast(`${code} applied to ${o.number}`, "success");
      return undefined;
    },
  });
}

function refundDialog(client, id) {
  const s = client.state;
  const o = s.orders[id];
  openDialog({
    title: `Refund ${o.number}`, submitLabel: `Refund ${formatMoney(orderTotals(s, o).total, s.store.currency)}`, danger: true, name: "refund",
    body: field("Reason for refund", h("input", { name: "reason", placeholder: "Only you and other staff can see this reason" })),
    onSubmit: (data) => {
      client.commit((st) => {
        st.orders[id].financial_status = "refunded";
        if (data.reason.trim()) st.orders[id].note = [st.orders[id].note, `Refund: ${data.reason.trim()}`].filter(Boolean).join("\n");
      });
      toast(`${o.number} refunded`, "success");
      return undefined;
    },
  });
}

function cancelDialog(client, id) {
  const o = client.state.orders[id];
  openDialog({
    title: `Cancel order ${o.number}?`, submitLabel: "Cancel order", danger: true, name: "cancel-order",
    body: h("p", {}, "Cancelling voids an unpaid order, and the order can no longer be fulfilled."),
    onSubmit: () => {
      client.commit((s) => {
        s.orders[id].cancelled = true;
        if (s.orders[id].financial_status === "pending") s.orders[id].financial_status = "voided";
      });
      toast(`${o.number} cancelled`);
      return undefined;
    },
  });
}
