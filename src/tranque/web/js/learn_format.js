// What Aprender's pages show, worked out from the server's JSON with no rule of the game
// (those are the server's): lesson message keys, stars, which lesson comes next, a guest's
// stars in the browser, who another seat is, the others' replies and a round's end in words.
// Pure functions: `node --test tests/web/js/learn_format.test.mjs`.

export const PROGRESS_KEY = "tranque.learn.progress";
export const OFFER_KEY = "tranque.learn.offer";

// "domino-y-tranque" → "ln_t_domino_y_tranque" (titles), "ln_s_…" (summaries).
export function lessonKey(kind, id) {
  return `ln_${kind}_${String(id).replaceAll("-", "_")}`;
}

export function pipsOf(tile) {
  const [a, b] = String(tile).split("-").map(Number);
  return (a || 0) + (b || 0);
}

export function starsText(stars) {
  const n = Math.max(0, Math.min(3, Number(stars) || 0));
  return "★".repeat(n) + "☆".repeat(3 - n);
}

// The lesson to take next: the first of the path without stars (null once all have some).
export function nextLesson(lessons, progress) {
  const found = lessons.find((lesson) => !(progress[lesson.id] >= 1));
  return found ? found.id : null;
}

// The best stars of both, lesson by lesson.
export function mergeProgress(a, b) {
  const merged = { ...a };
  for (const [id, stars] of Object.entries(b || {})) {
    if (Number.isInteger(stars) && stars >= 1 && stars <= 3 && !(merged[id] >= stars)) merged[id] = stars;
  }
  return merged;
}

export function readProgress(storage) {
  try {
    const saved = JSON.parse(storage.getItem(PROGRESS_KEY) || "{}");
    return saved && typeof saved === "object" && !Array.isArray(saved) ? mergeProgress({}, saved) : {};
  } catch {
    return {};
  }
}

export function keepProgress(storage, id, stars) {
  const kept = mergeProgress(readProgress(storage), { [id]: stars });
  storage.setItem(PROGRESS_KEY, JSON.stringify(kept));
  return kept;
}

// The move a tile and an end make, in the engine's notation (the server judges it).
export function moveText(tile, side) {
  return `${tile}${side === "left" ? "i" : side === "right" ? "d" : ""}`;
}

// Who `seat` is to the learner (seat 0): play goes to the right, seat 1 follows the learner.
export function seatKey(seat, players, mode) {
  if (players === 2) return { key: "ln_seat_rival", params: {} };
  if (players === 4 && mode === "pairs") {
    const key = { 1: "ln_seat_right", 2: "ln_seat_partner", 3: "ln_seat_left" }[seat];
    if (key) return { key, params: {} };
  }
  return { key: "ln_seat_other", params: { n: seat + 1 } };
}

// One of the others' moves (an event of the server's) as a message: who, and what.
export function replyMessage(event, players, mode) {
  const who = seatKey(event.seat, players, mode);
  if (event.type === "play") return { key: "ln_reply_play", who, params: { tile: event.tile } };
  if (event.type === "draw") return { key: "ln_reply_draw", who, params: {} };
  return { key: "ln_reply_pass", who, params: {} };
}

// A finished round as the learner reads it (result: the engine's RoundResult JSON).
export function resultMessage(result, players, mode) {
  if (!result) return null;
  const won = result.winner === 0; // the learner's team is team 0
  if (!won) {
    const seat = result.winner_seat ?? result.closer;
    return { key: "ln_result_lost", who: seatKey(seat, players, mode), params: {} };
  }
  const points = (result.points || {})["0"] ?? 0;
  return { key: result.kind === "domino" ? "ln_result_domino" : "ln_result_tranque", params: { points } };
}
