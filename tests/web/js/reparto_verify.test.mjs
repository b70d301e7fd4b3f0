// El reparto del día checked in the browser (js/reparto_verify.js): `node --test tests/web/js/`.
// vectors/reparto_day.json is a revealed day made by the server (tests/web/reparto_vectors.py).

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

const { verifyDay, dayCommitment, dealSecret, keepCommitment, keptCommitment, signed } = await import(
  new URL("../../../src/tranque/web/js/reparto_verify.js", import.meta.url)
);
const day = JSON.parse(readFileSync(new URL("./vectors/reparto_day.json", import.meta.url), "utf8"));

test("a revealed day checks out: its commitment, every deal's commitment and every hand", async () => {
  assert.equal(await dayCommitment(day.seed, day.parameters), day.commitment);
  const first = await dealSecret(day.seed, day.modes.pairs.series, 0);
  assert.equal(first.seed, day.modes.pairs.deals[0].seed);
  assert.equal(first.salt, day.modes.pairs.deals[0].salt);
  assert.deepEqual(await verifyDay(day), { ok: true, reasons: [] });
  assert.deepEqual(await verifyDay(day, day.commitment), { ok: true, reasons: [] });
});

test("a changed seed, commitment or hand does not", async () => {
  const otherSeed = { ...day, seed: day.seed.replace(/^../, "00") };
  const result = await verifyDay(otherSeed);
  assert.equal(result.ok, false);
  assert.equal(result.reasons[0].code, "commitment");
  assert.deepEqual((await verifyDay(day, "ff".repeat(32))).reasons, [{ code: "kept" }]);
  const swapped = structuredClone(day);
  const hands = swapped.modes.individual.deals[1].hands;
  [hands[0][0], hands[1][0]] = [hands[1][0], hands[0][0]];
  assert.deepEqual((await verifyDay(swapped)).reasons, [{ code: "deal", mode: "individual", hand: 2 }]);
  assert.equal((await verifyDay({ ...day, seed: null })).ok, false);
});

test("the commitment this browser saw is kept by day, the first one only", () => {
  const items = new Map();
  const storage = { getItem: (key) => items.get(key) ?? null, setItem: (key, value) => items.set(key, value) };
  assert.equal(keptCommitment(storage, "2026-12-07"), null);
  keepCommitment(storage, "2026-12-07", "aa");
  keepCommitment(storage, "2026-12-07", "bb");
  assert.equal(keptCommitment(storage, "2026-12-07"), "aa");
});

test("results against par are signed", () => {
  assert.equal(signed(12), "+12");
  assert.equal(signed(-7), "−7");
  assert.equal(signed(0), "0");
  assert.equal(signed(null), "–");
});
