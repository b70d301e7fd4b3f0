// The browser's socket module noticing a dead link (docs/protocol.md, «Heartbeats»), with a
// stand-in WebSocket and node's mock clock: `node --test tests/web/js/`.

import assert from "node:assert/strict";
import { afterEach, beforeEach, mock, test } from "node:test";

class FakeWebSocket {
  static OPEN = 1;
  static made = [];

  constructor(url) {
    this.url = url;
    this.readyState = 0;
    this.sent = [];
    this.closed = false;
    FakeWebSocket.made.push(this);
  }

  send(text) {
    this.sent.push(JSON.parse(text));
  }

  close() {
    this.closed = true;
    this.readyState = 3;
  }

  // What the network does to the page:
  open() {
    this.readyState = FakeWebSocket.OPEN;
    this.onopen();
  }

  receive(message) {
    this.onmessage({ data: JSON.stringify(message) });
  }
}

globalThis.WebSocket = FakeWebSocket;
globalThis.location = { protocol: "http:", host: "tranque.test" };
globalThis.window = {
  listeners: {},
  addEventListener(type, listener) {
    (this.listeners[type] ||= []).push(listener);
  },
  dispatch(type) {
    for (const listener of this.listeners[type] || []) listener();
  },
};
Object.defineProperty(globalThis, "navigator", { value: { onLine: true }, configurable: true });

const { Socket, SILENCE_FACTOR, QUIET_FACTOR, MAX_HEARTBEAT_SECONDS } = await import(
  new URL("../../../src/tranque/web/js/socket.js", import.meta.url)
);

const LIMIT_MS = SILENCE_FACTOR * MAX_HEARTBEAT_SECONDS * 1000; // 25 s before any heartbeat
const BACKOFF_MS = 1000; // more than the first retry's delay (300 ms and up to 250 ms of jitter)

let page;

function openPage() {
  const seen = { messages: [], statuses: [], quiet: [] };
  const socket = new Socket({
    onMessage: (message) => seen.messages.push(message),
    onStatus: (online) => seen.statuses.push(online),
    onQuiet: (quiet) => seen.quiet.push(quiet),
  });
  socket.resume = () => ({ type: "hello", table: "T1", token: "tok", last_seq: 41 });
  socket.connect();
  FakeWebSocket.made.at(-1).open();
  return { socket, seen, ws: () => FakeWebSocket.made.at(-1) };
}

beforeEach(() => {
  FakeWebSocket.made = [];
  mock.timers.enable({ apis: ["setTimeout", "Date"] });
  page = openPage();
});

afterEach(() => {
  page.socket.close();
  mock.timers.reset();
  navigator.onLine = true;
});

test("a link silent for 2.5 heartbeat intervals is given up, and the table resumes on a new socket", () => {
  const first = page.ws();
  assert.deepEqual(first.sent, [{ type: "hello", table: "T1", token: "tok", last_seq: 41, id: 1 }]);
  mock.timers.tick(LIMIT_MS - 1);
  assert.equal(first.closed, false);
  assert.deepEqual(page.seen.statuses, [true]);

  mock.timers.tick(1);
  assert.equal(first.closed, true);
  assert.equal(first.onmessage, null, "the dead socket is no longer listened to");
  assert.deepEqual(page.seen.statuses, [true, false]);

  mock.timers.tick(BACKOFF_MS);
  assert.equal(FakeWebSocket.made.length, 2);
  const second = page.ws();
  second.open();
  assert.deepEqual(page.seen.statuses, [true, false, true]);
  assert.deepEqual(second.sent, [{ type: "hello", table: "T1", token: "tok", last_seq: 41, id: 2 }]);
});

test("any frame keeps the link alive, and heartbeats are not passed on", () => {
  for (let second = 0; second < 120; second += 10) {
    mock.timers.tick(10_000);
    page.ws().receive(second % 20 ? { type: "heartbeat", interval: 10 } : { type: "lobby", tables: [] });
  }
  assert.equal(FakeWebSocket.made.length, 1);
  assert.equal(page.ws().closed, false);
  assert.deepEqual(page.seen.statuses, [true]);
  assert.deepEqual(
    page.seen.messages.map((message) => message.type),
    Array(6).fill("lobby"),
  );
});

test("the wait is counted from the last frame", () => {
  mock.timers.tick(20_000);
  page.ws().receive({ type: "lobby", tables: [] });
  mock.timers.tick(LIMIT_MS - 1);
  assert.equal(page.ws().closed, false);
  mock.timers.tick(1);
  assert.equal(page.ws().closed, true);
});

test("a shorter heartbeat interval shortens the wait; a longer one does not lengthen it", () => {
  page.ws().receive({ type: "heartbeat", interval: 0.1 });
  mock.timers.tick(SILENCE_FACTOR * 100 - 1);
  assert.equal(page.ws().closed, false);
  mock.timers.tick(1);
  assert.equal(page.ws().closed, true);

  mock.timers.tick(BACKOFF_MS);
  const next = page.ws();
  next.open();
  next.receive({ type: "heartbeat", interval: 60 });
  mock.timers.tick(LIMIT_MS);
  assert.equal(next.closed, true);
});

test("requests waiting on a dead link are refused as offline", async () => {
  const answer = page.socket.request({ type: "ping" });
  mock.timers.tick(LIMIT_MS);
  await assert.rejects(answer, { code: "offline" });
});

test("a socket closed on purpose and replaced at once does not disturb its replacement", () => {
  const first = page.ws();
  page.socket.close(); // as the page does after logging in or out
  page.socket.connect();
  page.ws().open();
  first.onclose(); // the browser reports the old socket closed, late
  mock.timers.tick(BACKOFF_MS);
  assert.equal(FakeWebSocket.made.length, 2);
  assert.deepEqual(page.seen.statuses, [true, false, true]);
});

const QUIET_MS = QUIET_FACTOR * MAX_HEARTBEAT_SECONDS * 1000; // 15 s before any heartbeat

test("a link quiet for 1.5 intervals is reported at once, on the same socket, and any frame clears it", () => {
  mock.timers.tick(QUIET_MS - 1);
  assert.deepEqual(page.seen.quiet, []);
  mock.timers.tick(1);
  assert.deepEqual(page.seen.quiet, [true]);
  assert.equal(page.ws().closed, false, "quiet is not given up yet");
  assert.equal(FakeWebSocket.made.length, 1);
  assert.deepEqual(page.seen.statuses, [true]);
  page.ws().receive({ type: "heartbeat", interval: 10 });
  assert.deepEqual(page.seen.quiet, [true, false]);
  mock.timers.tick(QUIET_MS - 1);
  assert.deepEqual(page.seen.quiet, [true, false]);
});

test("a quiet link that stays silent is given up, and the quiet report ends with it", () => {
  mock.timers.tick(QUIET_MS);
  mock.timers.tick(LIMIT_MS - QUIET_MS);
  assert.equal(page.ws().closed, true);
  assert.deepEqual(page.seen.quiet, [true, false]);
  assert.deepEqual(page.seen.statuses, [true, false]);
});

test("the browser's offline event gives the socket up at once; online reconnects at once", () => {
  const first = page.ws();
  navigator.onLine = false;
  window.dispatch("offline");
  assert.equal(first.closed, true);
  assert.deepEqual(page.seen.statuses, [true, false]);
  mock.timers.tick(60_000);
  assert.equal(FakeWebSocket.made.length, 1, "no retries while the browser is offline");

  navigator.onLine = true;
  window.dispatch("online");
  assert.equal(FakeWebSocket.made.length, 2);
  page.ws().open();
  assert.deepEqual(page.seen.statuses, [true, false, true]);
  assert.equal(page.ws().sent[0].type, "hello");
});

test("online while a socket is open or after closing on purpose opens nothing", () => {
  window.dispatch("online");
  assert.equal(FakeWebSocket.made.length, 1);
  page.socket.close();
  window.dispatch("online");
  assert.equal(FakeWebSocket.made.length, 1);
});
