// Dominó tiles drawn in SVG with real pips (0–9, for double-six and double-nine).

import { tileLabel } from "./i18n.js";

const SVG = "http://www.w3.org/2000/svg";
const L = 0.24, M = 0.5, H = 0.76;
// Pip positions in a unit square, by number.
const PIPS = [
  [],
  [[M, M]],
  [[L, L], [H, H]],
  [[L, L], [M, M], [H, H]],
  [[L, L], [H, L], [L, H], [H, H]],
  [[L, L], [H, L], [M, M], [L, H], [H, H]],
  [[L, L], [H, L], [L, M], [H, M], [L, H], [H, H]],
  [[L, L], [H, L], [L, M], [M, M], [H, M], [L, H], [H, H]],
  [[L, L], [M, L], [H, L], [L, M], [H, M], [L, H], [M, H], [H, H]],
  [[L, L], [M, L], [H, L], [L, M], [M, M], [H, M], [L, H], [M, H], [H, H]],
];

export function svg(name, attributes = {}) {
  const element = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, value);
  return element;
}

// A tile as an <svg>: halves a (left or top) and b; `unit` is the size of one half.
export function tileSvg(a, b, { unit = 28, vertical = false, back = false, label = true } = {}) {
  const width = vertical ? unit : unit * 2;
  const height = vertical ? unit * 2 : unit;
  const root = svg("svg", { width, height, viewBox: `0 0 ${width} ${height}`, class: back ? "tile back" : "tile" });
  if (label && !back) {
    root.setAttribute("role", "img");
    root.setAttribute("aria-label", tileLabel(a, b));
  } else {
    root.setAttribute("aria-hidden", "true");
  }
  root.append(svg("rect", { x: 0.75, y: 0.75, width: width - 1.5, height: height - 1.5, rx: unit * 0.16, class: "tile-body" }));
  if (back) return root;
  const line = vertical
    ? svg("line", { x1: unit * 0.12, y1: unit, x2: unit * 0.88, y2: unit, class: "tile-line" })
    : svg("line", { x1: unit, y1: unit * 0.12, x2: unit, y2: unit * 0.88, class: "tile-line" });
  root.append(line);
  const radius = unit * (a > 6 || b > 6 ? 0.075 : 0.09);
  [a, b].forEach((number, half) => {
    const dx = vertical ? 0 : half * unit;
    const dy = vertical ? half * unit : 0;
    for (const [x, y] of PIPS[number]) {
      root.append(svg("circle", { cx: dx + x * unit, cy: dy + y * unit, r: radius, class: "pip" }));
    }
  });
  return root;
}
