// One WebSocket to the server that reconnects by itself (with backoff) and resumes a table
// from the last event number it saw, so a dropped connection loses nothing.

export class Socket {
  constructor({ onMessage, onStatus }) {
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    this.ws = null;
    this.nextId = 1;
    this.pending = new Map();
    this.queue = [];
    this.retry = 0;
    this.closedByUs = false;
    this.online = false;
    this.resume = null; // () => hello message to send after a reconnect
  }

  connect() {
    this.closedByUs = false;
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${scheme}://${location.host}/ws`);
    this.ws = ws;
    ws.onopen = () => {
      this.retry = 0;
      this.setOnline(true);
      const hello = this.resume && this.resume();
      if (hello) this.request(hello).catch(() => {});
      for (const text of this.queue.splice(0)) ws.send(text);
    };
    ws.onmessage = (event) => {
      const message = JSON.parse(event.data);
      if ((message.type === "ack" || message.type === "error") && this.pending.has(message.id)) {
        const { resolve, reject } = this.pending.get(message.id);
        this.pending.delete(message.id);
        if (message.type === "ack") resolve(message);
        else reject(message);
        return;
      }
      this.onMessage(message);
    };
    ws.onclose = () => {
      this.setOnline(false);
      for (const { reject } of this.pending.values()) reject({ code: "offline", message: "" });
      this.pending.clear();
      if (this.closedByUs) return;
      if (!navigator.onLine) {
        // No network at all: retrying now would only fail; come back when it returns.
        window.addEventListener("online", () => this.connect(), { once: true });
        return;
      }
      const delay = Math.min(8000, 300 * 2 ** this.retry) + Math.random() * 250;
      this.retry += 1;
      setTimeout(() => this.connect(), delay);
    };
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
    if (this.ws) this.ws.close();
  }
}
