// The fichas' words at tables (js/fichas_view.js, js/messages_fichas.js): complete in both
// languages, and a movement written with its sign.
import test from "node:test";
import assert from "node:assert/strict";

const items = new Map();
globalThis.localStorage ??= { getItem: (key) => items.get(key) ?? null, setItem: (key, value) => items.set(key, value) };
globalThis.document ??= { documentElement: {} };

const { FICHAS_MESSAGES } = await import(new URL("../../../src/tranque/web/js/messages_fichas.js", import.meta.url));
const { signedFichas, potText, stakeText } = await import(new URL("../../../src/tranque/web/js/fichas_view.js", import.meta.url));

test("every fichas message has its Spanish and its English", () => {
  for (const [key, entry] of Object.entries(FICHAS_MESSAGES)) assert.ok(entry.es && entry.en, key);
});

test("a movement is written with a plus or a true minus sign", () => {
  assert.equal(signedFichas(60), "+60");
  assert.equal(signedFichas(-50), "\u221250");
  assert.equal(signedFichas(0), "0");
});

test("the stake and the pot are written only at a staked table", () => {
  assert.equal(stakeText(0), "");
  assert.equal(potText(0, 0), "");
  assert.equal(stakeText(50), "Apuesta: 50 fichas");
  assert.equal(potText(50, 100), "Bote: 100 fichas");
});
