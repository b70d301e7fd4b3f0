// The line of play as a snake that turns at the edges, so it always fits its box:
// row 0 runs left to right, row 1 right to left, and so on; doubles stand crosswise.

import { svg, tileSvg } from "./tiles.js";

const GAP = 2;

function rowsFor(layout, unit, width) {
  const rows = [[]];
  let used = 0;
  for (const [a, b] of layout) {
    const w = (a === b ? unit : unit * 2) + GAP;
    if (used + w > width && rows[rows.length - 1].length) {
      rows.push([]);
      used = 0;
    }
    rows[rows.length - 1].push([a, b]);
    used += w;
  }
  return rows;
}

// Lay `layout` ([[a, b], ...] left to right as played) out in a box of width × height.
export function lineSvg(layout, width, height, maxUnit = 30, minUnit = 11) {
  let unit = maxUnit;
  let rows = rowsFor(layout, unit, width);
  while (unit > minUnit && rows.length * (unit * 2 + GAP) > height) {
    unit -= 1;
    rows = rowsFor(layout, unit, width);
  }
  const rowHeight = unit * 2 + GAP;
  const totalHeight = Math.max(rowHeight, rows.length * rowHeight);
  const root = svg("svg", { width, height: totalHeight, viewBox: `0 0 ${width} ${totalHeight}`, class: "line-svg" });
  rows.forEach((row, r) => {
    const reversed = r % 2 === 1;
    const rowWidth = row.reduce((sum, [a, b]) => sum + (a === b ? unit : unit * 2) + GAP, -GAP);
    // Center a lone first row; later rows start from the edge the snake turned at.
    let x = rows.length === 1 ? (width - rowWidth) / 2 : reversed ? width - 1 : 1;
    for (const [a, b] of row) {
      const double = a === b;
      const w = double ? unit : unit * 2;
      const left = reversed ? x - w : x;
      const y = r * rowHeight + (double ? 0 : unit / 2);
      const tile = tileSvg(reversed ? b : a, reversed ? a : b, { unit, vertical: double });
      tile.setAttribute("x", left);
      tile.setAttribute("y", y);
      tile.classList.add("placed");
      root.append(tile);
      x = reversed ? x - w - GAP : x + w + GAP;
    }
  });
  return { element: root, unit, rows: rows.length };
}
