// «La suerte del reparto»'s sentences (luck_view.js `luckWords`): every figure is the
// server's, rounded; the side the deal favoured is the one with the best expectation (the
// lowest where points count against), and a small gap reads as even. `node --test tests/web/js/`.

import assert from "node:assert/strict";
import { test } from "node:test";

globalThis.localStorage = globalThis.localStorage || { getItem: () => null, setItem: () => {} };
globalThis.document = globalThis.document || { documentElement: {} };

const { setLang } = await import(new URL("../../../src/tranque/web/js/i18n.js", import.meta.url));
const { luckWords, sideName } = await import(new URL("../../../src/tranque/web/js/luck_view.js", import.meta.url));

const nameOf = (seat) => ["Ana", "Beto", "Caro", "Dani"][seat];
const PAIRS = [
  { seats: [0, 2], expected: 7.4, scored: 29 },
  { seats: [1, 3], expected: 15.6, scored: 0 },
];

test("pairs: expected and result per side, and the side the deal favoured", () => {
  setLang("es");
  const [expected, result, verdict] = luckWords({ unit: "points", against: false }, PAIRS, nameOf);
  assert.equal(expected, "Con esas fichas, jugando todos igual de bien, se esperaba: Pareja A: 7 · Pareja B: 16.");
  assert.equal(result, "Resultado: Pareja A: 29 · Pareja B: 0.");
  assert.equal(verdict, "El reparto favorecía a Pareja B.");
});

test("a gap under three points reads as an even deal; in English too", () => {
  setLang("en");
  const sides = [
    { seats: [0], expected: 10.2, scored: 0 },
    { seats: [1], expected: 8.0, scored: 12 },
  ];
  const lines = luckWords({ unit: "points", against: false }, sides, nameOf);
  assert.deepEqual(lines, ["With those tiles, everyone playing equally well, the expectation was: Ana: 10 · Beto: 8.", "Result: Ana: 0 · Beto: 12.", "The deal was even."]);
  setLang("es");
});

test("where points count against, the deal favoured the lowest expectation, and the card says so", () => {
  setLang("es");
  const sides = [0, 1, 2, 3].map((seat) => ({ seats: [seat], expected: [12, 3, 9, 20][seat], scored: [10, 0, 4, 30][seat] }));
  const lines = luckWords({ unit: "points", against: true }, sides, nameOf);
  assert.equal(lines[2], "El reparto favorecía a Beto.");
  assert.match(lines[3], /menos es mejor/);
});

test("palitos keep a decimal; a side's name is its team's letter or its player's name", () => {
  setLang("es");
  const sides = [
    { seats: [0, 2], expected: 3.25, scored: 5 },
    { seats: [1, 3], expected: 4.0, scored: 2 },
  ];
  const [expected] = luckWords({ unit: "palitos", against: false }, sides, nameOf);
  assert.equal(expected, "Con esas fichas, jugando todos igual de bien, se esperaba: Pareja A: 3.3 palitos · Pareja B: 4 palitos.");
  assert.equal(sideName({ seats: [3] }, 3, nameOf), "Dani");
});
