// The options form's choices come from GET /api/presets only (js/presets.js):
// `node --test tests/web/js/`.

import assert from "node:assert/strict";
import { test } from "node:test";

const { formChoices, playerCounts, presetSummary, presetTitle, tableBody, penaTableSlug } = await import(
  new URL("../../../src/tranque/web/js/presets.js", import.meta.url)
);

// Two entries of GET /api/presets as the server sends them (tests/server/test_table_presets.py
// checks the server's side: every combination listed is accepted).
const salon = {
  name: "salon", title: "Salón", title_en: "Salón",
  summary: "Meta de 50 a 300.", summary_en: "Target from 50 to 300.",
  players: [2, 3, 4],
  seatings: { 2: ["individual"], 3: ["individual"], 4: ["pairs", "individual"] },
  modes: { 2: ["individual"], 3: ["individual"], 4: ["pairs", "individual"] },
  targets: { 2: 100, 3: 100, 4: 100 },
  target_choices: { 2: [50, 100, 150, 200, 250, 300], 3: [50, 100, 150, 200, 250, 300], 4: [50, 100, 150, 200, 250, 300] },
  turn_seconds_choices: [20, 30, 45], capicua: true, capicua_bonus_choices: [0, 20],
  defaults: { players: 4, mode: { 2: "individual", 3: "individual", 4: "pairs" }, target: { 2: 100, 3: 100, 4: 100 }, turn_seconds: 30, capicua_bonus: 0 },
};
const ponce = {
  name: "ponce", title: "Ponce", title_en: "Ponce",
  summary: "Por parejas a 20 palitos.", summary_en: "Pairs to 20 palitos.",
  players: [4], seatings: { 4: ["pairs"] }, modes: { 4: ["pairs"] }, targets: { 4: 20 }, target_choices: { 4: [20] },
  turn_seconds_choices: [20, 30, 45], capicua: false, capicua_bonus_choices: [0],
  defaults: { players: 4, mode: { 4: "pairs" }, target: { 4: 20 }, turn_seconds: 30, capicua_bonus: 0 },
};

test("every choice is the server's: counts, modes, targets and the defaults", () => {
  const choices = formChoices(salon);
  assert.deepEqual(choices.counts, ["2", "3", "4"]);
  assert.equal(choices.players, "4");
  assert.deepEqual(choices.modes, ["pairs", "individual"]);
  assert.deepEqual(choices.targets, [50, 100, 150, 200, 250, 300]);
  assert.deepEqual([choices.mode, choices.target, choices.turn], ["pairs", 100, 30]);
  assert.deepEqual(choices.turnSeconds, [20, 30, 45]);
  assert.deepEqual(formChoices(salon, 2).modes, ["individual"]);
  assert.equal(formChoices(salon, 2).mode, "individual");
});

test("the capicúa bonus is offered with the server's amount, and only where it can be set", () => {
  assert.deepEqual([formChoices(salon).capicua, formChoices(salon).capicuaBonus], [true, 20]);
  assert.equal(formChoices(salon).capicuaDefault, false);
  assert.equal(formChoices(ponce).capicua, false);
  assert.equal(formChoices({ ...salon, capicua_bonus_choices: [0, 30] }).capicuaBonus, 30);
});

test("a player count the preset does not seat falls back to its default", () => {
  assert.equal(formChoices(ponce, 2).players, "4");
  assert.equal(formChoices(salon, "5").players, "4");
  assert.deepEqual(playerCounts(ponce), ["4"]);
});

test("summaries and titles in English where the server has them", () => {
  assert.equal(presetSummary(ponce, "en"), "Pairs to 20 palitos.");
  assert.equal(presetSummary(ponce, "es"), "Por parejas a 20 palitos.");
  assert.equal(presetSummary({ ...salon, summary_en: undefined }, "en"), "Meta de 50 a 300.");
  assert.equal(presetTitle(salon, "en"), "Salón");
});

test("a table accepts bots only when its host says so", () => {
  const chosen = { preset: "clasico", players: 4 };
  assert.deepEqual(tableBody(chosen), { preset: "clasico", players: 4, private: false, competitive: false });
  assert.deepEqual(tableBody(chosen, { competitive: true, bots: true }), { preset: "clasico", players: 4, private: false, competitive: true, bots: true });
  assert.equal("bots" in tableBody(chosen, { bots: false }), false);
});

test("the table form knows a peña's table by its hash", () => {
  assert.equal(penaTableSlug("#/crear/pena/club-sol"), "club-sol");
  assert.equal(penaTableSlug("#/crear"), null);
  assert.equal(penaTableSlug("#/crear/otra/club"), null);
});
