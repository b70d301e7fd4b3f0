// The table's fixes that need no browser: the Spanish of counts and dominoes
// (N10), where the pozo is shown (N10) and the hand's «Ordenar fichas». `node --test tests/web/js/`.

import assert from "node:assert/strict";
import { test } from "node:test";

globalThis.localStorage = globalThis.localStorage || { getItem: () => null, setItem: () => {} };
globalThis.document = globalThis.document || { documentElement: {} };

const js = (name) => new URL(`../../../src/tranque/web/js/${name}`, import.meta.url);
const { setLang, t } = await import(js("i18n.js"));
const { playedOf, numbersList } = await import(js("table_views.js"));
const { roundHeadline } = await import(js("results_text.js"));
const { initialState, reduceSync, reduceEvent, hasPozo } = await import(js("table_state.js"));
const { sortedHand, nextSort } = await import(js("hand_sort.js"));

const RULES = {
  clasico2: { preset_name: "clasico", players: 2, mode: "individual", set_max: 6, hand_size: 7, drawing: "until-playable" },
  clasico4: { preset_name: "clasico", players: 4, mode: "pairs", set_max: 6, hand_size: 7, drawing: "until-playable" },
  futbol: { preset_name: "futbol", players: 2, mode: "individual", set_max: 6, hand_size: 12, drawing: "none" },
};

function dealt(rules, boneyard, events = []) {
  return reduceSync(initialState({ you: 0 }), {
    seq: 3, table: "t", kind: "practice", phase: "playing", you: 0, rules, seats: [], round: 0,
    view: { hand: ["6-6"], hand_counts: [], boneyard_count: boneyard, events },
  });
}

test("test_N10_a_count_of_one_is_singular", () => {
  setLang("es");
  assert.equal(playedOf(1, 1, 7), "Del 1 ya se jugó 1 de 7.");
  assert.equal(playedOf(5, 3, 7), "Del 5 ya se jugaron 3 de 7.");
  setLang("en");
  assert.equal(playedOf(1, 1, 7), "1 of 7 tiles with 1 is already played.");
  setLang("es");
});

test("test_N10_a_domino_says_who_went_out", () => {
  setLang("es");
  const ctx = { rules: RULES.clasico4, seat: 0, nameOf: (s) => `Bot ${s}`, teamName: (s) => `Pareja ${s}` };
  assert.equal(roundHeadline({ kind: "domino", winner_seat: 2, winner: 0 }, ctx), "¡Dominó! Se pegó Bot 2");
  setLang("en");
  assert.equal(roundHeadline({ kind: "domino", winner_seat: 2, winner: 0 }, ctx), "Dominó! Bot 2 went out");
  setLang("es");
});

test("test_N10_own_pass_and_absence_read_naturally", () => {
  setLang("es");
  assert.equal(`${t("tb_you_passed")} ${t("tb_you_lack", { list: numbersList([0, 5]) })}`, "Pasaste (no llevas 0 ni 5)");
  assert.equal(numbersList([0, 3, 5]), "0, 3 ni 5");
  assert.equal(t("covered"), "Estás ausente: la máquina juega por ti.");
  setLang("en");
  assert.equal(`${t("tb_you_passed")} ${t("tb_you_lack", { list: numbersList([0, 5]) })}`, "You passed (you have no 0 or 5)");
  setLang("es");
});

test("test_N10_the_pozo_shows_only_where_the_rules_and_the_deal_have_one", () => {
  assert.equal(hasPozo(dealt(RULES.clasico2, 14)), true);
  assert.equal(hasPozo(dealt(RULES.clasico2, 0, [{ type: "draw", seat: 0 }])), true, "drawn empty, it was there");
  assert.equal(hasPozo(dealt(RULES.clasico4, 0)), false, "four with double-six: no pozo");
  assert.equal(hasPozo(dealt(RULES.futbol, 4)), false, "fútbol never draws");
  let state = dealt(RULES.clasico4, 0);
  state = reduceEvent(state, { seq: 4, kind: "round_started", data: { round: 1, hand: ["1-1"], hand_counts: [7, 7, 7, 7], boneyard_count: 0 } });
  assert.equal(hasPozo(state), false);
  state = dealt(RULES.clasico2, 0);
  state = reduceEvent(state, { seq: 4, kind: "round_started", data: { round: 1, hand: ["1-1"], hand_counts: [7, 7], boneyard_count: 14 } });
  assert.equal(hasPozo(state), true);
});

test("ordenar_fichas_sorts_by_number_or_by_points", () => {
  const hand = ["6-1", "3-3", "5-4", "2-0", "6-6", "4-1"];
  assert.deepEqual(sortedHand(hand, "number"), ["2-0", "3-3", "4-1", "5-4", "6-1", "6-6"]);
  assert.deepEqual(sortedHand(hand, "points"), ["6-6", "5-4", "6-1", "3-3", "4-1", "2-0"]);
  assert.deepEqual(hand, ["6-1", "3-3", "5-4", "2-0", "6-6", "4-1"], "the hand given is left as it was");
  assert.equal(nextSort(null), "number");
  assert.equal(nextSort("number"), "points");
  assert.equal(nextSort("points"), "number");
});
