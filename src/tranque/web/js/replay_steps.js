// Pure helpers of the replay viewer (replay.js): moving between steps, what a step says, and
// the score chart's geometry. Every number comes from the server's frames and rounds
// (docs/protocol.md, «Finished games»); nothing here decides a rule. No DOM: `node --test`
// checks it (tests/web/js/replay_steps.test.mjs).

/** `index` kept within the `count` steps there are. */
export function clampStep(index, count) {
  if (count <= 0) return 0;
  return Math.min(count - 1, Math.max(0, Math.trunc(Number(index) || 0)));
}

// The keys that move the viewer, and where each goes from `index`.
const KEYS = {
  ArrowRight: (index) => index + 1,
  ArrowLeft: (index) => index - 1,
  Home: () => 0,
  End: (index, count) => count - 1,
};

/** The step a key moves to from `index`, or null for a key that does not move the viewer. */
export function stepForKey(key, index, count) {
  const move = KEYS[key];
  return move ? clampStep(move(index, count), count) : null;
}

/** Where step `index` is: its round (1-based), its place in that round (1-based) and how
 * many steps the round has. */
export function stepPlace(rounds, frames, index) {
  const frame = frames[index];
  const round = rounds[frame.round];
  return { round: frame.round + 1, n: index - round.start + 1, total: round.end - round.start + 1 };
}

/** What a frame says, as a message key and its parameters (names filled by `nameOf`). */
export function frameText(frame, nameOf) {
  const round = frame.round + 1;
  if (frame.kind === "deal") return { key: "rp_deal", params: { round, name: nameOf(frame.turn) } };
  if (frame.kind === "end") return { key: "rp_end", params: { round } };
  const { seat, kind, tile, end } = frame.action;
  const name = nameOf(seat);
  if (kind === "pass") return { key: "rp_pass", params: { name } };
  if (kind === "draw") return { key: "rp_draw", params: { name, tile } };
  if (!end) return { key: "rp_lead", params: { name, tile } };
  return { key: end === "left" ? "rp_play_left" : "rp_play_right", params: { name, tile } };
}

/** Each team's score from the start and after every round: `[[0, s1, s2, …], …]`. */
export function scoreSeries(rounds, teams) {
  return Array.from({ length: teams }, (_, team) => [0, ...rounds.map((round) => round.scores[team])]);
}

/** The chart's polylines ("x,y x,y …" per team) and the target's height, in a box of
 * `width` × `height` with `pad` around; the scale reaches the target or the top score. */
export function chartGeometry(series, target, { width = 300, height = 150, pad = 20 } = {}) {
  const steps = Math.max(1, ...series.map((values) => values.length - 1));
  const top = Math.max(1, target || 0, ...series.flat());
  const x = (i) => pad + (i * (width - 2 * pad)) / steps;
  const y = (v) => height - pad - (v * (height - 2 * pad)) / top;
  return {
    lines: series.map((values) => values.map((v, i) => `${round2(x(i))},${round2(y(v))}`).join(" ")),
    targetY: round2(y(target || 0)),
  };
}

function round2(value) {
  return Math.round(value * 100) / 100;
}

/** The halves of a tile written "6-4". */
export function halvesOf(tile) {
  return tile.split("-").map(Number);
}
