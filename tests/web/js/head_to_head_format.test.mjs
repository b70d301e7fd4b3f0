// What «Cara a cara» and the home's friends' results read (js/head_to_head_format.js):
// `node --test tests/web/js/`.

import assert from "node:assert/strict";
import { test } from "node:test";

const { versusPath, outcomeText, outcomeClass, opponentRows, namesText, wonByText, scoresText } = await import(
  new URL("../../../src/tranque/web/js/head_to_head_format.js", import.meta.url)
);

test("the path names both players, escaped", () => {
  assert.equal(versusPath("ana", "Kike"), "/api/players/ana/vs/Kike");
  assert.equal(versusPath("José Ñ", "a/b"), "/api/players/Jos%C3%A9%20%C3%91/vs/a%2Fb");
});

test("each outcome of two opponents reads who won", () => {
  const game = (outcome) => ({ together: "opponents", outcome });
  assert.deepEqual(outcomeText(game("first"), "ana", "Kike"), { key: "h2h_won_by", params: { name: "ana" } });
  assert.deepEqual(outcomeText(game("second"), "ana", "Kike"), { key: "h2h_won_by", params: { name: "Kike" } });
  assert.deepEqual(outcomeText(game("both"), "ana", "Kike"), { key: "h2h_draw", params: {} });
  assert.deepEqual(outcomeText(game("neither"), "ana", "Kike"), { key: "h2h_someone_else", params: {} });
  assert.deepEqual(["first", "second", "both", "neither"].map((o) => outcomeClass(game(o))), ["first", "second", "even", "even"]);
});

test("partners win or lose together", () => {
  const game = (outcome) => ({ together: "partners", outcome });
  assert.equal(outcomeText(game("both"), "ana", "Kike").key, "h2h_partners_won");
  assert.equal(outcomeText(game("neither"), "ana", "Kike").key, "h2h_partners_lost");
  assert.equal(outcomeText(game("first"), "ana", "Kike").key, "h2h_partners_lost"); // Kike abandoned
  assert.deepEqual([outcomeClass(game("both")), outcomeClass(game("neither"))], ["won", "lost"]);
});

test("the record's rows: wins, then tantos, first player's then second's", () => {
  const rows = opponentRows({ first_wins: 2, second_wins: 1, first_points: 429, second_points: 428 });
  assert.deepEqual(rows, [["h2h_wins", 2, 1], ["h2h_points", 429, 428]]);
});

test("who won a friend's game: one name, or a pair's two", () => {
  assert.deepEqual(wonByText({ won_by: ["caro"] }, "es"), { key: "hf_won_by", params: { names: "caro" } });
  assert.deepEqual(wonByText({ won_by: ["caro", "dani"] }, "es"), { key: "hf_won_by_many", params: { names: "caro y dani" } });
  assert.equal(namesText(["a", "b", "c"], "en"), "a, b & c");
  assert.equal(scoresText([101, 64]), "101 – 64");
});
