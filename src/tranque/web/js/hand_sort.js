// «Ordenar fichas»: the player's own hand put in order, by number or by points. Only how the
// hand is laid out on this screen (no rule: what may be played still comes from the server's
// options); after a sort the player's drags order it as before. Pure: `node --test` runs it.

import { parseTile } from "./table_state.js";

export const SORTS = ["number", "points"];

// The tiles (keys "6-4") in the order `by` asks: "number" groups by the higher half, then
// the lower, smallest first (doubles at the end of their number, as a hand is held);
// "points" puts the heaviest first (the ones to get rid of), ties by number.
export function sortedHand(keys, by) {
  const tiles = keys.map((key) => ({ key, halves: parseTile(key).sort((a, b) => b - a) }));
  const byNumber = (x, y) => x.halves[0] - y.halves[0] || x.halves[1] - y.halves[1];
  const points = ({ halves }) => halves[0] + halves[1];
  const order = by === "points" ? (x, y) => points(y) - points(x) || byNumber(y, x) : byNumber;
  return tiles.sort(order).map(({ key }) => key);
}

// The sort a press of the button makes after `last` (null: none yet): number, points, …
export function nextSort(last) {
  return SORTS[(SORTS.indexOf(last) + 1) % SORTS.length];
}
