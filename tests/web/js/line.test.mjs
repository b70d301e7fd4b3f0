// The pure helpers of the line's drawing (js/line_fit.js): which part of the server's board
// to show and where the end buttons sit. `node --test tests/web/js/`.

import assert from "node:assert/strict";
import { test } from "node:test";

const { boardBounds, endAnchor, endRadius, fitView, litSides, END_RADIUS } = await import(
  new URL("../../../src/tranque/web/js/line_fit.js", import.meta.url)
);

const lead = { tile: "6-4", x: -1, y: -0.5, w: 2, h: 1, pips: [6, 4] };
const right = { tile: "4-4", x: 1, y: -1, w: 1, h: 2, pips: [4, 4] };
const ends = {
  left: { x: -1, y: 0, dir: "left", pips: 6 },
  right: { x: 2, y: 0, dir: "right", pips: 4 },
};

test("an end's button sits just past the end, along the way the line grows", () => {
  assert.deepEqual(endAnchor({ x: 2, y: 0, dir: "right" }, 1), { x: 3, y: 0 });
  assert.deepEqual(endAnchor({ x: -1, y: 0, dir: "left" }, 1), { x: -2, y: 0 });
  assert.deepEqual(endAnchor({ x: 9.5, y: 1.5, dir: "down" }, 0.5), { x: 9.5, y: 2 });
  assert.deepEqual(endAnchor({ x: -9.5, y: -1.5, dir: "up" }, 0.5), { x: -9.5, y: -2 });
});

test("the board's bounds hold every box and both end buttons", () => {
  assert.equal(boardBounds([], null), null);
  assert.deepEqual(boardBounds([lead, right], null), { x: -1, y: -1, w: 3, h: 2 });
  // Buttons of radius 1 centred one unit past each end: two more units each side.
  assert.deepEqual(boardBounds([lead, right], ends, 1), { x: -3, y: -1, w: 7, h: 2 });
  assert.ok(boardBounds([lead, right], ends).w > 3 + 2 * END_RADIUS);
});

test("a button grown for a finger shrinks until it covers no tile of a row that turned beside it", () => {
  // The right end points right at (2, 0); a tile of the next row lies one unit below it.
  const below = { tile: "1-1", x: 2, y: 1, w: 1, h: 2, pips: [1, 1] };
  assert.equal(endRadius(ends.right, [lead, right], 1.4), 1.4); // nothing in the way: as wanted
  const r = endRadius(ends.right, [lead, right, below], 1.4);
  assert.ok(r < 1.4 && r >= 0.25, r);
  const c = endAnchor(ends.right, r);
  const nx = Math.min(Math.max(c.x, below.x), below.x + below.w);
  const ny = Math.min(Math.max(c.y, below.y), below.y + below.h);
  assert.ok(Math.hypot(c.x - nx, c.y - ny) >= r - 1e-9);
  // Each end's own radius widens the bounds on its own side only.
  const bounds = boardBounds([lead, right], ends, { left: 1, right: 0.5 });
  assert.deepEqual(bounds, { x: -3, y: -1, w: 6, h: 2 });
});

test("a short line is not blown up: the scale stops at maxScale and the board is centred", () => {
  const view = fitView({ x: -1, y: -0.5, w: 2, h: 1 }, 1000, 400, { maxScale: 30, margin: 0.5 });
  assert.equal(view.scale, 30);
  assert.equal(view.w, 1000 / 30);
  assert.equal(view.h, 400 / 30);
  assert.equal(view.x + view.w / 2, 0); // centred on the board
  assert.equal(view.y + view.h / 2, 0);
});

test("a board wider than its box zooms out to fit it whole, with the margin", () => {
  // A 15-unit-wide snake (the server's bound) on a 340 px phone board.
  const view = fitView({ x: -7.5, y: -4, w: 15, h: 8 }, 340, 300, { maxScale: 30, margin: 0.5 });
  assert.equal(view.scale, 340 / 16);
  assert.ok(view.x <= -8 + 1e-9 && view.x + view.w >= 8 - 1e-9);
  assert.ok(view.y <= -4.5 && view.y + view.h >= 4.5);
});

test("a tall board is limited by the height, and keeps the aspect of its box", () => {
  const view = fitView({ x: -9.5, y: -20, w: 19, h: 40 }, 1000, 410, { maxScale: 30, margin: 0.5 });
  assert.equal(view.scale, 410 / 41);
  assert.ok(Math.abs(view.w / view.h - 1000 / 410) < 1e-9);
});

test("as the line grows the scale only shrinks: placed tiles keep their board coordinates", () => {
  let previous = Infinity;
  const line = [lead];
  for (let n = 1; n < 40; n++) line.push({ tile: `t${n}`, x: (n % 8) * 2 - 8, y: Math.floor(n / 8) * 2, w: 2, h: 1, pips: [1, 2] });
  for (let k = 1; k <= line.length; k++) {
    const { scale } = fitView(boardBounds(line.slice(0, k), null), 600, 300);
    assert.ok(scale <= previous + 1e-9, `scale grew at ${k}`);
    previous = scale;
  }
});

test("which ends light up while choosing", () => {
  assert.deepEqual([...litSides(null)], []);
  assert.deepEqual([...litSides(true)].sort(), ["left", "right"]);
  assert.deepEqual([...litSides(["right"])], ["right"]);
  assert.deepEqual([...litSides({ sides: ["left"] })], ["left"]);
});
