// A shop front: product cards (image placeholder, category, price, stock, "Add <product> to cart"),
// a cart panel (a spin button "Quantity of <product>" and "Remove <product> from cart" per line, the
// subtotal) and a Checkout dialog that creates an order record and one line record per cart line,
// then empties the cart. The cart is records too, so it survives a reload and shows in the state.
//
// options (field keys; entities name the definition's entities):
//   price, stock, category, color: the product fields shown on a card (defaults: price, stock,
//     category, color; color tints the image placeholder)
//   cart: {entity, product, quantity}                      the cart's line records
//   order: {entity, customer?, total, fields: [...], coupon?, number?}  the order Checkout creates;
//     `number` (a text field) gets the new order's id, so the order has a title from the start;
//     `fields` are asked in the checkout form (labelled by their field labels); `total` gets the
//     subtotal less the coupon; readonly stamps get the app's clock and user as in any new record
//   lines: {entity, order, product, quantity, price}        one per cart line, the unit price copied
//   coupons: {entity, code, percent, active?}               `order.coupon` (a text field) is checked
//     against these: an active coupon's percent comes off the total; an unknown code is refused
import { formatMoney, h, icon, openDialog, field, toast } from "../../../_hub/static/dom.js";
import { addRecord, badge, control, detailPane, label, recordLink, titleOf, toolbar, visibleRecords } from "../core.js";

export const stylesheet = true;

function opts(view) {
  return { price: "price", stock: "stock", category: "category", color: "color", ...view.options };
}

const round = (n) => Math.round(n * 100) / 100;

function cartLines(ctx, o) {
  const s = ctx.client.state;
  return Object.entries(s[o.cart.entity] || {}).filter(([, c]) => s[ctx.view.entity]?.[c[o.cart.product]]);
}

function addToCart(ctx, o, pid) {
  const c = o.cart;
  ctx.client.commit((s) => {
    const found = Object.entries(s[c.entity] || {}).find(([, line]) => line[c.product] === pid);
    if (found) found[1][c.quantity] = (Number(found[1][c.quantity]) || 0) + 1;
    else addRecord(ctx.def, s, c.entity, { [c.product]: pid, [c.quantity]: 1 });
  });
  toast(`Added ${titleOf(ctx.def, ctx.client.state, ctx.view.entity, pid)} to the cart`, "success");
}

function couponPercent(ctx, o, code) {
  const k = o.coupons;
  if (!k || !code) return 0;
  const found = Object.values(ctx.client.state[k.entity] || {}).find((c) =>
    String(c[k.code] || "").trim().toLowerCase() === String(code).trim().toLowerCase() && (!k.active || c[k.active]));
  return found ? Number(found[k.percent]) || 0 : null;
}

function checkout(ctx, o) {
  const { def, client } = ctx;
  const order = o.order;
  const values = {};
  const fields = order.fields || [];
  const subtotal = cartLines(ctx, o).reduce((acc, [, c]) =>
    acc + (Number(client.state[ctx.view.entity][c[o.cart.product]][o.price]) || 0) * (Number(c[o.cart.quantity]) || 0), 0);
  const body = h("div", { class: "form-grid" },
    h("p", { class: "checkout-sum" }, `${cartLines(ctx, o).length} item line(s), subtotal ${formatMoney(round(subtotal), def.currency)}`),
    fields.map((key) => field(label(def, order.entity, key),
      control(def, client.state, order.entity, key, null, { onChange: (v) => { values[key] = v; } }))));
  openDialog({ title: "Checkout", name: "checkout", submitLabel: "Place order", body, onSubmit: (data) => {
    for (const key of fields) if (values[key] === undefined && data[key] !== undefined) values[key] = data[key];
    const spec = def.entities[order.entity].fields;
    const missing = fields.filter((key) => spec[key].required && (values[key] === undefined || values[key] === null || values[key] === ""));
    if (missing.length) return `Fill in ${missing.map((key) => label(def, order.entity, key)).join(", ")}.`;
    if (!cartLines(ctx, o).length) return "The cart is empty.";
    let percent = 0;
    if (order.coupon && values[order.coupon]) {
      values[order.coupon] = String(values[order.coupon]).trim().toUpperCase();
      percent = couponPercent(ctx, o, values[order.coupon]);
      if (percent === null) return `Coupon ${values[order.coupon]} is not valid.`;
    }
    let created = null;
    client.commit((s) => {
      const lines = cartLines({ ...ctx, client: { state: s } }, o);
      const sum = lines.reduce((acc, [, c]) => acc + (Number(s[ctx.view.entity][c[o.cart.product]][o.price]) || 0) * (Number(c[o.cart.quantity]) || 0), 0);
      const given = { ...values, [order.total]: round(sum * (1 - percent / 100)) };
      if (order.customer && !(order.customer in given)) given[order.customer] = s.current_user;
      created = addRecord(def, s, order.entity, given);
      if (order.number) s[order.entity][created][order.number] = created;
      for (const [cid, c] of lines) {
        const l = o.lines;
        addRecord(def, s, l.entity, { [l.order]: created, [l.product]: c[o.cart.product], [l.quantity]: Number(c[o.cart.quantity]),
          [l.price]: Number(s[ctx.view.entity][c[o.cart.product]][o.price]) || 0 });
        delete s[o.cart.entity][cid];
      }
    });
    toast(`Order ${created} placed`, "success");
    return undefined;
  } });
}

function cartPanel(ctx, o) {
  const { def, client, view } = ctx;
  const s = client.state;
  const lines = cartLines(ctx, o);
  const c = o.cart;
  let subtotal = 0;
  const rows = lines.map(([cid, line]) => {
    const pid = line[c.product];
    const name = titleOf(def, s, view.entity, pid);
    const price = Number(s[view.entity][pid][o.price]) || 0;
    const qty = Number(line[c.quantity]) || 0;
    subtotal += price * qty;
    return h("li", { class: "cart-line", "data-id": cid },
      h("span", { class: "thumb", style: `background:${s[view.entity][pid][o.color] || "#adb5bd"}` }),
      h("div", { class: "cart-name" }, h("strong", {}, name), h("span", { class: "muted" }, formatMoney(price, def.currency))),
      h("input", { type: "number", min: "1", step: "1", class: "qty", value: String(qty), "aria-label": `Quantity of ${name}`,
        onkeydown: (e) => { if (e.key === "Enter") e.target.blur(); },
        onchange: (e) => {
          const n = Math.max(1, Math.round(Number(e.target.value) || 1));
          client.commit((st) => { st[c.entity][cid][c.quantity] = n; });
        } }),
      h("span", { class: "line-total" }, formatMoney(round(price * qty), def.currency)),
      h("button", { type: "button", class: "icon-btn", "aria-label": `Remove ${name} from cart`,
        onclick: () => client.commit((st) => { delete st[c.entity][cid]; }) }, icon("trash", 14)));
  });
  return h("aside", { class: "cart", "aria-label": "Cart" },
    h("h2", {}, icon("orders", 18), "Cart", h("span", { class: "count" }, String(lines.length))),
    lines.length ? h("ul", { class: "cart-lines" }, rows) : h("p", { class: "muted cart-empty" }, "Your cart is empty."),
    h("div", { class: "cart-sum" }, h("span", {}, "Subtotal"), h("strong", {}, formatMoney(round(subtotal), def.currency))),
    h("button", { type: "button", class: "btn btn-primary checkout-btn", disabled: !lines.length, onclick: () => checkout(ctx, o) }, "Checkout"));
}

function card(ctx, o, id, r) {
  const { def, client, view } = ctx;
  const e = def.entities[view.entity];
  const name = titleOf(def, client.state, view.entity, id);
  const stock = o.stock in e.fields ? Number(r[o.stock] ?? 0) : null;
  const out = stock !== null && stock <= 0;
  const initials = name.split(/\s+/).map((w) => w[0]).join("").slice(0, 2).toUpperCase();
  const extra = view.columns.filter((k) => ![e.title, o.price, o.stock, o.category, o.color].includes(k));
  return h("article", { class: `product${id === ctx.record ? " selected" : ""}`, "data-id": id },
    h("div", { class: "product-img", style: `background:${r[o.color] || "#ced4da"}`, "aria-hidden": "true" }, h("span", {}, initials)),
    h("div", { class: "product-body" },
      o.category in e.fields && r[o.category] ? h("div", { class: "product-cat" }, badge(def, client.state, view.entity, o.category, r[o.category])) : null,
      recordLink(ctx, view.entity, id),
      extra.map((k) => h("div", { class: "product-extra muted" }, badge(def, client.state, view.entity, k, r[k]))),
      h("div", { class: "product-price" }, formatMoney(Number(r[o.price]) || 0, def.currency)),
      stock !== null ? h("div", { class: `stock${out ? " out" : stock <= 5 ? " low" : ""}` },
        out ? "Out of stock" : stock <= 5 ? `Only ${stock} left` : `${stock} in stock`) : null,
      h("button", { type: "button", class: "btn btn-primary add-cart", disabled: out, "aria-label": `Add ${name} to cart`,
        onclick: () => addToCart(ctx, o, id) }, icon("plus", 14), "Add to cart")));
}

export function render(ctx) {
  const o = opts(ctx.view);
  const rows = visibleRecords(ctx);
  return h("div", { class: `view view-store${ctx.record ? " with-detail" : ""}` },
    h("div", { class: "view-main" }, toolbar(ctx),
      rows.length ? h("div", { class: "products", "aria-label": "Products" }, rows.map(([id, r]) => card(ctx, o, id, r)))
        : h("p", { class: "empty muted" }, "No products match.")),
    o.cart ? cartPanel(ctx, o) : null,
    ctx.record ? detailPane(ctx, ctx.view.entity, ctx.record, { related: ctx.view.related }) : null);
}
