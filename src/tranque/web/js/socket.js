// One WebSocket to the server that reconnects by itself (with backoff) and resumes a table
// from the last event number it saw, so a dropped connection loses nothing.
//
// A link can also die in silence, with no close and no reset (docs/protocol.md,
// «Heartbeats»): the server sends something, a `heartbeat` at least, every `interval`
// seconds (10 at most), so a socket that has heard nothing for SILENCE_FACTOR intervals is
// given up and replaced. Before that, from QUIET_FACTOR intervals of silence, the page is told
// the link is quiet (`onQuiet`): a heartbeat is overdue, the player's turn clock keeps
// running, and they should know now rather than when the socket is given up.
//
// The browser's own `offline` event gives the socket up at once (nothing can cross), and
// `online` reconnects at once instead of waiting for the backoff.

export const SILENCE_FACTOR = 2.5;
export const QUIET_FACTOR = 1.5;
export const MAX_HEARTBEAT_SECONDS = 10; // the interval until a heartbeat says it is shorter

export class Socket {
  constructor({ onMessage, onStatus, onQuiet = () => {} }) {
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    this.onQuiet = onQuiet;
    this.quiet = false;
    this.retryTimer = null;
    this.ws = null;
    this.nextId = 1;
    this.pending = new Map();
    this.queue = [];
    this.retry = 0;
    this.closedByUs = false;
    this.online = false;
    this.resume = null; // () => hello message to send after a reconnect
    this.heartbeatSeconds = MAX_HEARTBEAT_SECONDS;
    this.lastHeard = 0;
    this.watchdog = null;
    window.addEventListener("offline", () => this.wentOffline());
    window.addEventListener("online", () => this.cameOnline());
  }

  connect() {
    this.closedByUs = false;
    clearTimeout(this.retryTimer);
    this.retryTimer = null;
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${scheme}://${location.host}/ws`);
    this.ws = ws;
    ws.onopen = () => {
      this.retry = 0;
      this.heard();
      this.setOnline(true);
      const hello = this.resume && this.resume();
      if (hello) this.request(hello).catch(() => {});
      for (const text of this.queue.splice(0)) ws.send(text);
    };
    ws.onmessage = (event) => {
      this.heard();
      const message = JSON.parse(event.data);
      if (message.type === "heartbeat") {
        this.heartbeatSeconds = Math.min(message.interval, MAX_HEARTBEAT_SECONDS);
        this.watch(); // at once, in case the interval is shorter than assumed
        return;
      }
      if ((message.type === "ack" || message.type === "error") && this.pending.has(message.id)) {
        const { resolve, reject } = this.pending.get(message.id);
        this.pending.delete(message.id);
        if (message.type === "ack") resolve(message);
        else reject(message);
        return;
      }
      this.onMessage(message);
    };
    ws.onclose = () => this.lost(ws);
  }

  // The socket `ws` is gone (closed, or given up for silence): reconnect, unless we closed it.
  lost(ws) {
    if (ws !== this.ws) return; // an old socket closing after a newer one was opened
    this.ws = null;
    clearTimeout(this.watchdog);
    this.watchdog = null;
    this.setQuiet(false);
    this.setOnline(false);
    for (const { reject } of this.pending.values()) reject({ code: "offline", message: "" });
    this.pending.clear();
    if (this.closedByUs) return;
    // No network at all: retrying now would only fail; `online` (cameOnline) brings it back.
    if (!navigator.onLine) return;
    const delay = Math.min(8000, 300 * 2 ** this.retry) + Math.random() * 250;
    this.retry += 1;
    this.retryTimer = setTimeout(() => this.connect(), delay);
  }

  // The browser says the network is gone: nothing crosses any more, so do not wait for the
  // silence to prove it.
  wentOffline() {
    if (this.ws) this.giveUp();
  }

  // The network is back: reconnect now, not when the backoff would have.
  cameOnline() {
    if (this.ws || this.closedByUs) return;
    this.retry = 0;
    this.connect();
  }

  heard() {
    this.lastHeard = Date.now();
    this.setQuiet(false);
    if (this.watchdog === null) this.watch();
  }

  // Check the silence when it could first have lasted too long, not on every message.
  watch() {
    clearTimeout(this.watchdog);
    const interval = this.heartbeatSeconds * 1000;
    const limit = SILENCE_FACTOR * interval;
    const quiet = QUIET_FACTOR * interval;
    const silence = Date.now() - this.lastHeard;
    if (silence >= limit) {
      this.watchdog = null;
      this.giveUp();
      return;
    }
    if (silence >= quiet) this.setQuiet(true);
    this.watchdog = setTimeout(() => this.watch(), (silence < quiet ? quiet : limit) - silence);
  }

  setQuiet(quiet) {
    if (this.quiet !== quiet) {
      this.quiet = quiet;
      this.onQuiet(quiet);
    }
  }

  // A dead link never finishes a close handshake: stop listening to it and start over now.
  giveUp() {
    const ws = this.ws;
    if (!ws) return;
    ws.onopen = ws.onmessage = ws.onclose = null;
    ws.close();
    this.lost(ws);
  }

  setOnline(online) {
    if (this.online !== online) {
      this.online = online;
      this.onStatus(online);
    }
  }

  request(message) {
    const id = this.nextId++;
    const text = JSON.stringify({ ...message, id });
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      if (this.ws && this.ws.readyState === WebSocket.OPEN) this.ws.send(text);
      else this.queue.push(text);
    });
  }

  close() {
    this.closedByUs = true;
    const ws = this.ws;
    if (!ws) return;
    ws.close();
    this.lost(ws); // now: a socket opened next must not be taken for this one when it closes
  }
}
