// The turn clock: the ring around the active seat's badge empties as its deadline nears.
// The server keeps every clock; this only draws it, correcting for the skew between the
// server's clock and this one with each `turn` event's `at` (docs/protocol.md, «Clocks»).

const RADIUS = 15;
const LENGTH = 2 * Math.PI * RADIUS;

export class TurnClock {
  constructor(root, getState) {
    this.root = root;
    this.getState = getState;
    this.offset = 0; // server time minus this browser's, in ms
    this.frame = null;
    this.paused = false; // the server's table waits for its database: the clock stands still
  }

  // A `turn` event arrived now: its `at` is the server's time of it.
  sync(atSeconds) {
    if (typeof atSeconds === "number") this.offset = atSeconds * 1000 - Date.now();
  }

  start() {
    const tick = () => {
      this.draw();
      this.frame = requestAnimationFrame(tick);
    };
    tick();
  }

  stop() {
    cancelAnimationFrame(this.frame);
    this.frame = null;
  }

  // What is left of the turn, from 1 (all of it) to 0.
  fraction(state, now = Date.now()) {
    if (!state || !state.turn || !state.rules) return 0;
    const total = state.rules.turn_seconds * 1000;
    const left = Math.max(0, state.turn.deadline * 1000 - (now + this.offset));
    return Math.min(1, left / total);
  }

  draw() {
    const state = this.getState();
    const ring = this.root.querySelector(".badge.active .clock-ring");
    if (!ring || !state || !state.turn || this.paused) return;
    const fraction = this.fraction(state);
    ring.style.strokeDasharray = `${LENGTH}`;
    ring.style.strokeDashoffset = `${LENGTH * (1 - fraction)}`;
    ring.classList.toggle("late", fraction < 0.25);
  }
}

export const CLOCK_RADIUS = RADIUS;
