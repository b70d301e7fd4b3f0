// «Pista» (src/tranque/web/js/hint.js, and the reducer's `hint` in table_state.js): what the
// table keeps of a hint the server gave, what it lights and what it says, in both languages.
// `node --test tests/web/js/`.

import assert from "node:assert/strict";
import { test } from "node:test";

globalThis.localStorage = globalThis.localStorage || { getItem: () => null, setItem: () => {} };
globalThis.document = globalThis.document || { documentElement: {} };

const { setLang } = await import(new URL("../../../src/tranque/web/js/i18n.js", import.meta.url));
const { initialState, reduceEvent, reduceHint, reduceSync } = await import(
  new URL("../../../src/tranque/web/js/table_state.js", import.meta.url)
);
const { canAskHint, currentHint, hintTarget, hintText, offersHints } = await import(
  new URL("../../../src/tranque/web/js/hint.js", import.meta.url)
);

const RIGHT = { type: "play", tile: "6-4", side: "right" };

// Seat 0 of a practice table, on turn 5 with these legal actions (the line's ends 4 and 6).
function onTurn(legal, overrides = {}) {
  return {
    ...initialState({ you: 0 }),
    seq: 20,
    table: "mesa",
    kind: "practice",
    phase: "playing",
    ends: [4, 6],
    hand: ["6-4", "5-5", "3-1"],
    turn: { seat: 0, turn_id: 5, deadline: 0, auto: false },
    options: { turn_id: 5, legal_actions: legal },
    ...overrides,
  };
}

function hintEvent(seq, data) {
  return { type: "event", seq, kind: "hint", at: 0, data };
}

test("the asker's hint event is kept for its turn; another seat's (no action) changes nothing", () => {
  const state = onTurn([RIGHT]);
  const mine = reduceEvent(state, hintEvent(21, { seat: 0, turn_id: 5, action: RIGHT, count: 1 }));
  assert.deepEqual(mine.hint, { turn_id: 5, action: RIGHT });
  assert.equal(mine.seq, 21);
  assert.deepEqual(currentHint(mine), { turn_id: 5, action: RIGHT });
  const theirs = reduceEvent(state, hintEvent(21, { seat: 2, turn_id: 5, count: 3 }));
  assert.equal(theirs.hint, null);
  assert.equal(theirs.seq, 21);
  assert.equal(state.hint, null, "the state given is never changed");
});

test("the ack brings the hint too, with how many are left", () => {
  const state = reduceHint(onTurn([RIGHT]), { type: "ack", id: 4, turn_id: 5, action: RIGHT, left: 19, seq: 21 });
  assert.deepEqual(state.hint, { turn_id: 5, action: RIGHT });
  assert.equal(state.hintsLeft, 19);
  assert.equal(reduceHint(state, { type: "ack", id: 5, pong: true }), state);
});

test("a hint is shown only for the turn it was given for", () => {
  let state = reduceHint(onTurn([RIGHT]), { turn_id: 5, action: RIGHT, left: 3 });
  state = reduceEvent(state, { type: "event", seq: 21, kind: "turn", at: 0, data: { seat: 1, turn_id: 6, deadline: 0, auto: false } });
  assert.equal(currentHint(state), null);
  assert.equal(hintTarget(state), null);
  state = reduceEvent(state, { type: "event", seq: 22, kind: "turn", at: 0, data: { seat: 0, turn_id: 7, deadline: 0, auto: false } });
  assert.equal(currentHint(state), null, "a later turn of the same seat has no hint yet");
});

test("the button: only a seat of a practice table, on its turn, once a turn, while hints are left", () => {
  const state = onTurn([RIGHT]);
  assert.equal(offersHints(state), true);
  assert.equal(canAskHint(state), true);
  assert.equal(offersHints({ ...state, kind: "public" }), false);
  assert.equal(canAskHint({ ...state, kind: "quick" }), false);
  assert.equal(offersHints({ ...state, you: null }), false, "a spectator");
  assert.equal(canAskHint({ ...state, turn: { ...state.turn, seat: 1 } }), false, "another seat's turn");
  assert.equal(canAskHint({ ...state, options: null }), false, "no options: not this seat's move");
  assert.equal(canAskHint({ ...state, turn: null, phase: "between_rounds" }), false);
  assert.equal(canAskHint(reduceHint(state, { turn_id: 5, action: RIGHT })), false, "already given");
  assert.equal(canAskHint({ ...state, hintsLeft: 0 }), false, "used up");
  assert.equal(canAskHint({ ...state, hintsLeft: 2 }), true);
});

test("what is lit: the tile, and its end only when the server lists it on both ends", () => {
  const both = onTurn([{ type: "play", tile: "6-4", side: "left" }, RIGHT, { type: "play", tile: "5-5", side: "left" }]);
  assert.deepEqual(hintTarget(reduceHint(both, { turn_id: 5, action: RIGHT })), { type: "play", tile: "6-4", side: "right" });
  const one = onTurn([RIGHT, { type: "play", tile: "3-1", side: "left" }]);
  assert.deepEqual(hintTarget(reduceHint(one, { turn_id: 5, action: RIGHT })), { type: "play", tile: "6-4", side: null });
  const written = reduceHint(both, { turn_id: 5, action: { type: "play", tile: "4-6", side: "right" } });
  assert.equal(hintTarget(written).tile, "6-4", "a tile is the same tile whichever half comes first");
  const draw = onTurn([{ type: "draw" }]);
  assert.deepEqual(hintTarget(reduceHint(draw, { turn_id: 5, action: { type: "draw" } })), { type: "draw", tile: null, side: null });
});

test("the words, in Spanish and in English", () => {
  setLang("es");
  assert.equal(hintText(RIGHT), "Pista: juega el 6-4 a la derecha");
  assert.equal(hintText({ type: "play", tile: "5-2", side: "left" }), "Pista: juega el 5-2 a la izquierda");
  assert.equal(hintText({ type: "play", tile: "6-6", side: null }), "Pista: sal con el 6-6");
  assert.equal(hintText({ type: "draw" }), "Pista: roba del pozo");
  assert.equal(hintText({ type: "pass" }), "Pista: pasa");
  setLang("en");
  assert.equal(hintText(RIGHT), "Hint: play the 6-4 on the right");
  assert.equal(hintText({ type: "play", tile: "6-6", side: null }), "Hint: lead with the 6-6");
  assert.equal(hintText({ type: "draw" }), "Hint: draw from the boneyard");
  assert.equal(hintText({ type: "pass" }), "Hint: pass");
  setLang("es");
});

test("a resync keeps this table's hint and a new game forgets it", () => {
  const state = reduceHint(onTurn([RIGHT]), { turn_id: 5, action: RIGHT, left: 4 });
  const snapshot = {
    type: "sync", seq: 30, table: "mesa", kind: "practice", phase: "playing", you: 0, rules: { players: 2, mode: "individual" },
    seats: [], view: null, round: 0, turn: { seat: 0, turn_id: 5, deadline: 0 }, game: 1,
  };
  const synced = reduceSync(state, snapshot);
  assert.deepEqual(synced.hint, { turn_id: 5, action: RIGHT });
  assert.equal(synced.hintsLeft, 4);
  assert.equal(reduceSync(state, { ...snapshot, table: "otra" }).hint, null);
  const rematch = reduceEvent({ ...state, rules: { players: 2, mode: "individual" } }, { type: "event", seq: 21, kind: "game_started", at: 0, data: { first_starter: null, game: 2 } });
  assert.equal(rematch.hint, null);
  assert.equal(rematch.hintsLeft, null);
  // The sync says how many a game gives and how many are left; el reparto del día gives none.
  const counted = reduceSync(state, { ...snapshot, hints: { per_game: 20, left: 7 } });
  assert.equal(counted.hintsLeft, 7);
  assert.equal(offersHints(counted), true);
  const reparto = reduceSync(state, { ...snapshot, hints: { per_game: 0, left: 0 }, deals: "reparto:2026-12-07:individual" });
  assert.equal(offersHints(reparto), false, "no «Pista» at a table that gives no hints");
  assert.equal(reparto.deals, "reparto:2026-12-07:individual");
});
