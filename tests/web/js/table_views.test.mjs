// What the table says aloud (the aria-live region) and how it names tiles and palitos, from
// src/tranque/web/js/table_views.js: `node --test tests/web/js/`. i18n.js reads the chosen
// language from localStorage when it loads: a stand-in holds "es".

import assert from "node:assert/strict";
import { test } from "node:test";

globalThis.localStorage = { getItem: () => null, setItem: () => {} };
const { describeAction, tileWords, pointsText, countsPalitos, headerHtml } = await import("../../../src/tranque/web/js/table_views.js");

const rules = { players: 4, mode: "pairs", preset_name: "ponce", pass_points: true };
const view = {
  state: { you: 0, rules },
  nameOf: (seat) => (seat === 0 ? "Tú" : `Bot ${seat}`),
  teamName: (team) => `Pareja ${"AB"[team]}`,
};

test("a tile is named in Spanish words, half by half", () => {
  assert.equal(tileWords(6, 4), "seis-cuatro");
  assert.equal(tileWords(0, 9), "blanco-nueve");
});

test("plays, draws and passes are said as a person would say them", () => {
  const play = { seat: 1, type: "play", tile: "6-4", side: "right", laid: [6, 4] };
  assert.equal(describeAction(view, play, [0, 0]), "Bot 1 jugó seis-cuatro a la derecha");
  assert.equal(describeAction(view, { ...play, side: "left", laid: [4, 6] }, [0, 0]), "Bot 1 jugó cuatro-seis a la izquierda");
  assert.equal(describeAction(view, { ...play, side: null, laid: [6, 6], tile: "6-6" }, [0, 0]), "Bot 1 jugó seis-seis de salida");
  assert.equal(describeAction(view, { ...play, seat: 0 }, [0, 0]), "Jugaste seis-cuatro a la derecha");
  assert.equal(describeAction(view, { seat: 3, type: "draw" }, [0, 0]), "Bot 3 robó del pozo");
  assert.equal(describeAction(view, { seat: 2, type: "pass", scores: null }, [0, 0]), "Bot 2 pasó");
});

test("a pass that scores says how many palitos and for whom", () => {
  const pass = { seat: 2, type: "pass", scores: [3, 2] };
  assert.equal(describeAction(view, pass, [3, 0]), "Bot 2 pasó: 2 palitos para Pareja B");
  assert.equal(describeAction(view, { ...pass, seat: 0, scores: [4, 2] }, [3, 2]), "Pasaste: 1 palito para Pareja A");
});

test("palitos are counted only where the table counts them", () => {
  assert.equal(countsPalitos(rules), true);
  assert.equal(pointsText(rules, 20), "20 palitos");
  assert.equal(countsPalitos({ preset_name: "clasico", pass_points: false }), false);
  assert.equal(pointsText({ preset_name: "clasico", pass_points: false }, 100), "100");
});

test("the header of a table of el reparto del día links back to its day; another's does not", () => {
  const duel = { players: 2, mode: "individual", preset_name: "clasico", target: 100 };
  const state = { you: 0, rules: duel, scores: [0, 0], goals: [0, 0], round: 0, deals: "reparto:2026-12-07:individual" };
  const header = headerHtml({ ...view, state }, state);
  assert.match(header, /<a class="tournament-link reparto-link" href="#\/reparto\/2026-12-07">Reparto del día<\/a>/);
  assert.doesNotMatch(headerHtml({ ...view, state }, { ...state, deals: null }), /reparto/);
  assert.doesNotMatch(headerHtml({ ...view, state }, { ...state, deals: "copa:1" }), /reparto/);
  assert.match(header, /Mano 1 · a 100</);
});

test("a game of so many hands says which hand of how many, and no target", () => {
  const four = { players: 2, mode: "individual", preset_name: "clasico", target: 100, hands: 4 };
  const state = { you: 0, rules: four, scores: [0, 0], goals: [0, 0], round: 1, deals: "reparto:2026-12-07:individual" };
  assert.match(headerHtml({ ...view, state }, state), /Mano 2 de 4</);
  assert.doesNotMatch(headerHtml({ ...view, state }, state), / a 100/);
  assert.match(headerHtml({ ...view, state }, { ...state, round: null }), /4 manos</);
});
