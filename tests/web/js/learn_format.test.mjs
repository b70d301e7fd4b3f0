// What Aprender's pages work out from the server's JSON (js/learn_format.js):
// `node --test tests/web/js/`.

import assert from "node:assert/strict";
import { test } from "node:test";

const format = await import(new URL("../../../src/tranque/web/js/learn_format.js", import.meta.url));
const { lessonKey, pipsOf, starsText, nextLesson, mergeProgress, readProgress, keepProgress, moveText, seatKey, replyMessage, resultMessage, PROGRESS_KEY } = format;
const { LEARN_MESSAGES } = await import(new URL("../../../src/tranque/web/js/messages_learn.js", import.meta.url));

const IDS = ["fichas", "pegar", "obligado", "robar", "pasar", "domino-y-tranque", "contar-tranque", "parejas", "salida", "leer-pases", "ponce", "futbol", "en-contra", "maracucho", "salon"];

function memoryStorage(initial = {}) {
  const data = { ...initial };
  return { getItem: (key) => (key in data ? data[key] : null), setItem: (key, value) => (data[key] = String(value)), data };
}

test("every lesson has its title and summary in both languages", () => {
  for (const id of IDS) {
    for (const kind of ["t", "s"]) {
      const entry = LEARN_MESSAGES[lessonKey(kind, id)];
      assert.ok(entry && entry.es && entry.en, `${kind} ${id}`);
    }
  }
  for (const [key, entry] of Object.entries(LEARN_MESSAGES)) assert.ok(entry.es && entry.en, key);
  assert.equal(lessonKey("t", "domino-y-tranque"), "ln_t_domino_y_tranque");
});

test("stars and pips are counted from the JSON as given", () => {
  assert.equal(starsText(2), "★★☆");
  assert.equal(starsText(null), "☆☆☆");
  assert.equal(starsText(7), "★★★");
  assert.equal(pipsOf("6-5"), 11);
  assert.equal(pipsOf("0-0"), 0);
});

test("the next lesson is the first without stars", () => {
  const lessons = IDS.map((id) => ({ id }));
  assert.equal(nextLesson(lessons, {}), "fichas");
  assert.equal(nextLesson(lessons, { fichas: 3, pegar: 1 }), "obligado");
  assert.equal(nextLesson(lessons, Object.fromEntries(IDS.map((id) => [id, 1]))), null);
});

test("progress merges keeping the best, and a guest's lives in the browser", () => {
  assert.deepEqual(mergeProgress({ fichas: 3, pegar: 1 }, { fichas: 2, pegar: 2, robar: 9, pasar: "3" }), { fichas: 3, pegar: 2 });
  const storage = memoryStorage({ [PROGRESS_KEY]: "not json" });
  assert.deepEqual(readProgress(storage), {});
  keepProgress(storage, "fichas", 2);
  keepProgress(storage, "fichas", 1);
  assert.deepEqual(readProgress(storage), { fichas: 2 });
  assert.deepEqual(readProgress(memoryStorage({ [PROGRESS_KEY]: "[1,2]" })), {});
});

test("a tile and an end make the engine's notation", () => {
  assert.equal(moveText("6-4", "left"), "6-4i");
  assert.equal(moveText("6-4", "right"), "6-4d");
  assert.equal(moveText("6-4", null), "6-4");
});

test("the others are named from the learner's seat", () => {
  assert.equal(seatKey(1, 2, "individual").key, "ln_seat_rival");
  assert.equal(seatKey(1, 4, "pairs").key, "ln_seat_right");
  assert.equal(seatKey(2, 4, "pairs").key, "ln_seat_partner");
  assert.equal(seatKey(3, 4, "pairs").key, "ln_seat_left");
  assert.deepEqual(seatKey(2, 4, "individual"), { key: "ln_seat_other", params: { n: 3 } });
  assert.deepEqual(replyMessage({ type: "play", seat: 2, tile: "6-3", side: "left" }, 4, "pairs"), { key: "ln_reply_play", who: { key: "ln_seat_partner", params: {} }, params: { tile: "6-3" } });
  assert.equal(replyMessage({ type: "pass", seat: 1 }, 2, "individual").key, "ln_reply_pass");
  assert.equal(replyMessage({ type: "draw", seat: 1 }, 2, "individual").key, "ln_reply_draw");
});

test("a finished round reads as the learner's win or loss", () => {
  const domino = { kind: "domino", winner: 0, winner_seat: 0, closer: 0, points: { 0: 7, 1: 0 }, counts: { 0: 0, 1: 7 }, seat_counts: { 0: 0, 1: 7 } };
  assert.deepEqual(resultMessage(domino, 2, "individual"), { key: "ln_result_domino", params: { points: 7 } });
  const tranque = { kind: "tranque", winner: 0, winner_seat: 0, closer: 0, points: { 0: 46, 1: 0 }, counts: { 0: 25, 1: 21 }, seat_counts: { 0: 6, 1: 13, 2: 19, 3: 8 } };
  assert.deepEqual(resultMessage(tranque, 4, "pairs"), { key: "ln_result_tranque", params: { points: 46 } });
  const lost = { kind: "domino", winner: 1, winner_seat: 1, closer: 1, points: { 0: 0, 1: 20 } };
  assert.equal(resultMessage(lost, 2, "individual").key, "ln_result_lost");
  assert.equal(resultMessage(null, 2, "individual"), null);
});
