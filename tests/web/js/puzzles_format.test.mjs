// «¿Qué jugarías?»'s pure helpers (src/tranque/web/js/puzzles_format.js): the hand's choices
// from the server's legal moves, who sits where, the round's story with the ends each move
// met, points as written, and the browser's streak. `node --test tests/web/js/`.

import assert from "node:assert/strict";
import { test } from "node:test";

import { actionFor, halves, handChoices, history, liveStreak, localDay, nextStreak, points, relation, sameMove } from "../../../src/tranque/web/js/puzzles_format.js";

const LEGAL = [
  { type: "play", tile: "6-4", side: "left" },
  { type: "play", tile: "6-4", side: "right" },
  { type: "play", tile: "4-1", side: "left" },
];

test("the hand's tiles carry the ends they may go to, from the legal moves only", () => {
  assert.deepEqual(handChoices(["6-4", "4-1", "2-2"], LEGAL), [
    { tile: "6-4", sides: ["left", "right"] },
    { tile: "4-1", sides: ["left"] },
    { tile: "2-2", sides: [] },
  ]);
  assert.deepEqual(handChoices(["6-6"], [{ type: "play", tile: "6-6", side: null }]), [{ tile: "6-6", sides: [null] }]);
});

test("a tile with one move plays at once; with two, the end decides", () => {
  assert.deepEqual(actionFor(LEGAL, "4-1"), LEGAL[2]);
  assert.equal(actionFor(LEGAL, "6-4"), null);
  assert.deepEqual(actionFor(LEGAL, "6-4", "right"), LEGAL[1]);
  assert.equal(actionFor(LEGAL, "2-2"), null);
  assert.equal(actionFor(LEGAL, "4-1", "right"), null);
});

test("who sits where, seen from the player to move", () => {
  assert.equal(relation(1, 1, 4, true), "you");
  assert.equal(relation(1, 2, 4, true), "next");
  assert.equal(relation(1, 3, 4, true), "partner");
  assert.equal(relation(1, 0, 4, true), "before");
  assert.equal(relation(0, 1, 2, false), "opponent");
  assert.equal(relation(0, 2, 4, false), "other");
});

test("the story gives each move the ends it met", () => {
  const events = [
    { type: "play", seat: 0, tile: "6-6", side: null },
    { type: "play", seat: 1, tile: "6-4", side: "right" },
    { type: "pass", seat: 2 },
    { type: "play", seat: 3, tile: "6-1", side: "left" },
    { type: "draw", seat: 0 },
  ];
  const story = history(events);
  assert.deepEqual(story.map((e) => e.ends), [null, [6, 6], [6, 4], [6, 4], [1, 4]]);
  assert.deepEqual(story.map((e) => e.kind), ["play", "play", "pass", "play", "draw"]);
  assert.deepEqual(halves("9-0"), [9, 0]);
});

test("points are signed and written in the reader's language", () => {
  assert.equal(points(12.46, "en"), "+12.5");
  assert.equal(points(12.46, "es"), "+12,5");
  assert.equal(points(-3, "es"), "−3");
  assert.equal(points(0.01, "es"), "0");
});

test("moves are the same when tile and side are", () => {
  assert.ok(sameMove(LEGAL[0], { type: "play", tile: "6-4", side: "left" }));
  assert.ok(!sameMove(LEGAL[0], LEGAL[1]));
  assert.ok(!sameMove(LEGAL[0], null));
});

test("the streak counts days in a row the day's puzzle was solved", () => {
  let state = nextStreak(null, { day: "2026-12-07", right: true, daily: true });
  assert.deepEqual(state, { last: "2026-12-07", count: 1 });
  assert.deepEqual(nextStreak(state, { day: "2026-12-07", right: true, daily: true }), state);
  state = nextStreak(state, { day: "2026-12-08", right: true, daily: true });
  assert.equal(state.count, 2);
  assert.deepEqual(nextStreak(state, { day: "2026-12-09", right: false, daily: true }), state);
  assert.deepEqual(nextStreak(state, { day: "2026-12-09", right: true, daily: false }), state);
  assert.equal(nextStreak(state, { day: "2026-12-11", right: true, daily: true }).count, 1);
  assert.equal(nextStreak({ last: "2026-12-31", count: 4 }, { day: "2027-01-01", right: true, daily: true }).count, 5);
  assert.equal(localDay(new Date(2026, 0, 5)), "2026-01-05");
  assert.equal(liveStreak({ last: "2026-12-07", count: 3 }, "2026-12-08"), 3);
  assert.equal(liveStreak({ last: "2026-12-07", count: 3 }, "2026-12-07"), 3);
  assert.equal(liveStreak({ last: "2026-12-07", count: 3 }, "2026-12-09"), 0);
  assert.equal(liveStreak(null, "2026-12-09"), 0);
});
