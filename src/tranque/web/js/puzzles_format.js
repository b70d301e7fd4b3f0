// «¿Qué jugarías?»: the pure part of the puzzles' page (puzzles.js), tested under node
// (tests/web/js/puzzles_format.test.mjs). Nothing here decides a rule: the legal moves, the
// answer and its worth all come from the server (GET /api/puzzles/…, docs/protocol.md).

// The two numbers of a tile written "6-4".
export function halves(tile) {
  return String(tile).split("-").map(Number);
}

// Each tile of the hand with the sides it may go to (from the server's `legal` moves):
// [{ tile, sides: ["left", "right"] | [null] | [] }], in the hand's order.
export function handChoices(hand, legal) {
  return hand.map((tile) => ({
    tile,
    sides: legal.filter((action) => action.type === "play" && action.tile === tile).map((action) => action.side ?? null),
  }));
}

// The legal move for `tile` at `side` (null: the only one), or null.
export function actionFor(legal, tile, side = null) {
  const moves = legal.filter((action) => action.type === "play" && action.tile === tile);
  if (side === null) return moves.length === 1 ? moves[0] : null;
  return moves.find((action) => action.side === side) || null;
}

// Who sits where, from the solver's seat: "you", "next" (plays after you), "partner",
// "before" (plays before you), or "other" (individual games of more than two).
export function relation(seat, other, players, pairs) {
  if (other === seat) return "you";
  const ahead = (other - seat + players) % players;
  if (players === 2) return "opponent";
  if (pairs && players === 4 && ahead === 2) return "partner";
  if (ahead === 1) return "next";
  if (ahead === players - 1) return "before";
  return "other";
}

// The round so far, one entry per event, with the ends each move met:
// [{ seat, kind: "play"|"pass"|"draw", tile, ends: [l, r] | null }].
export function history(events) {
  let ends = null;
  const entries = [];
  for (const event of events) {
    const entry = { seat: event.seat, kind: event.type, tile: event.tile || null, ends: ends ? [...ends] : null };
    entries.push(entry);
    if (event.type !== "play") continue;
    const [a, b] = halves(event.tile);
    if (!ends) ends = [a, b];
    else if (event.side === "left") ends = [a + b - ends[0], ends[1]];
    else ends = [ends[0], a + b - ends[1]];
  }
  return entries;
}

// Points of the hand, signed, in the reader's language: "+12,5" / "+12.5", "−3".
export function points(value, lang = "es") {
  const rounded = Math.round(value * 10) / 10;
  const text = Math.abs(rounded).toLocaleString(lang === "en" ? "en-GB" : "es-CO", { maximumFractionDigits: 1 });
  if (rounded > 0) return `+${text}`;
  if (rounded < 0) return `−${text}`;
  return text;
}

// Whether two moves are the same (tile and side).
export function sameMove(a, b) {
  return Boolean(a && b) && a.type === b.type && (a.tile || null) === (b.tile || null) && (a.side ?? null) === (b.side ?? null);
}

// A date as YYYY-MM-DD in the reader's own calendar (the day's puzzle follows their day).
export function localDay(date) {
  const pad = (n) => String(n).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

// The streak of days the day's puzzle was solved, kept in the browser (localStorage):
// `state` {last, count, solved: [ids]} after answering the puzzle of `day` (right or not).
// Solving the day after the last solved day adds one; a later day starts again at 1; a
// wrong answer, or a puzzle that is not the day's, leaves the streak as it was.
export function nextStreak(state, { day, right, daily }) {
  const now = { last: null, count: 0, ...(state || {}) };
  if (!right || !daily || now.last === day) return now;
  const previous = new Date(`${day}T12:00:00Z`);
  previous.setUTCDate(previous.getUTCDate() - 1);
  const yesterday = previous.toISOString().slice(0, 10);
  return { last: day, count: now.last === yesterday ? now.count + 1 : 1 };
}

// The streak still alive on `day`: its count if the last solved day is `day` or the one
// before, else 0 (a streak missed for a day is over).
export function liveStreak(state, day) {
  if (!state || !state.count || !state.last) return 0;
  const previous = new Date(`${day}T12:00:00Z`);
  previous.setUTCDate(previous.getUTCDate() - 1);
  return state.last === day || state.last === previous.toISOString().slice(0, 10) ? state.count : 0;
}
