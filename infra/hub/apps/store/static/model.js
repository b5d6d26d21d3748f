// Store domain helpers: derived totals (never stored), labels, and the mutations the UI performs.
import { cents, nowIso } from "../../_hub/static/dom.js";

export const CARRIERS = ["Parcel Express", "Postal Service", "FastFreight", "Other"];

export function orderTotals(s, order) {
  const subtotal = cents(order.lines.reduce((sum, l) => sum + l.price * l.quantity, 0));
  const discount = cents(order.discount?.amount || 0);
  const tax = cents((subtotal - discount) * (s.store.tax_rate || 0));
  const total = cents(subtotal - discount + (order.shipping || 0) + tax);
  return { subtotal, discount, tax, total, items: order.lines.reduce((n, l) => n + l.quantity, 0) };
}

export function customerName(s, id) {
  const c = s.customers[id];
  return c ? `${c.first_name} ${c.last_name}` : "No customer";
}

export function customerOrders(s, id) {
  return Object.entries(s.orders).filter(([, o]) => o.customer === id).sort(([, a], [, b]) => b.created.localeCompare(a.created));
}

export function inventoryOf(product) {
  return Object.values(product.variants).reduce((n, v) => n + (v.inventory || 0), 0);
}

export const FINANCIAL = { pending: ["Payment pending", "badge-yellow"], paid: ["Paid", "badge-gray"],
  refunded: ["Refunded", "badge-gray"], voided: ["Voided", "badge-gray"] };
export const FULFILMENT = { unfulfilled: ["Unfulfilled", "badge-yellow"], fulfilled: ["Fulfilled", "badge-gray"] };
export const PRODUCT_STATUS = { active: ["Active", "badge-green"], draft: ["Draft", "badge-blue"], archived: ["Archived", "badge-gray"] };
export const DISCOUNT_STATUS = { active: ["Active", "badge-green"], scheduled: ["Scheduled", "badge-blue"],
  expired: ["Expired", "badge-gray"], disabled: ["Disabled", "badge-gray"] };

/** Why `code` cannot be applied to `order`, or null when it can. */
export function discountProblem(s, order, code) {
  const d = s.discounts[code];
  if (!d) return `Discount code ${code} does not exist.`;
  if (d.status !== "active") return `${code} is ${d.status} and cannot be used.`;
  if (d.usage_limit != null && d.usage_count >= d.usage_limit) return `${code} has reached its usage limit.`;
  const { subtotal } = orderTotals(s, order);
  if (subtotal < (d.min_subtotal || 0)) return `${code} needs a subtotal of at least ${d.min_subtotal.toFixed(2)}.`;
  return null;
}

export function discountAmount(s, order, code) {
  const d = s.discounts[code];
  const { subtotal } = orderTotals(s, order);
  return d.kind === "percentage" ? cents((subtotal * d.value) / 100) : cents(Math.min(d.value, subtotal));
}

// ---- mutations (inside client.commit) ----

export function applyDiscount(s, orderId, code) {
  const order = s.orders[orderId];
  if (order.discount) s.discounts[order.discount.code].usage_count -= 1; // replacing a code frees its use
  order.discount = { code, amount: discountAmount(s, order, code) };
  s.discounts[code].usage_count += 1;
}

export function removeDiscount(s, orderId) {
  const order = s.orders[orderId];
  if (!order.discount) return;
  if (s.discounts[order.discount.code]) s.discounts[order.discount.code].usage_count -= 1;
  order.discount = null;
}

export function fulfilOrder(s, orderId, { carrier, tracking, notify }) {
  const order = s.orders[orderId];
  order.fulfillments = [...order.fulfillments, { carrier, tracking, created: nowIso(), notify_customer: notify }];
  order.fulfillment_status = "fulfilled";
}

export function slug(text) {
  return text.toLowerCase().replace(/[^a-z0-9]+/g, "_").replace(/^_|_$/g, "").slice(0, 40) || "item";
}

export function createProduct(s, fields) {
  let id = `p_${slug(fields.title)}`;
  for (let n = 2; s.products[id]; n += 1) id = `p_${slug(fields.title)}_${n}`;
  s.products[id] = {
    title: fields.title, description: fields.description, vendor: fields.vendor, type: fields.type, status: fields.status,
    tags: fields.tags, created: nowIso().slice(0, 10), updated_at: nowIso(),
    variants: { [`v_${id.slice(2)}`]: { title: "Default", sku: fields.sku, price: fields.price, compare_at: null,
      inventory: fields.inventory, options: {} } },
  };
  return id;
}

export function createCustomer(s, fields) {
  const numbers = Object.keys(s.customers).map((id) => Number.parseInt(id.replace(/\D/g, ""), 10) || 0);
  const id = `cu_${String(Math.max(0, ...numbers) + 1).padStart(2, "0")}`;
  s.customers[id] = { ...fields, tags: fields.tags || [], note: "", created: nowIso().slice(0, 10) };
  return id;
}
