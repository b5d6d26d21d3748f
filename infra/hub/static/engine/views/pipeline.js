// A sales pipeline: the kanban board with each stage's total of the view's money field.
import { render as board } from "./kanban.js";

export function render(ctx) {
  return board(ctx, { totals: true });
}
