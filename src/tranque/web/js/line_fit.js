// Pure helpers for drawing the line: the board's bounds, where an end's button sits, and the
// view box that fits the board into its container. The geometry itself (every tile's box and
// both ends, in half-tile units) comes from the server (docs/protocol.md, "The line on the
// table"); nothing here decides where a tile goes, only how much of the board to show.

// How far an end's button sits past the end's point, and its radius, in board units.
export const END_RADIUS = 0.7;
const STEP = { left: [-1, 0], right: [1, 0], up: [0, -1], down: [0, 1] };

// The centre of the button for an end {x, y, dir}: just past the end, along the line's growth,
// so it is where the next tile would go and never covers a placed tile.
export function endAnchor(end, radius = END_RADIUS) {
  const [dx, dy] = STEP[end.dir] || [0, 0];
  return { x: end.x + dx * radius, y: end.y + dy * radius };
}

// The radius, at most `wanted`, of an end's button that covers no placed box. A button grown
// for a finger can reach a row of the snake that turned beside the end: then it shrinks until
// it clears every box (a tap on it is a tap on the end, never on a tile).
export function endRadius(end, line, wanted = END_RADIUS) {
  const clears = (r) => {
    const c = endAnchor(end, r);
    return (line || []).every((box) => {
      const nx = Math.min(Math.max(c.x, box.x), box.x + box.w);
      const ny = Math.min(Math.max(c.y, box.y), box.y + box.h);
      return Math.hypot(c.x - nx, c.y - ny) >= r - 1e-9;
    });
  };
  if (clears(wanted)) return wanted;
  let lo = MIN_RADIUS, hi = wanted;
  for (let i = 0; i < 24; i += 1) {
    const mid = (lo + hi) / 2;
    if (clears(mid)) lo = mid;
    else hi = mid;
  }
  return lo;
}
const MIN_RADIUS = 0.25;

// The smallest rectangle {x, y, w, h} holding every box and both end buttons (null if empty);
// `radius` is one radius for both buttons or {left, right}.
export function boardBounds(line, ends, radius = END_RADIUS) {
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  for (const box of line || []) {
    x0 = Math.min(x0, box.x); y0 = Math.min(y0, box.y);
    x1 = Math.max(x1, box.x + box.w); y1 = Math.max(y1, box.y + box.h);
  }
  if (ends) {
    for (const end of [ends.left, ends.right]) {
      if (!end) continue;
      const r = typeof radius === "number" ? radius : radius[end === ends.left ? "left" : "right"];
      const c = endAnchor(end, r);
      x0 = Math.min(x0, c.x - r); y0 = Math.min(y0, c.y - r);
      x1 = Math.max(x1, c.x + r); y1 = Math.max(y1, c.y + r);
    }
  }
  if (x0 === Infinity) return null;
  return { x: x0, y: y0, w: x1 - x0, h: y1 - y0 };
}

// The view box {x, y, w, h} (board units) and `scale` (pixels per unit) showing `bounds` in a
// container of width × height pixels: the whole board, centred, as large as fits but never
// larger than `maxScale` (a short line keeps tiles of a real size instead of filling the
// screen). The board's coordinates never change; only this window onto them zooms out as the
// line grows, so no tile moves relative to another.
export function fitView(bounds, width, height, { maxScale = 30, margin = 0.5 } = {}) {
  const b = bounds || { x: -1, y: -1, w: 2, h: 2 };
  const needW = b.w + 2 * margin;
  const needH = b.h + 2 * margin;
  const w = Math.max(1, width), h = Math.max(1, height);
  const scale = Math.min(maxScale, w / needW, h / needH);
  const viewW = w / scale, viewH = h / scale;
  return {
    x: b.x + b.w / 2 - viewW / 2,
    y: b.y + b.h / 2 - viewH / 2,
    w: viewW,
    h: viewH,
    scale,
  };
}

// Which ends to light when the player must choose one: `choosing` may be true (both), a list
// of sides, or an object with `sides`; anything falsy lights none.
export function litSides(choosing) {
  if (!choosing) return new Set();
  if (Array.isArray(choosing)) return new Set(choosing);
  if (choosing && Array.isArray(choosing.sides)) return new Set(choosing.sides);
  return new Set(["left", "right"]);
}
