// The clock's warnings and the table's notices as pure functions
// (src/tranque/web/js/alerts_format.js). `node --test tests/web/js/`.

import assert from "node:assert/strict";
import { test } from "node:test";

const { DEFAULT_SETTINGS, SHOW_SECONDS, WARN_SECONDS, readSettings, ringText, secondsLeft, timeoutLine, turnBegan, warning } = await import(
  "../../../src/tranque/web/js/alerts_format.js"
);

test("the seconds left count up to the next whole second, never below zero", () => {
  assert.equal(secondsLeft(4200), 5);
  assert.equal(secondsLeft(5000), 5);
  assert.equal(secondsLeft(1), 1);
  assert.equal(secondsLeft(0), 0);
  assert.equal(secondsLeft(-300), 0);
});

test("the ring shows its seconds only in the last ten, and nothing once time is out", () => {
  assert.equal(SHOW_SECONDS, 10);
  assert.equal(ringText(25_000), "");
  assert.equal(ringText(10_001), "");
  assert.equal(ringText(10_000), "10");
  assert.equal(ringText(6_500), "7");
  assert.equal(ringText(400), "1");
  assert.equal(ringText(0), "");
});

test("a beep on each of the last seconds and one vibration on reaching them", () => {
  assert.equal(WARN_SECONDS, 5);
  assert.deepEqual(warning(null, 4), { beep: false, vibrate: false }); // the first frame seen
  assert.deepEqual(warning(7, 6), { beep: false, vibrate: false });
  assert.deepEqual(warning(6, 5), { beep: true, vibrate: true });
  assert.deepEqual(warning(5, 5), { beep: false, vibrate: false }); // the same second, another frame
  assert.deepEqual(warning(5, 4), { beep: true, vibrate: false });
  assert.deepEqual(warning(2, 1), { beep: true, vibrate: false });
  assert.deepEqual(warning(1, 0), { beep: false, vibrate: false }); // time out: the server plays
  assert.deepEqual(warning(3, 30), { beep: false, vibrate: false }); // a new turn
});

test("the time-out line names what the machine did, only for your own seat", () => {
  const play = { seat: 0, by: "timeout", action: { type: "play", tile: "6-0", side: "left" } };
  assert.deepEqual(timeoutLine(play, 0), { key: "al_timeout_play", params: { tile: "6-0" } });
  assert.equal(timeoutLine(play, 1), null); // someone else's clock
  assert.equal(timeoutLine(play, null), null); // a spectator
  assert.equal(timeoutLine({ ...play, by: "human" }, 0), null);
  assert.equal(timeoutLine({ ...play, by: "auto" }, 0), null); // a forced move is no time-out
  assert.deepEqual(timeoutLine({ seat: 0, by: "timeout", action: { type: "draw" } }, 0), { key: "al_timeout_draw", params: {} });
  assert.deepEqual(timeoutLine({ seat: 0, by: "timeout", action: { type: "pass" } }, 0), { key: "al_timeout_pass", params: {} });
});

test("a turn begins for you when its id is new, not for a forced move", () => {
  const turn = (seat, id, auto = false) => ({ you: 0, turn: { seat, turn_id: id, auto } });
  assert.equal(turnBegan(turn(1, 4), turn(0, 5)), true);
  assert.equal(turnBegan({ you: 0, turn: null }, turn(0, 5)), true);
  assert.equal(turnBegan(turn(0, 5), turn(0, 5)), false); // the same turn, another event
  assert.equal(turnBegan(turn(0, 5), turn(1, 6)), false);
  assert.equal(turnBegan(turn(1, 5), turn(0, 6, true)), false);
  assert.equal(turnBegan(turn(1, 5), { ...turn(0, 6), you: null }), false);
});

test("the switches read back with defaults for what is missing or broken", () => {
  assert.deepEqual(readSettings(null), DEFAULT_SETTINGS);
  assert.deepEqual(readSettings('{"sound": false}'), { ...DEFAULT_SETTINGS, sound: false });
  assert.deepEqual(readSettings('{"vibration": "yes", "notifications": true}'), { ...DEFAULT_SETTINGS, notifications: true });
  assert.deepEqual(readSettings("{not json"), DEFAULT_SETTINGS);
});
