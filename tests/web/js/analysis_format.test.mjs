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

// The flagged moves in words: the judge's fields (loss_points, reasons, model_note, unit) and an older analysis's.
const { afterText, amountText, beforeText, chartTicks, flaggedJustBefore, lessonLinks, modelNoteText, moveSentence, reasonText, unitOf } = await import(
  "../../../src/tranque/web/js/analysis_format.js"
);
const NAMES = ["Mari", "Toño", "Luz", "Pedro"];
const nameOf = (seat) => NAMES[seat];
const FLAGGED_MOVE = {
  round: 1,
  move: 18,
  seat: 0,
  step: 20,
  verdict: "error",
  played: play("5-2", "left"),
  best: play("5-2", "right"),
  loss: 118.4,
  loss_points: 11.6,
  reasons: [],
  model_note: null,
};
const REASON_CASES = [
  [{ kind: "missed_domino", params: { tile: "6-4" }, lesson: "domino-y-tranque" }, "con el 6-4 dominaba de una vez", "the 6-4 went out at once: dominó"],
  [{ kind: "missed_winning_tranque", params: { tile: "3-3" }, lesson: "contar-tranque" }, "el 3-3 trancaba el juego y el tranque lo ganaba su lado", "the 3-3 blocked the game in a tranque their side won"],
  [{ kind: "closed_partner_number", params: { number: 5 }, lesson: "parejas" }, "no tapaba el 5, que su compañero había mostrado tener", "it did not cover the 5, which their partner had shown they hold"],
  [{ kind: "ignored_pass", params: { number: 3, seat: 1 }, lesson: "leer-pases" }, "Toño ya había pasado al 3: convenía dejarle ese número en la mesa", "Toño had already passed on the 3: it paid to leave that number on the table"],
  [{ kind: "left_number_alone", params: { number: 4 }, lesson: "leer-pases" }, "no dejaba un 4 solo en la mano, sin punta donde pegarlo", "it did not leave a 4 stranded in the hand, with no end to play it on"],
  [{ kind: "kept_heavy_into_tranque", params: { tile: "6-6" }, lesson: "contar-tranque" }, "soltaba el 6-6 antes del tranque, que se contó en contra de su lado", "it got rid of the 6-6 before the tranque that was counted against their side"],
];

test("a flagged move is one sentence: who did what, what it cost in the game's unit, what was better", () => {
  setLang("es");
  assert.equal(
    moveSentence(FLAGGED_MOVE, { unit: "points", nameOf }),
    "Mano 1, jugada 18 · Mari jugó el 5-2 por la izquierda: le costó unos 12 puntos en esta mano. Mejor era el 5-2 por la derecha.",
  );
  setLang("en");
  assert.equal(
    moveSentence(FLAGGED_MOVE, { unit: "points", nameOf }),
    "Round 1, move 18 · Mari played the 5-2 on the left: it cost about 12 points this round. Better: the 5-2 on the right.",
  );
  setLang("es");
  const pass = { ...FLAGGED_MOVE, played: { type: "pass" }, best: { type: "draw" }, loss_points: 2.46 };
  assert.equal(moveSentence(pass, { unit: "palitos", nameOf }), "Mano 1, jugada 18 · Mari pasó: le costó unos 2,5 palitos en esta mano. Mejor era robar.");
});

test("the unit: the result's, or for an older analysis its rules' scoring; amounts in words", () => {
  assert.equal(unitOf({ unit: "goals", rules: { scoring: "others" } }), "goals");
  assert.equal(unitOf({ rules: { scoring: "ponce" } }), "palitos");
  assert.equal(unitOf({ rules: { scoring: "futbol" } }), "goals");
  assert.equal(unitOf({ rules: { scoring: "others" } }), "points");
  assert.equal(unitOf({ unit: "bogus" }), "points");
  setLang("es");
  assert.equal(amountText(11.6, "points"), "unos 12 puntos");
  assert.equal(amountText(3.24, "palitos"), "unos 3,2 palitos");
  assert.equal(amountText(1.04, "goals"), "cerca de un gol");
  assert.equal(amountText(0.3, "points"), "menos de un punto");
  assert.equal(amountText(12.34, "goals"), "unos 12,3 goles");
  setLang("en");
  assert.equal(amountText(3.24, "palitos"), "about 3.2 palitos");
  assert.equal(amountText(0.2, "goals"), "less than a goal");
  setLang("es");
});

test("each reason kind is a clause in both languages, joined after «porque»", () => {
  for (const [reason, es, en] of REASON_CASES) {
    setLang("es");
    assert.equal(reasonText(reason, nameOf), es, reason.kind);
    setLang("en");
    assert.equal(reasonText(reason, nameOf), en, reason.kind);
  }
  setLang("es");
  assert.equal(reasonText({ kind: "something_new", params: {} }, nameOf), null);
  const two = { ...FLAGGED_MOVE, reasons: [REASON_CASES[0][0], REASON_CASES[3][0], { kind: "something_new", params: {}, lesson: "fichas" }] };
  assert.equal(
    moveSentence(two, { unit: "points", nameOf }),
    "Mano 1, jugada 18 · Mari jugó el 5-2 por la izquierda: le costó unos 12 puntos en esta mano. " +
      "Mejor era el 5-2 por la derecha, porque con el 6-4 dominaba de una vez y Toño ya había pasado al 3: convenía dejarle ese número en la mesa.",
  );
});

test("each reason's lesson is a link to Aprender, once per lesson", () => {
  setLang("es");
  const links = lessonLinks([REASON_CASES[3][0], REASON_CASES[4][0], REASON_CASES[0][0], { kind: "x", lesson: "../evil" }]);
  assert.deepEqual(links, [
    { lesson: "leer-pases", href: "#/aprender/leer-pases", text: "Aprende: leer los pases y contar" },
    { lesson: "domino-y-tranque", href: "#/aprender/domino-y-tranque", text: "Aprende: dominó y tranque" },
  ]);
  setLang("en");
  assert.equal(lessonLinks([REASON_CASES[2][0]])[0].text, "Learn: playing with a partner");
  setLang("es");
  assert.deepEqual(lessonLinks(undefined), []);
});

test("the model's reading is a sentence of its own, labelled, and absent without one", () => {
  setLang("es");
  assert.equal(modelNoteText(FLAGGED_MOVE, "points"), null);
  const note = { ...FLAGGED_MOVE, model_note: { kind: "model", loss_points: 4.2, best: play("2-2", "left") } };
  assert.equal(modelNoteText(note, "points"), "Según cómo suelen jugar los demás, lo mejor era el 2-2 por la izquierda; la jugada hecha perdía unos 4,2 puntos.");
  const fine = { ...FLAGGED_MOVE, model_note: { kind: "model", loss_points: 0, best: play("5-2", "left") } };
  assert.equal(modelNoteText(fine, "points"), "Según cómo suelen jugar los demás, la jugada hecha era la mejor.");
});

test("an analysis stored before the readable loss says its old figure, with its unit", () => {
  setLang("es");
  const { loss_points: _, reasons: __, model_note: ___, ...old } = FLAGGED_MOVE;
  assert.equal(
    moveSentence(old, { unit: "points", nameOf }),
    "Mano 1, jugada 18 · Mari jugó el 5-2 por la izquierda: error, perdió 118,4 puntos de valor esperado (cuenta también lo que vale ganar la mano y la partida). Mejor era el 5-2 por la derecha.",
  );
  assert.equal(modelNoteText(old, "points"), null);
  assert.deepEqual(lessonLinks(old.reasons), []);
});

test("the chart's axis says its values; the move just played is found a step on", () => {
  setLang("es");
  const ticks = chartTicks(30.4, { height: 160, pad: 16 });
  assert.deepEqual(ticks.map((tick) => [tick.label, tick.y]), [["+30", 16], ["0", 80], ["−30", 144]]);
  const { ticks: drawn } = analysisChart(RESULT, { width: 320, height: 160, pad: 16 });
  assert.deepEqual(drawn.map((tick) => tick.label), ["+30", "0", "−30"]);
  assert.equal(flaggedJustBefore(RESULT, 2).move, 2);
  assert.equal(flaggedJustBefore(RESULT, 3), null);
});

test("on the board: the question before a flagged move, and what was played a step on", () => {
  setLang("es");
  assert.equal(beforeText(FLAGGED_MOVE, nameOf), "Antes de la jugada 18 de Mari: ¿qué jugarías?");
  assert.equal(afterText(FLAGGED_MOVE, nameOf), "Mari jugó el 5-2 por la izquierda (error). Mejor era el 5-2 por la derecha.");
  setLang("en");
  assert.equal(beforeText(FLAGGED_MOVE, nameOf), "Before Mari's move 18: what would you play?");
  assert.equal(afterText(FLAGGED_MOVE, nameOf), "Mari played the 5-2 on the left (error). Better: the 5-2 on the right.");
  setLang("es");
});

test("the chart draws the hand's expected points when every point has them, else the worth", async () => {
  const { chartMeasure } = await import("../../../src/tranque/web/js/analysis_format.js");
  assert.equal(chartMeasure(RESULT), "worth");
  const withPoints = {
    ...RESULT,
    decisions: RESULT.decisions.map((d) => ({ ...d, points: d.worth === null ? null : d.worth / 10 })),
    chart: RESULT.chart.map((points) => points.map((point) => ({ ...point, points: point.worth / 10 }))),
  };
  assert.equal(chartMeasure(withPoints), "points");
  const { measure, ticks, marks } = analysisChart(withPoints, { width: 320, height: 160, pad: 16 });
  assert.equal(measure, "points");
  assert.deepEqual(ticks.map((tick) => tick.label), ["+3", "0", "−3"]);
  assert.equal(marks[0].y, 144); // −3, the largest, at the bottom's padding
});

test("moves not flagged with the model's other choice are listed apart, never flagged", async () => {
  const { notedMoves, notedAt } = await import("../../../src/tranque/web/js/analysis_format.js");
  const note = (best) => ({ kind: "model", loss_points: 11, best });
  const result = {
    ...RESULT,
    decisions: [
      { ...RESULT.decisions[0] },
      { ...RESULT.decisions[1], model_note: note(play("6-6", "left")) }, // flagged: in its own sentence
      { ...RESULT.decisions[2], model_note: note(play("1-6", "right")) }, // accurate, the model differs
      { ...RESULT.decisions[3], verdict: "accurate", model_note: note({ type: "pass" }) }, // the same as played
    ],
  };
  assert.deepEqual(notedMoves(result).map((d) => d.move), [3]);
  assert.equal(notedAt(result, 2).move, 3);
  assert.equal(notedAt(result, 1), null);
  assert.equal(notedMoves(RESULT).length, 0);
});
