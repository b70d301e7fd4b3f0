// The line of play as it lies on the table. The server lays every tile out (a snake that turns
// at the corners, docs/protocol.md "The line on the table"): each placed tile comes with a
// fixed box in half-tile units, and both open ends with where the next tile would touch. This
// module only draws that board, in one SVG whose user units are the server's units, scaled as
// a whole to fit its container (it zooms out when the line outgrows it, never moves a tile).
//
//   renderLine(container, { line, ends, choosing, hinted }, { onEnd })
//
// `line`: the boxes, left end first; `ends`: {left, right} or null before the lead;
// `choosing`: truthy while the player must pick an end (true, or a list of sides to light);
// `hinted`: the end a «Pista» from the server names ("left" or "right"), or null;
// `onEnd(side)`: called when an end's button is pressed (click, Enter or Space);
// `describe(box)`: what a placed tile says when hovered, tapped or read (how many of its
// numbers are out, the view's words); `onTile(box)`: called when a placed tile is tapped.
// Call it again with new props to update in place: tiles already drawn keep their elements
// (and focus stays on an end button), only new tiles are added.

import { svg, tileSvg } from "./tiles.js";
import { t } from "./i18n.js";
import { END_RADIUS, boardBounds, endAnchor, endRadius, fitView, litSides } from "./line_fit.js";

const MAX_SCALE = 30; // pixels per unit at most: a two-unit tile stays ≤ 60 px long
const MIN_TARGET = 34; // an end button is at least this many pixels across (a finger's tap)
const boards = new WeakMap(); // container -> its board

function keyOf(box) {
  return `${box.tile}@${box.x},${box.y},${box.w},${box.h},${box.pips.join("-")}`;
}

function createBoard(container) {
  const root = svg("svg", { class: "line-svg", role: "group", "aria-label": t("line_label") });
  const tiles = svg("g", { class: "line-tiles" });
  const endsLayer = svg("g", { class: "line-ends" });
  root.append(tiles, endsLayer);
  const board = { root, tiles, endsLayer, drawn: new Map(), ends: {}, props: null, onEnd: null, observer: null };
  for (const side of ["left", "right"]) {
    const button = svg("g", { class: `end end-${side}`, role: "button", tabindex: "0", "data-side": side });
    button.append(svg("circle", { class: "end-target", cx: 0, cy: 0, r: END_RADIUS }));
    const label = svg("text", { class: "end-pips", x: 0, y: 0, "text-anchor": "middle", "dominant-baseline": "central" });
    button.append(label);
    const press = () => board.onEnd && board.onEnd(side);
    button.addEventListener("click", press);
    button.addEventListener("keydown", (event) => {
      if (event.key === "Enter" || event.key === " ") {
        event.preventDefault();
        press();
      }
    });
    endsLayer.append(button);
    board.ends[side] = button;
  }
  container.replaceChildren(root);
  if (typeof ResizeObserver === "function") {
    board.observer = new ResizeObserver(() => fit(container, board));
    board.observer.observe(container);
  }
  boards.set(container, board);
  return board;
}

// Draw `line` and `ends` into `container`, reusing what is already there.
export function renderLine(container, { line = [], ends = null, choosing = null, hinted = null } = {}, { onEnd = null, describe = null, onTile = null } = {}) {
  let board = boards.get(container);
  if (!board || board.root.parentNode !== container) board = createBoard(container);
  board.props = { line: line || [], ends: ends || null, choosing, hinted };
  board.onEnd = onEnd;
  board.onTile = onTile;

  const wanted = new Set();
  for (const box of board.props.line) {
    const key = keyOf(box);
    wanted.add(key);
    if (board.drawn.has(key)) continue; // a placed tile never moves: its element stays as it is
    const element = tileSvg(box.pips[0], box.pips[1], { unit: 40, vertical: box.h > box.w });
    element.classList.add("placed");
    for (const [name, value] of Object.entries({ x: box.x, y: box.y, width: box.w, height: box.h })) {
      element.setAttribute(name, value);
    }
    element.dataset.tile = box.tile;
    element.dataset.x = box.x;
    element.dataset.y = box.y;
    element.dataset.w = box.w;
    element.dataset.h = box.h;
    element.dataset.pips = box.pips.join("-"); // as drawn: left (or top) half first
    element.append(svg("title"));
    element.addEventListener("click", () => board.onTile && board.onTile(box));
    board.tiles.append(element);
    board.drawn.set(key, element);
  }
  if (describe) {
    for (const box of board.props.line) {
      const said = describe(box);
      const title = board.drawn.get(keyOf(box)).querySelector("title");
      if (title.textContent !== said) title.textContent = said;
    }
  }
  for (const [key, element] of board.drawn) {
    if (!wanted.has(key)) {
      element.remove(); // a new round: last round's tiles leave the table
      board.drawn.delete(key);
    }
  }
  fit(container, board);
  return board.root;
}

// Size the view box to the container and place the end buttons (their radius grows when the
// board is zoomed far out, so a finger can still hit them, but never over a placed tile).
function fit(container, board) {
  if (!board.props) return;
  const { line, ends, choosing, hinted } = board.props;
  const width = container.clientWidth || 320;
  const height = container.clientHeight || 160;
  let view = fitView(boardBounds(line, ends), width, height, { maxScale: MAX_SCALE });
  const wanted = Math.max(END_RADIUS, MIN_TARGET / 2 / view.scale);
  const radii = {};
  for (const side of ["left", "right"]) radii[side] = ends && ends[side] ? endRadius(ends[side], line, wanted) : END_RADIUS;
  if (wanted > END_RADIUS) view = fitView(boardBounds(line, ends, radii), width, height, { maxScale: MAX_SCALE });
  board.root.setAttribute("viewBox", `${view.x} ${view.y} ${view.w} ${view.h}`);
  board.root.dataset.scale = view.scale;
  const lit = litSides(choosing);
  for (const side of ["left", "right"]) {
    const button = board.ends[side];
    const end = ends && ends[side];
    if (!end) {
      button.setAttribute("display", "none");
      button.setAttribute("tabindex", "-1");
      button.setAttribute("aria-hidden", "true");
      for (const key of ["pips", "x", "y", "dir"]) delete button.dataset[key];
      continue;
    }
    const radius = radii[side];
    const centre = endAnchor(end, radius);
    button.removeAttribute("display");
    button.removeAttribute("aria-hidden");
    button.setAttribute("tabindex", "0");
    button.setAttribute("transform", `translate(${centre.x} ${centre.y})`);
    button.dataset.pips = end.pips;
    button.dataset.x = end.x;
    button.dataset.y = end.y;
    button.dataset.dir = end.dir;
    button.firstChild.setAttribute("r", radius * 0.92);
    button.lastChild.textContent = String(end.pips);
    button.lastChild.setAttribute("font-size", radius * 1.1);
    button.classList.toggle("choose", lit.has(side));
    button.classList.toggle("hinted", hinted === side);
    let label = `${t(side === "left" ? "left_end" : "right_end")}: ${end.pips}`;
    if (lit.has(side)) label += ` · ${t("line_play_here")}`;
    if (hinted === side) label += ` · ${t("hint_mark")}`;
    button.setAttribute("aria-label", label);
  }
}
