// The table keeps sync's `rating` and a `rating` event's (js/table_state.js), and the
// create form sends `competitive` (js/presets.js tableBody): `node --test tests/web/js/`.

import assert from "node:assert/strict";
import { test } from "node:test";

import { initialState, reduceEvent, reduceSync, reduceRating } from "../../../src/tranque/web/js/table_state.js";
import { tableBody } from "../../../src/tranque/web/js/presets.js";

const rules = { players: 2, mode: "individual", target: 100, set_max: 6 };
const casual = { competitive: false, rated: false, reason: "casual", chances: null, seats: [null, null] };
const rated = {
  competitive: true, rated: true, reason: null, chances: [0.55, 0.45],
  seats: [{ seat: 0, rating: 1512, provisional: false }, { seat: 1, rating: 1480, provisional: true }],
};

function synced(rating) {
  return reduceSync(initialState({ you: 0 }), { type: "sync", seq: 4, table: "T1", kind: "public", rules, phase: "waiting", seats: [], rating });
}

test("a new table knows nothing of its rating", () => {
  assert.equal(initialState().rating, null);
});

test("sync's rating is kept as sent; a sync without it has none", () => {
  assert.deepEqual(synced(rated).rating, rated);
  assert.deepEqual(synced(casual).rating, casual);
  assert.equal(synced(undefined).rating, null);
});

test("a rating event replaces the rating, and a later sync wins again", () => {
  const before = Object.freeze(synced(casual));
  const after = reduceEvent(before, { type: "event", seq: 5, kind: "rating", data: rated });
  assert.deepEqual(after.rating, rated);
  assert.equal(after.seq, 5);
  assert.deepEqual(before.rating, casual, "the state it was given is unchanged");
  const guest = { ...rated, rated: false, reason: "guest", chances: null };
  const third = reduceEvent(after, { type: "event", seq: 6, kind: "rating", data: guest });
  assert.equal(third.rating.reason, "guest");
  assert.deepEqual(reduceSync(third, { type: "sync", seq: 9, table: "T1", kind: "public", rules, phase: "playing", seats: [], rating: rated }).rating, rated);
});

test("a repeated rating event is ignored, a skipped one asks for a sync", () => {
  const state = synced(casual);
  assert.equal(reduceEvent(state, { type: "event", seq: 4, kind: "rating", data: rated }), state);
  assert.equal(reduceEvent(state, { type: "event", seq: 7, kind: "rating", data: rated }).gap, true);
});

test("other events keep the rating", () => {
  const state = synced(rated);
  const started = reduceEvent(state, { type: "event", seq: 5, kind: "game_started", data: { game: 1 } });
  assert.deepEqual(started.rating, rated);
  const ended = reduceEvent(started, {
    type: "event", seq: 6, kind: "game_ended",
    data: { reason: "target", scores: [100, 40], rating_changes: [{ seat: 0, before: 1512, after: 1524, xp: 20 }] },
  });
  assert.deepEqual(ended.rating, rated);
  assert.deepEqual(ended.gameEnd.rating_changes, [{ seat: 0, before: 1512, after: 1524, xp: 20 }]);
});

test("reduceRating copies what it keeps", () => {
  const data = { ...rated };
  const state = reduceRating(initialState(), data);
  data.rated = false;
  assert.equal(state.rating.rated, true);
  assert.equal(reduceRating(state, null).rating, null);
});

test("the create form sends competitive: false unless it was chosen", () => {
  const chosen = { preset: "clasico", players: 2, mode: "individual", target: 100, bot_level: "heuristic" };
  assert.deepEqual(tableBody(chosen), { ...chosen, private: false, competitive: false });
  assert.deepEqual(tableBody(chosen, { isPrivate: true, competitive: true }), { ...chosen, private: true, competitive: true });
  assert.equal(tableBody(chosen, { competitive: "yes" }).competitive, false);
});
