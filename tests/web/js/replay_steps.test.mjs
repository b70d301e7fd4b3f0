// The replay viewer's pure helpers (src/tranque/web/js/replay_steps.js): keys and the slider
// never leave the game's steps, each step says who did what, and the chart follows the
// rounds' scores. `node --test tests/web/js/`.

import assert from "node:assert/strict";
import { test } from "node:test";

globalThis.localStorage = globalThis.localStorage || { getItem: () => null, setItem: () => {} };
globalThis.document = globalThis.document || { documentElement: {} };

const { t, setLang } = await import("../../../src/tranque/web/js/i18n.js");
const { clampStep, stepForKey, stepPlace, frameText, scoreSeries, chartGeometry, halvesOf } = await import(
  "../../../src/tranque/web/js/replay_steps.js"
);

// Two rounds of a two-player game as the server sends them: deal, plays, a draw, a pass, end.
const action = (seat, kind, tile = null, end = null) => ({ seat, kind, tile, end });
const FRAMES = [
  { round: 0, kind: "deal", action: null, turn: 1 },
  { round: 0, kind: "play", action: action(1, "play", "6-6"), turn: 0 },
  { round: 0, kind: "play", action: action(0, "play", "6-4", "left"), turn: 1 },
  { round: 0, kind: "draw", action: action(1, "draw", "2-1"), turn: 1 },
  { round: 0, kind: "pass", action: action(1, "pass"), turn: 0 },
  { round: 0, kind: "play", action: action(0, "play", "6-2", "right"), turn: null },
  { round: 0, kind: "end", action: null, turn: null },
  { round: 1, kind: "deal", action: null, turn: 0 },
  { round: 1, kind: "end", action: null, turn: null },
];
const ROUNDS = [
  { round: 0, start: 0, end: 6, scores: [25, 0] },
  { round: 1, start: 7, end: 8, scores: [25, 40] },
];
const nameOf = (seat) => ["Ana", "Bot 1"][seat];

test("keys move one step, or to either end, and never out of the game", () => {
  const count = FRAMES.length;
  assert.equal(stepForKey("ArrowRight", 3, count), 4);
  assert.equal(stepForKey("ArrowLeft", 3, count), 2);
  assert.equal(stepForKey("ArrowLeft", 0, count), 0);
  assert.equal(stepForKey("ArrowRight", count - 1, count), count - 1);
  assert.equal(stepForKey("Home", 5, count), 0);
  assert.equal(stepForKey("End", 0, count), count - 1);
  assert.equal(stepForKey("a", 3, count), null);
  assert.equal(stepForKey("Enter", 3, count), null);
});

test("a step asked for outside the game is its first or last", () => {
  assert.equal(clampStep(-4, 9), 0);
  assert.equal(clampStep(40, 9), 8);
  assert.equal(clampStep("5", 9), 5);
  assert.equal(clampStep(2.7, 9), 2);
  assert.equal(clampStep(3, 0), 0);
});

test("a step's place counts within its round", () => {
  assert.deepEqual(stepPlace(ROUNDS, FRAMES, 0), { round: 1, n: 1, total: 7 });
  assert.deepEqual(stepPlace(ROUNDS, FRAMES, 6), { round: 1, n: 7, total: 7 });
  assert.deepEqual(stepPlace(ROUNDS, FRAMES, 8), { round: 2, n: 2, total: 2 });
});

test("each step says who did what, in Spanish and in English", () => {
  setLang("es");
  const said = FRAMES.map((frame) => {
    const { key, params } = frameText(frame, nameOf);
    return t(key, params);
  });
  assert.deepEqual(said.slice(0, 7), [
    "Se reparte la mano 1; sale Bot 1.",
    "Bot 1 sale con el 6-6.",
    "Ana pega el 6-4 por la izquierda.",
    "Bot 1 roba el 2-1 del pozo.",
    "Bot 1 pasa.",
    "Ana pega el 6-2 por la derecha.",
    "Fin de la mano 1.",
  ]);
  setLang("en");
  const { key, params } = frameText(FRAMES[2], nameOf);
  assert.equal(t(key, params), "Ana plays the 6-4 on the left.");
  setLang("es");
});

test("the chart's series start at zero and follow each round's scores", () => {
  const series = scoreSeries(ROUNDS, 2);
  assert.deepEqual(series, [[0, 25, 25], [0, 0, 40]]);
  const { lines, targetY } = chartGeometry(series, 100, { width: 300, height: 150, pad: 20 });
  const points = lines.map((line) => line.split(" ").map((p) => p.split(",").map(Number)));
  assert.deepEqual(points[0][0], [20, 130]); // the start: zero, at the left
  assert.equal(points[0].at(-1)[0], 280); // the last round: at the right
  assert.equal(targetY, 20); // the target is the top when nobody passed it
  assert.ok(points[1][2][1] < points[1][1][1], "a higher score is drawn higher");
  const over = chartGeometry([[0, 150]], 100, { width: 300, height: 150, pad: 20 });
  assert.ok(over.targetY > 20, "a score past the target lifts the top above the target");
});

test("every message of the viewer is in both languages", async () => {
  const { MESSAGES_REPLAY } = await import("../../../src/tranque/web/js/messages_replay.js");
  for (const [key, entry] of Object.entries(MESSAGES_REPLAY)) {
    assert.ok(entry.es && entry.en && entry.es !== entry.en, key);
  }
  assert.deepEqual(halvesOf("6-4"), [6, 4]);
});
