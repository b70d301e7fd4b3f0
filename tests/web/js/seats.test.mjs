// The seats this browser holds, for reloads and "Volver a tu partida" (js/seats.js):
// `node --test tests/web/js/`.

import assert from "node:assert/strict";
import { test } from "node:test";

const { rememberSeat, seatPhase, forgetSeat, savedSeats, LIVE_PHASES } = await import(
  new URL("../../../src/tranque/web/js/seats.js", import.meta.url)
);

class Store {
  constructor() {
    this.items = new Map();
  }
  get length() {
    return this.items.size;
  }
  key(index) {
    return [...this.items.keys()][index] ?? null;
  }
  getItem(key) {
    return this.items.has(key) ? this.items.get(key) : null;
  }
  setItem(key, value) {
    this.items.set(key, String(value));
  }
  removeItem(key) {
    this.items.delete(key);
  }
}

test("a remembered seat is listed with its token and kind; other keys are not seats", () => {
  const store = new Store();
  store.setItem("tranque.lang", "en");
  rememberSeat(store, "T1", { seat: 0, token: "tok", kind: "practice" });
  const [seat] = savedSeats(store);
  assert.deepEqual([seat.table, seat.seat, seat.token, seat.kind, seat.phase], ["T1", 0, "tok", "practice", null]);
  assert.equal(savedSeats(store).length, 1);
});

test("the phase the table reports is kept; tables without a saved seat are not added", () => {
  const store = new Store();
  rememberSeat(store, "T1", { seat: 1, token: "tok" });
  seatPhase(store, "T1", "finished", "public");
  seatPhase(store, "T2", "playing");
  const seats = savedSeats(store);
  assert.deepEqual(seats.map((s) => [s.table, s.phase, s.kind]), [["T1", "finished", "public"]]);
  assert.equal(LIVE_PHASES.has("finished"), false);
  assert.equal(LIVE_PHASES.has("between_rounds"), true);
});

test("a seat saved before (just seat and token) still reads; a broken entry is skipped", () => {
  const store = new Store();
  store.setItem("tranque.seat.OLD", JSON.stringify({ seat: 2, token: "t" }));
  store.setItem("tranque.seat.BAD", "{not json");
  assert.deepEqual(savedSeats(store).map((s) => s.table), ["OLD"]);
  forgetSeat(store, "OLD");
  assert.deepEqual(savedSeats(store), []);
});

test("the same token remembered again keeps its phase; a new token starts afresh", () => {
  const store = new Store();
  rememberSeat(store, "T1", { seat: 0, token: "a", kind: "public" });
  seatPhase(store, "T1", "playing");
  rememberSeat(store, "T1", { seat: 0, token: "a" });
  assert.deepEqual([savedSeats(store)[0].phase, savedSeats(store)[0].kind], ["playing", "public"]);
  rememberSeat(store, "T1", { seat: 0, token: "b" });
  assert.equal(savedSeats(store)[0].phase, null);
});
