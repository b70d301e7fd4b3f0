// The post-game analysis view's pure helpers (src/tranque/web/js/analysis_format.js): the
// progress, the accuracy, the flagged moves and their frames, the chart's geometry and how a
// move is written. `node --test tests/web/js/`.

import assert from "node:assert/strict";
import { test } from "node:test";

globalThis.localStorage = globalThis.localStorage || { getItem: () => null, setItem: () => {} };
globalThis.document = globalThis.document || { documentElement: {} };

const { t, setLang } = await import("../../../src/tranque/web/js/i18n.js");
const { accuracyText, actionWords, analysisChart, decisionFrame, flaggedAt, flaggedMoves, framePercent, lossText, progressPercent } = await import(
  "../../../src/tranque/web/js/analysis_format.js"
);

// A result as the server shapes it: one round of 2 players, 6 frames (deal, 4 moves, end).
const play = (tile, side) => ({ type: "play", tile, side });
const RESULT = {
  steps: 6,
  sides: [[0], [1]],
  decisions: [
    { round: 1, move: 1, seat: 0, step: 1, verdict: "forced", played: play("6-6", null), best: play("6-6", null), loss: 0, worth: null },
    { round: 1, move: 2, seat: 1, step: 2, verdict: "error", played: play("6-1", "left"), best: play("6-4", "right"), loss: 21.26, worth: -30 },
    { round: 1, move: 3, seat: 0, step: 3, verdict: "accurate", played: play("1-1", "left"), best: play("1-1", "left"), loss: 0, worth: 15 },
    { round: 1, move: 4, seat: 1, step: 4, verdict: "inaccuracy", played: { type: "pass" }, best: { type: "pass" }, loss: 6, worth: -10 },
  ],
  chart: [[{ step: 3, worth: 15 }], [{ step: 2, worth: -30 }, { step: 4, worth: -10 }]],
};

test("the progress is a whole percent within 0 and 100", () => {
  assert.equal(progressPercent(null), 0);
  assert.equal(progressPercent({ done: 0, total: 0 }), 0);
  assert.equal(progressPercent({ done: 1, total: 3 }), 33);
  assert.equal(progressPercent({ done: 3, total: 3 }), 100);
});

test("accuracy and losses as shown", () => {
  assert.equal(accuracyText(87.5), "88 %");
  assert.equal(accuracyText(null), "—");
  assert.equal(lossText(21.26), "21.3");
  assert.equal(lossText(0), "0.0");
});

test("the flagged moves are the imprecisiones and errors, each at the frame before its move", () => {
  const flagged = flaggedMoves(RESULT);
  assert.deepEqual(flagged.map((d) => d.move), [2, 4]);
  assert.equal(decisionFrame(flagged[0]), 1);
  assert.equal(flaggedAt(RESULT, 1), flagged[0]);
  assert.equal(flaggedAt(RESULT, 2), null); // the accurate move's frame
  assert.equal(flaggedAt(RESULT, 3), flagged[1]);
  assert.equal(framePercent(0, 6), 0);
  assert.equal(framePercent(5, 6), 100);
  assert.equal(framePercent(1, 6), 20);
});

test("the chart: a line per team through its moves, zero in the middle, a mark per flagged move", () => {
  const { lines, zeroY, marks } = analysisChart(RESULT, { width: 320, height: 160, pad: 16 });
  assert.equal(zeroY, 80);
  assert.equal(lines.length, 2);
  assert.equal(lines[0].split(" ").length, 1);
  assert.equal(lines[1].split(" ").length, 2);
  const [x, y] = lines[1].split(" ")[0].split(",").map(Number);
  assert.equal(y, 144); // the largest worth (−30) reaches the bottom's padding
  assert.ok(x > 16 && x < 304);
  assert.deepEqual(marks.map((m) => m.verdict), ["error", "inaccuracy"]);
  assert.equal(marks[0].y, 144);
});

test("a move is written in both languages", () => {
  setLang("es");
  const words = (action) => {
    const { key, params } = actionWords(action);
    return t(key, params);
  };
  assert.equal(words(play("6-4", "right")), "el 6-4 por la derecha");
  assert.equal(words(play("6-6", null)), "salir con el 6-6");
  assert.equal(words({ type: "pass" }), "pasar");
  assert.equal(words({ type: "draw" }), "robar");
  setLang("en");
  assert.equal(words(play("6-4", "left")), "the 6-4 on the left");
  assert.equal(t("an_request"), "Analyse the game");
  setLang("es");
  assert.equal(t("an_request"), "Analizar la partida");
});
