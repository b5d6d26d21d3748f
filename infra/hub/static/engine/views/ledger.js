// A bank/books ledger: one account's transactions in date order with debit, credit and a running
// balance, a totals row, and the open transaction's detail pane. The account is picked in a select
// named "Account" above the register (it is kept as the view's filter on the account field, so the
// search box and other filters narrow the same rows).
//
// options (all optional except `account`):
//   account: the transaction's ref field to the account entity
//   date:    the date (or datetime) field the register is ordered by (default: the first date field)
//   kind:    an enum field telling debits from credits; `debit` names its debit value or values
//            (default "debit").
//            Without `kind`, a negative amount is a debit.
//   opening: the account entity's money field the running balance starts from
//   show:    extra transaction fields shown between the description and the amounts
// The view's `total` is the money field of each transaction's amount.
import { formatMoney, h } from "../../../_hub/static/dom.js";
import { badge, detailPane, display, label, recordLink, titleOf, toolbar, visibleRecords } from "../core.js";

export const stylesheet = true;

const round = (n) => Math.round(n * 100) / 100;

/** The debit and credit of one transaction (both positive, one of them zero). */
function split(view, record) {
  const o = view.options || {};
  const amount = Number(record[view.total]) || 0;
  if (o.kind) {
    const isDebit = [].concat(o.debit || "debit").includes(record[o.kind]);
    return isDebit ? [Math.abs(amount), 0] : [0, Math.abs(amount)];
  }
  return amount < 0 ? [-amount, 0] : [0, amount];
}

export function render(ctx) {
  const { def, client, view } = ctx;
  const o = view.options || {};
  const entity = view.entity;
  const e = def.entities[entity];
  const accountKey = o.account;
  const accountEntity = e.fields[accountKey].to;
  const dateKey = o.date || Object.entries(e.fields).find(([, f]) => f.type === "date" || f.type === "datetime")?.[0];
  const accounts = Object.keys(client.state[accountEntity] || {});
  if (!accounts.includes(ctx.filters[accountKey])) ctx.filters[accountKey] = accounts[0];
  const accountId = ctx.filters[accountKey];
  const account = client.state[accountEntity]?.[accountId] || {};
  const opening = o.opening ? Number(account[o.opening]) || 0 : 0;

  const rows = visibleRecords(ctx).sort(([ia, a], [ib, b]) =>
    String(a[dateKey] ?? "").localeCompare(String(b[dateKey] ?? "")) || ia.localeCompare(ib));
  // The balance runs over every transaction of the account, so a search never changes a row's balance.
  const all = Object.entries(client.state[entity] || {}).filter(([, r]) => r[accountKey] === accountId)
    .sort(([ia, a], [ib, b]) => String(a[dateKey] ?? "").localeCompare(String(b[dateKey] ?? "")) || ia.localeCompare(ib));
  const balances = {};
  let running = opening;
  let debits = 0;
  let credits = 0;
  for (const [id, r] of all) {
    const [dr, cr] = split(view, r);
    running = round(running - dr + cr);
    balances[id] = running;
  }
  for (const [, r] of rows) {
    const [dr, cr] = split(view, r);
    debits = round(debits + dr);
    credits = round(credits + cr);
  }
  const money = (n) => formatMoney(n, def.currency);
  const show = (o.show || []).filter((k) => k in e.fields);

  const picker = h("label", { class: "ledger-account" }, h("span", {}, "Account"),
    h("select", { "aria-label": "Account", onchange: (ev) => ctx.setFilter(accountKey, ev.target.value) },
      accounts.map((id) => h("option", { value: id, selected: id === accountId }, titleOf(def, client.state, accountEntity, id)))));
  const summary = h("div", { class: "ledger-summary" },
    h("div", { class: "ledger-stat" }, h("span", {}, "Opening balance"), h("strong", {}, money(opening))),
    h("div", { class: "ledger-stat" }, h("span", {}, "Money out"), h("strong", { class: "debit" }, money(debits))),
    h("div", { class: "ledger-stat" }, h("span", {}, "Money in"), h("strong", { class: "credit" }, money(credits))),
    h("div", { class: "ledger-stat main" }, h("span", {}, "Current balance"), h("strong", {}, money(running))));

  const table = h("table", { class: "ledger-table", "aria-label": `${view.label} register` },
    h("thead", {}, h("tr", {}, h("th", {}, label(def, entity, dateKey)), h("th", {}, label(def, entity, e.title)),
      show.map((k) => h("th", {}, label(def, entity, k))),
      h("th", { class: "num" }, "Debit"), h("th", { class: "num" }, "Credit"), h("th", { class: "num" }, "Balance"))),
    h("tbody", {}, rows.map(([id, r]) => {
      const [dr, cr] = split(view, r);
      return h("tr", { class: id === ctx.record ? "selected" : "", "data-id": id },
        h("td", { class: "date" }, display(def, client.state, entity, dateKey, r[dateKey])),
        h("td", { class: "desc" }, recordLink(ctx, entity, id)),
        show.map((k) => h("td", {}, badge(def, client.state, entity, k, r[k]))),
        h("td", { class: "num debit" }, dr ? money(dr) : ""),
        h("td", { class: "num credit" }, cr ? money(cr) : ""),
        h("td", { class: `num balance${balances[id] < 0 ? " negative" : ""}` }, money(balances[id] ?? 0)));
    })),
    h("tfoot", {}, h("tr", { class: "totals" }, h("td", {}, "Totals"), h("td", {}, `${rows.length} transactions`),
      show.map(() => h("td", {})),
      h("td", { class: "num debit" }, money(debits)), h("td", { class: "num credit" }, money(credits)),
      h("td", { class: "num balance" }, money(running)))));

  return h("div", { class: `view view-ledger${ctx.record ? " with-detail" : ""}` },
    h("div", { class: "view-main" }, toolbar(ctx, entity, [picker]), summary,
      rows.length ? table : h("p", { class: "empty muted" }, `No ${(e.plural || `${e.label}s`).toLowerCase()} in this account.`)),
    ctx.record ? detailPane(ctx, entity, ctx.record, { related: view.related }) : null);
}
