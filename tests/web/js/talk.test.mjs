// Table talk in the browser (src/tranque/web/js/talk.js, table_state.js's `chat`):
// `node --test tests/web/js/`.

import assert from "node:assert/strict";
import { test } from "node:test";

function storage() {
  const items = new Map();
  return { getItem: (key) => items.get(key) ?? null, setItem: (key, value) => items.set(key, String(value)) };
}
globalThis.localStorage = storage();
globalThis.sessionStorage = storage();
globalThis.document = { documentElement: {} };

const { initialState, reduceEvent, reduceSync } = await import(new URL("../../../src/tranque/web/js/table_state.js", import.meta.url));
const { ChatSettings } = await import(new URL("../../../src/tranque/web/js/talk.js", import.meta.url));

const chat = (seq, data) => ({ type: "event", seq, kind: "chat", at: 0, data });

test("a seat keeps the lines it was sent, and none of a spectator's empty frames", () => {
  let state = { ...initialState({ you: 0 }), seq: 9 };
  state = reduceEvent(state, chat(10, { seat: 1, text: "¡Buenas!" }));
  state = reduceEvent(state, chat(11, { seat: 2, text: null })); // a muted or blocked player's
  state = reduceEvent(state, chat(12, {})); // as a spectator gets it
  assert.deepEqual(state.chat, [{ seq: 10, seat: 1, text: "¡Buenas!" }]);
  assert.equal(state.seq, 12); // no gap for the ones not shown
});

test("a sync brings the recent lines again, and a spectator's none", () => {
  const base = { type: "sync", seq: 30, table: "t", kind: "private", phase: "playing", rules: { players: 4 }, seats: [] };
  const seat = reduceSync(initialState({ you: 0 }), { ...base, you: 0, chat: [{ seq: 20, seat: 3, text: "dale" }] });
  assert.deepEqual(seat.chat, [{ seq: 20, seat: 3, text: "dale" }]);
  const spectator = reduceSync(initialState({ you: null }), { ...base, you: null, chat: [] });
  assert.deepEqual(spectator.chat, []);
});

test("a guest's mutes last the session and its switch stays in the browser", async () => {
  const local = storage();
  const session = storage();
  const settings = await new ChatSettings(local, session).load(false);
  assert.equal(settings.account, false);
  await settings.setMuted("Beto", true);
  await settings.setOff(true);
  assert.ok(settings.isMuted("beto") && settings.isMuted("BETO") && !settings.isMuted("ana"));
  const again = new ChatSettings(local, session);
  assert.ok(again.off && again.isMuted("beto"));
  await again.setMuted("beto", false);
  assert.equal(new ChatSettings(local, session).isMuted("beto"), false);
});
