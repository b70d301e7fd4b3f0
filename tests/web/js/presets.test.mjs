// The options form's choices come from GET /api/presets only (js/presets.js):
// `node --test tests/web/js/`.

import assert from "node:assert/strict";
import { test } from "node:test";

const { formChoices, playerCounts, presetSummary, presetTitle } = await import(
  new URL("../../../src/tranque/web/js/presets.js", import.meta.url)
);

// As today's server lists them (seatings by count, target_choices, the default in targets).
const salon = {
  name: "salon", title: "Salón", summary: "Meta de 50 a 300.",
  seatings: { 2: ["individual"], 4: ["pairs", "individual"] },
  targets: { 2: 100, 4: 100 },
  target_choices: { 2: [50, 100, 150, 200, 250, 300], 4: [50, 100, 150, 200, 250, 300] },
};

// As CONTRACT item 3 describes the server of the v2 branch.
const ponce = {
  name: "ponce", title: "Ponce", summary: "Por parejas a 20 palitos.", summary_en: "Pairs to 20 points.",
  seatings: [4], modes: { 4: ["pairs"] }, target_choices: { 4: [20] }, default_target: { 4: 20 },
  turn_seconds_choices: [20, 30, 45], default_turn_seconds: 30, capicua: false,
};

test("every choice is the server's: counts, modes, targets and the default target", () => {
  const choices = formChoices(salon);
  assert.deepEqual(choices.counts, ["2", "4"]);
  assert.equal(choices.players, "4");
  assert.deepEqual(choices.modes, ["pairs", "individual"]);
  assert.deepEqual(choices.targets, [50, 100, 150, 200, 250, 300]);
  assert.equal(choices.target, 100);
  assert.deepEqual(formChoices(salon, 2).modes, ["individual"]);
});

test("a server without turn times or capicúa gets neither offered", () => {
  const choices = formChoices(salon);
  assert.deepEqual(choices.turnSeconds, []);
  assert.equal(choices.capicua, false);
});

test("the v2 shape: seatings as a list, modes by count, turn times, capicúa and defaults", () => {
  const choices = formChoices(ponce);
  assert.deepEqual(playerCounts(ponce), ["4"]);
  assert.deepEqual([choices.players, choices.mode, choices.target, choices.turn], ["4", "pairs", 20, 30]);
  assert.deepEqual(choices.turnSeconds, [20, 30, 45]);
  assert.equal(choices.capicua, false);
  assert.equal(formChoices({ ...ponce, capicua: true, capicua_bonus: 20 }).capicuaBonus, 20);
  assert.equal(formChoices({ ...ponce, capicua: true }).capicua, true);
});

test("a player count the preset does not seat falls back to its default", () => {
  assert.equal(formChoices(ponce, 2).players, "4");
  assert.equal(formChoices(salon, "3").players, "4");
});

test("summaries and titles in English where the server has them", () => {
  assert.equal(presetSummary(ponce, "en"), "Pairs to 20 points.");
  assert.equal(presetSummary(ponce, "es"), "Por parejas a 20 palitos.");
  assert.equal(presetSummary(salon, "en"), "Meta de 50 a 300.");
  assert.equal(presetTitle(salon, "en"), "Salón");
});
