// Products: list with status tabs, product editor (one Save for all fields and variants), new product.
import { cents, field, formatMoney, h, icon, nowIso, openDialog, select, toast } from "../../_hub/static/dom.js";
import { PRODUCT_STATUS, createProduct, inventoryOf } from "./model.js";

const badge = ([label, cls]) => h("span", { class: `badge ${cls}` }, label);
const TABS = [["all", "All"], ["active", "Active"], ["draft", "Draft"], ["archived", "Archived"]];
const STATUS_OPTIONS = [["active", "Active"], ["draft", "Draft"], ["archived", "Archived"]];
const splitTags = (text) => [...new Set((text || "").split(",").map((t) => t.trim()).filter(Boolean))];

function thumb(title) {
  const hue = [...title].reduce((n, ch) => n + ch.charCodeAt(0), 0) % 360;
  return h("span", { class: "thumb", style: `background:hsl(${hue} 45% 88%);color:hsl(${hue} 40% 30%)` }, title.slice(0, 1));
}

export function renderProducts(client, view) {
  const s = client.state;
  const q = view.query.toLowerCase();
  const rows = Object.entries(s.products)
    .filter(([, p]) => view.tab === "all" || p.status === view.tab)
    .filter(([, p]) => !q || `${p.title} ${p.vendor} ${p.type}`.toLowerCase().includes(q))
    .sort(([, a], [, b]) => a.title.localeCompare(b.title));
  return h("div", { class: "page" },
    h("div", { class: "page-head" }, h("h1", {}, icon("box", 20), "Products"),
      h("a", { class: "btn btn-primary", href: "#/products/new" }, icon("plus", 14), "Add product")),
    h("div", { class: "card" },
      h("div", { class: "tabs", role: "tablist" }, TABS.map(([id, label]) => h("button", {
        type: "button", role: "tab", class: `tab${view.tab === id ? " active" : ""}`, onclick: () => view.set({ tab: id }),
      }, label))),
      h("div", { class: "table-tools" }, h("input", { type: "search", placeholder: "Search products", value: view.query,
        "aria-label": "Search products", oninput: (e) => view.set({ query: e.target.value }, true) })),
      h("table", { class: "table" },
        h("thead", {}, h("tr", {}, ["", "Product", "Status", "Inventory", "Type", "Vendor"].map((c) => h("th", {}, c)))),
        h("tbody", {}, rows.map(([id, p]) => {
          const stock = inventoryOf(p);
          const count = Object.keys(p.variants).length;
          return h("tr", { class: "clickable", "data-product": id, onclick: () => { location.hash = `#/products/${id}`; } },
            h("td", { class: "thumb-cell" }, thumb(p.title)), h("td", {}, h("b", {}, p.title)),
            h("td", {}, badge(PRODUCT_STATUS[p.status])),
            h("td", { class: stock === 0 ? "stock-out" : "" }, `${stock} in stock${count > 1 ? ` for ${count} variants` : ""}`),
            h("td", {}, p.type), h("td", {}, p.vendor));
        })))));
}

export function renderProduct(client, id) {
  const s = client.state;
  const p = s.products[id];
  if (!p) return h("div", { class: "empty" }, "Product not found. ", h("a", { href: "#/products" }, "Back to products"));
  const money = (v) => formatMoney(v, s.store.currency);
  const variantRows = Object.entries(p.variants).map(([vid, v]) => h("tr", { "data-variant": vid },
    h("td", {}, h("b", {}, v.title), h("div", { class: "muted" }, v.sku)),
    h("td", {}, h("input", { type: "number", name: `price:${vid}`, value: v.price, min: 0, step: "0.01", "aria-label": `Price of ${v.title}` })),
    h("td", {}, h("input", { type: "number", name: `compare:${vid}`, value: v.compare_at ?? "", min: 0, step: "0.01",
      placeholder: money(0), "aria-label": `Compare-at price of ${v.title}` })),
    h("td", {}, h("input", { type: "number", name: `inventory:${vid}`, value: v.inventory, step: 1, "aria-label": `Inventory of ${v.title}` }))));
  const form = h("form", { class: "product-form", onsubmit: (e) => { e.preventDefault(); save(); } },
    h("div", { class: "page-head" },
      h("div", { class: "title-row" }, h("a", { class: "icon-btn", href: "#/products", "aria-label": "Back to products" }, icon("chevronLeft")),
        h("h1", {}, p.title), badge(PRODUCT_STATUS[p.status])),
      h("div", { class: "head-actions" },
        h("button", { type: "button", class: "btn", onclick: () => duplicate() }, "Duplicate"),
        h("button", { type: "submit", class: "btn btn-primary" }, "Save"))),
    h("div", { class: "two-col" },
      h("div", { class: "col-main" },
        h("section", { class: "card panel" },
          field("Title", h("input", { name: "title", value: p.title })),
          field("Description", h("textarea", { name: "description", rows: 4, value: p.description }))),
        h("section", { class: "card panel" }, h("h3", {}, "Variants"),
          h("table", { class: "table variants" },
            h("thead", {}, h("tr", {}, ["Variant", "Price", "Compare-at price", "Available"].map((c) => h("th", {}, c)))),
            h("tbody", {}, variantRows)))),
      h("div", { class: "col-side" },
        h("section", { class: "card panel" }, field("Status", select("status", STATUS_OPTIONS, p.status))),
        h("section", { class: "card panel" }, h("h3", {}, "Product organization"),
          field("Product type", h("input", { name: "type", value: p.type })),
          field("Vendor", h("input", { name: "vendor", value: p.vendor })),
          field("Tags", h("input", { name: "tags", value: p.tags.join(", ") }))))));

  function save() {
    const data = Object.fromEntries(new FormData(form).entries());
    if (!data.title.trim()) return toast("Title can't be blank", "error");
    const next = { title: data.title.trim(), description: data.description, status: data.status, type: data.type.trim(),
      vendor: data.vendor.trim(), tags: splitTags(data.tags) };
    const variants = {};
    for (const vid of Object.keys(p.variants)) {
      const price = Number(data[`price:${vid}`]);
      if (!(price >= 0)) return toast("Prices must be zero or more", "error");
      variants[vid] = { price: cents(price), compare_at: data[`compare:${vid}`] === "" ? null : cents(data[`compare:${vid}`]),
        inventory: Math.trunc(Number(data[`inventory:${vid}`]) || 0) };
    }
    // Write only what differs, so an unchanged Save leaves the state (and the diff) as it was.
    const changed = Object.entries(next).some(([k, v]) => JSON.stringify(p[k]) !== JSON.stringify(v)) ||
      Object.entries(variants).some(([vid, v]) => Object.entries(v).some(([k, x]) => p.variants[vid][k] !== x));
    if (!changed) return toast("No changes to save");
    client.commit((st) => {
      const prod = st.products[id];
      for (const [k, v] of Object.entries(next)) if (JSON.stringify(prod[k]) !== JSON.stringify(v)) prod[k] = v;
      for (const [vid, v] of Object.entries(variants)) {
        for (const [k, x] of Object.entries(v)) if (prod.variants[vid][k] !== x) prod.variants[vid][k] = x;
      }
      prod.updated_at = nowIso();
    });
    return toast("Product saved", "success");
  }

  function duplicate() {
    openDialog({
      title: "Duplicate product", submitLabel: "Duplicate", name: "duplicate",
      body: field("Title", h("input", { name: "title", value: `Copy of ${p.title}` })),
      onSubmit: (data) => {
        const v = Object.values(p.variants)[0];
        const newId = client.commit((st) => createProduct(st, { title: data.title.trim() || `Copy of ${p.title}`,
          description: p.description, vendor: p.vendor, type: p.type, status: "draft", tags: [...p.tags], sku: "",
          price: v.price, inventory: 0 }));
        location.hash = `#/products/${newId}`;
        return undefined;
      },
    });
  }
  return h("div", { class: "page product-page" }, form);
}

export function renderNewProduct(client) {
  const form = h("form", { class: "product-form", onsubmit: (e) => {
    e.preventDefault();
    const data = Object.fromEntries(new FormData(form).entries());
    const title = data.title.trim();
    const price = Number(data.price);
    if (!title) return toast("Title can't be blank", "error");
    if (!(price >= 0) || data.price === "") return toast("Enter a price", "error");
    const id = client.commit((st) => createProduct(st, { title, description: data.description, vendor: data.vendor.trim(),
      type: data.type.trim(), status: data.status, tags: splitTags(data.tags), sku: data.sku.trim(), price: cents(price),
      inventory: Math.trunc(Number(data.inventory) || 0) }));
    toast("Product created", "success");
    location.hash = `#/products/${id}`;
    return undefined;
  } },
  h("div", { class: "page-head" },
    h("div", { class: "title-row" }, h("a", { class: "icon-btn", href: "#/products", "aria-label": "Back to products" }, icon("chevronLeft")),
      h("h1", {}, "Add product")),
    h("button", { type: "submit", class: "btn btn-primary" }, "Save")),
  h("div", { class: "two-col" },
    h("div", { class: "col-main" },
      h("section", { class: "card panel" }, field("Title", h("input", { name: "title", placeholder: "Short sleeve t-shirt" })),
        field("Description", h("textarea", { name: "description", rows: 4 }))),
      h("section", { class: "card panel" }, h("h3", {}, "Pricing and inventory"),
        h("div", { class: "field-row" }, field("Price", h("input", { type: "number", name: "price", min: 0, step: "0.01" })),
          field("SKU", h("input", { name: "sku" })), field("Quantity", h("input", { type: "number", name: "inventory", value: 0, step: 1 }))))),
    h("div", { class: "col-side" },
      h("section", { class: "card panel" }, field("Status", select("status", STATUS_OPTIONS, "draft"))),
      h("section", { class: "card panel" }, h("h3", {}, "Product organization"),
        field("Product type", h("input", { name: "type" })), field("Vendor", h("input", { name: "vendor" })),
        field("Tags", h("input", { name: "tags", placeholder: "comma, separated" }))))));
  return h("div", { class: "page product-page" }, form);
}
