// Customers (list, profile with notes and tags, add customer) and discounts (list, create, enable/disable).
import { field, formatDate, formatMoney, h, icon, openDialog, select, toast } from "../../_hub/static/dom.js";
import { DISCOUNT_STATUS, FINANCIAL, createCustomer, customerName, customerOrders, orderTotals } from "./model.js";

const badge = ([label, cls]) => h("span", { class: `badge ${cls}` }, label);
const splitTags = (text) => [...new Set((text || "").split(",").map((t) => t.trim()).filter(Boolean))];

function spent(s, id) {
  return customerOrders(s, id).filter(([, o]) => o.financial_status === "paid").reduce((n, [, o]) => n + orderTotals(s, o).total, 0);
}

export function renderCustomers(client, view) {
  const s = client.state;
  const q = view.query.toLowerCase();
  const rows = Object.entries(s.customers)
    .filter(([id, c]) => !q || `${customerName(s, id)} ${c.email} ${c.city}`.toLowerCase().includes(q))
    .sort(([a], [b]) => customerName(s, a).localeCompare(customerName(s, b)));
  return h("div", { class: "page" },
    h("div", { class: "page-head" }, h("h1", {}, icon("users", 20), "Customers"),
      h("button", { type: "button", class: "btn btn-primary", onclick: () => addCustomerDialog(client) }, icon("plus", 14), "Add customer")),
    h("div", { class: "card" },
      h("div", { class: "table-tools" }, h("input", { type: "search", placeholder: "Search customers", value: view.query,
        "aria-label": "Search customers", oninput: (e) => view.set({ query: e.target.value }, true) })),
      h("table", { class: "table" },
        h("thead", {}, h("tr", {}, ["Customer name", "Email subscription", "Location", "Orders", "Amount spent"].map((c) => h("th", {}, c)))),
        h("tbody", {}, rows.map(([id, c]) => h("tr", { class: "clickable", "data-customer": id, onclick: () => { location.hash = `#/customers/${id}`; } },
          h("td", {}, h("b", {}, customerName(s, id)), c.tags.map((t) => h("span", { class: "badge badge-gray tag" }, t))),
          h("td", {}, c.accepts_marketing ? badge(["Subscribed", "badge-green"]) : badge(["Not subscribed", "badge-gray"])),
          h("td", {}, `${c.city}, ${c.country}`), h("td", {}, customerOrders(s, id).length),
          h("td", {}, formatMoney(spent(s, id), s.store.currency))))))));
}

export function renderCustomer(client, id) {
  const s = client.state;
  const c = s.customers[id];
  if (!c) return h("div", { class: "empty" }, "Customer not found. ", h("a", { href: "#/customers" }, "Back to customers"));
  const orders = customerOrders(s, id);
  const set = (changes) => client.commit((st) => Object.assign(st.customers[id], changes));
  return h("div", { class: "page" },
    h("div", { class: "page-head" }, h("div", { class: "title-row" },
      h("a", { class: "icon-btn", href: "#/customers", "aria-label": "Back to customers" }, icon("chevronLeft")),
      h("h1", {}, customerName(s, id)), h("span", { class: "muted" }, `${c.city}, ${c.country} · Customer since ${formatDate(c.created, true)}`))),
    h("div", { class: "two-col" },
      h("div", { class: "col-main" },
        h("section", { class: "card panel stats" },
          h("div", {}, h("span", { class: "muted" }, "Amount spent"), h("b", {}, formatMoney(spent(s, id), s.store.currency))),
          h("div", {}, h("span", { class: "muted" }, "Orders"), h("b", {}, orders.length))),
        h("section", { class: "card panel" }, h("h3", {}, "Orders"),
          orders.length ? h("table", { class: "table" }, h("tbody", {}, orders.map(([oid, o]) => h("tr", { class: "clickable",
            onclick: () => { location.hash = `#/orders/${oid}`; } }, h("td", {}, h("b", {}, o.number)), h("td", {}, formatDate(o.created, true)),
          h("td", {}, badge(FINANCIAL[o.financial_status])), h("td", {}, formatMoney(orderTotals(s, o).total, s.store.currency))))))
            : h("p", { class: "muted" }, "This customer hasn't placed any orders yet."))),
      h("div", { class: "col-side" },
        h("section", { class: "card panel" }, h("h3", {}, "Contact information"),
          h("div", {}, c.email), h("div", { class: "muted" }, c.phone || "No phone number"),
          h("label", { class: "check marketing" }, h("input", { type: "checkbox", checked: c.accepts_marketing, "aria-label": "Email marketing",
            onchange: (e) => set({ accepts_marketing: e.target.checked }) }), "Subscribed to email marketing")),
        h("section", { class: "card panel" }, h("h3", {}, "Tags"),
          h("input", { value: c.tags.join(", "), placeholder: "vip, wholesale", "aria-label": "Customer tags",
            onchange: (e) => set({ tags: splitTags(e.target.value) }) })),
        h("section", { class: "card panel" }, h("h3", {}, "Notes"),
          h("textarea", { rows: 3, value: c.note, placeholder: "Add a note about this customer", "aria-label": "Customer note",
            onchange: (e) => set({ note: e.target.value }) })))));
}

function addCustomerDialog(client) {
  openDialog({
    title: "New customer", submitLabel: "Save customer", name: "add-customer",
    body: [
      h("div", { class: "field-row" }, field("First name", h("input", { name: "first_name" })), field("Last name", h("input", { name: "last_name" }))),
      field("Email", h("input", { type: "email", name: "email" })), field("Phone", h("input", { name: "phone" })),
      h("div", { class: "field-row" }, field("City", h("input", { name: "city" })), field("Country code", h("input", { name: "country", placeholder: "US" }))),
      h("label", { class: "check" }, h("input", { type: "checkbox", name: "accepts_marketing" }), "Customer agreed to receive marketing emails"),
    ],
    onSubmit: (data) => {
      if (!data.first_name.trim() || !data.last_name.trim()) return "Enter a first and last name.";
      if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(data.email.trim())) return "Enter a valid email address.";
      if (Object.values(client.state.customers).some((c) => c.email === data.email.trim())) return "A customer with this email already exists.";
      const id = client.commit((s) => createCustomer(s, { first_name: data.first_name.trim(), last_name: data.last_name.trim(),
        email: data.email.trim(), phone: data.phone.trim(), city: data.city.trim(), country: data.country.trim().toUpperCase(),
        accepts_marketing: !!data.accepts_marketing }));
      location.hash = `#/customers/${id}`;
      return undefined;
    },
  });
}

export function renderDiscounts(client) {
  const s = client.state;
  const rows = Object.values(s.discounts).sort((a, b) => a.code.localeCompare(b.code));
  const money = (v) => formatMoney(v, s.store.currency);
  return h("div", { class: "page" },
    h("div", { class: "page-head" }, h("h1", {}, icon("percent", 20), "Discounts"),
      h("button", { type: "button", class: "btn btn-primary", onclick: () => createDiscountDialog(client) }, icon("plus", 14), "Create discount")),
    h("div", { class: "card" }, h("table", { class: "table" },
      h("thead", {}, h("tr", {}, ["Code", "Status", "Discount", "Minimum", "Used", "Active dates", ""].map((c) => h("th", {}, c)))),
      h("tbody", {}, rows.map((d) => h("tr", { "data-discount": d.code },
        h("td", {}, h("b", { class: "mono" }, d.code)), h("td", {}, badge(DISCOUNT_STATUS[d.status])),
        h("td", {}, d.kind === "percentage" ? `${d.value}% off` : `${money(d.value)} off`),
        h("td", {}, d.min_subtotal ? money(d.min_subtotal) : "None"),
        h("td", {}, d.usage_limit ? `${d.usage_count} / ${d.usage_limit}` : d.usage_count),
        h("td", { class: "muted" }, `${formatDate(d.starts, true)} – ${d.ends ? formatDate(d.ends, true) : "no end date"}`),
        h("td", {}, ["active", "disabled"].includes(d.status) ? h("button", { type: "button", class: "btn btn-sm", onclick: () => {
          client.commit((st) => { st.discounts[d.code].status = d.status === "active" ? "disabled" : "active"; });
          toast(`${d.code} ${d.status === "active" ? "disabled" : "enabled"}`);
        } }, d.status === "active" ? "Disable" : "Enable") : null)))))));
}

function createDiscountDialog(client) {
  openDialog({
    title: "Create discount code", submitLabel: "Save discount", name: "create-discount",
    body: [
      field("Discount code", h("input", { name: "code", placeholder: "e.g. SPRING20", autocomplete: "off" }), "Customers enter this code at checkout."),
      h("div", { class: "field-row" },
        field("Type", select("kind", [["percentage", "Percentage"], ["fixed", "Fixed amount"]], "percentage")),
        field("Value", h("input", { type: "number", name: "value", min: 0, step: "0.01" }))),
      h("div", { class: "field-row" },
        field("Minimum subtotal", h("input", { type: "number", name: "min_subtotal", min: 0, step: "0.01", value: 0 })),
        field("Usage limit", h("input", { type: "number", name: "usage_limit", min: 1, step: 1, placeholder: "No limit" }))),
      h("div", { class: "field-row" },
        field("Start date", h("input", { type: "date", name: "starts" })), field("End date", h("input", { type: "date", name: "ends" }))),
    ],
    onSubmit: (data) => {
      const code = data.code.trim().toUpperCase();
      const value = Number(data.value);
      if (!/^[A-Z0-9_-]{3,32}$/.test(code)) return "Codes are 3–32 letters, digits, hyphens or underscores.";
      if (client.state.discounts[code]) return `${code} already exists.`;
      if (!(value > 0)) return "Enter a value greater than 0.";
      if (data.kind === "percentage" && value > 100) return "A percentage can't be over 100.";
      if (!data.starts) return "Choose a start date.";
      if (data.ends && data.ends < data.starts) return "The end date must be after the start date.";
      client.commit((s) => {
        s.discounts[code] = { code, kind: data.kind, value, status: "active", min_subtotal: Number(data.min_subtotal) || 0,
          usage_count: 0, usage_limit: data.usage_limit ? Math.trunc(Number(data.usage_limit)) : null, starts: data.starts, ends: data.ends || null };
      });
      toast(`${code} created`, "success");
      return undefined;
    },
  });
}
