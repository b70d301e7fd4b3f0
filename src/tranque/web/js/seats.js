// The seats this browser holds: localStorage["tranque.seat.<table>"] = {seat, token, kind,
// phase, at}. The token is what a `hello` needs to see the hand again after a reload; kind and
// phase (as the table last reported them) let the home page offer "Volver a tu partida" only
// while the game is on. `store` is the page's localStorage (a stand-in in node tests).

const PREFIX = "tranque.seat.";

// The table phases in which a seat is still worth going back to (docs/protocol.md, «sync»).
export const LIVE_PHASES = new Set(["waiting", "playing", "between_rounds"]);

function read(store, table) {
  try {
    const saved = JSON.parse(store.getItem(PREFIX + table) || "null");
    return saved && typeof saved === "object" ? saved : null;
  } catch {
    return null;
  }
}

export function rememberSeat(store, table, { seat, token, kind = null }) {
  const before = read(store, table);
  const same = before && before.token === token;
  const entry = { seat, token, kind: kind || (same ? before.kind : null) || null, phase: same ? before.phase || null : null, at: Date.now() };
  store.setItem(PREFIX + table, JSON.stringify(entry));
}

// Note the phase (and kind) `table` reported; only for a seat this browser holds.
export function seatPhase(store, table, phase, kind = undefined) {
  const saved = read(store, table);
  if (!saved) return;
  saved.phase = phase;
  if (kind) saved.kind = kind;
  store.setItem(PREFIX + table, JSON.stringify(saved));
}

export function forgetSeat(store, table) {
  store.removeItem(PREFIX + table);
}

// Every saved seat as {table, seat, token, kind, phase, at}, the most recent first.
export function savedSeats(store) {
  const seats = [];
  for (let index = 0; index < store.length; index += 1) {
    const key = store.key(index);
    if (!key || !key.startsWith(PREFIX)) continue;
    const table = key.slice(PREFIX.length);
    const saved = read(store, table);
    if (saved && saved.token) seats.push({ ...saved, table });
  }
  return seats.sort((a, b) => (b.at || 0) - (a.at || 0));
}
