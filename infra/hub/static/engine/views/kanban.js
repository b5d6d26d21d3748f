// A board: one column per option of the view's enum field (`group`), a card per record. A card opens
// its record in a detail pane; moving it is the pane's select, or dragging the card to a column.
// The pipeline archetype is this board with each column's total of the view's money field.
import { formatMoney, h } from "../../../_hub/static/dom.js";
import { badge, detailPane, optionLabel, recordLink, toolbar, visibleRecords } from "../core.js";

export function render(ctx, { totals = false } = {}) {
  const { def, client, view } = ctx;
  const entity = view.entity;
  const f = def.entities[entity].fields[view.group];
  const rows = visibleRecords(ctx);
  const columns = f.options.map((option) => {
    const cards = rows.filter(([, r]) => r[view.group] === option);
    const sum = totals && view.total ? cards.reduce((acc, [, r]) => acc + (Number(r[view.total]) || 0), 0) : null;
    return h("section", { class: "lane", "data-lane": option, "aria-label": `${optionLabel(option)} column`,
      ondragover: (e) => e.preventDefault(),
      ondrop: (e) => {
        e.preventDefault();
        const id = e.dataTransfer.getData("text/plain");
        if (client.state[entity][id] && client.state[entity][id][view.group] !== option) {
          client.commit((s) => { s[entity][id][view.group] = option; });
        }
      } },
      h("header", { class: "lane-head" }, h("span", {}, optionLabel(option)), h("span", { class: "count" }, String(cards.length)),
        sum !== null ? h("span", { class: "lane-total" }, formatMoney(sum, def.currency)) : null),
      cards.map(([id, r]) => h("article", { class: `card${id === ctx.record ? " selected" : ""}`, draggable: "true", "data-id": id,
        ondragstart: (e) => e.dataTransfer.setData("text/plain", id) },
        recordLink(ctx, entity, id),
        h("div", { class: "card-meta" }, view.columns.filter((k) => k !== def.entities[entity].title).map((k) =>
          h("span", { class: "card-field" }, badge(def, client.state, entity, k, r[k])))))));
  });
  return h("div", { class: `view view-board${ctx.record ? " with-detail" : ""}` },
    h("div", { class: "view-main" }, toolbar(ctx), h("div", { class: "lanes" }, columns)),
    ctx.record ? detailPane(ctx, entity, ctx.record, { related: view.related }) : null);
}
