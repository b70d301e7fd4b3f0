// The turn clock: the ring around the active seat's badge empties as its deadline nears.
// The server keeps every clock; this only draws it, correcting for the skew between the
// server's clock and this one with each `turn` event's `at` (docs/protocol.md, «Clocks»).
// Your own ring shows its last seconds (alerts_format.js), and `onTick` hears each frame's
// time left of the active turn (alerts.js beeps and vibrates from it).

import { ringText } from "./alerts_format.js";

const RADIUS = 15;
const LENGTH = 2 * Math.PI * RADIUS;

export class TurnClock {
  constructor(root, getState) {
    this.root = root;
    this.getState = getState;
    this.offset = 0; // server time minus this browser's, in ms
    this.frame = null;
    this.paused = false; // the server's table waits for its database: the clock stands still
    this.onTick = null; // (leftMs, seat) on each frame of a running turn
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
    return Math.min(1, this.left(state, now) / (state.rules.turn_seconds * 1000));
  }

  // Milliseconds left of the turn.
  left(state, now = Date.now()) {
    return Math.max(0, state.turn.deadline * 1000 - (now + this.offset));
  }

  draw() {
    const state = this.getState();
    const ring = this.root.querySelector(".badge.active .clock-ring");
    for (const svg of this.root.querySelectorAll(".clock.counting")) if (!ring || svg !== ring.ownerSVGElement) this.drawSeconds(svg, "");
    if (!ring || !state || !state.turn || this.paused) return;
    const fraction = this.fraction(state);
    ring.style.strokeDasharray = `${LENGTH}`;
    ring.style.strokeDashoffset = `${LENGTH * (1 - fraction)}`;
    ring.classList.toggle("late", fraction < 0.25);
    const left = this.left(state);
    this.drawSeconds(ring.ownerSVGElement, ring.closest(".me") && !state.turn.auto ? ringText(left) : "");
    if (this.onTick) this.onTick(left, state.turn.seat);
  }

  // The seconds inside the ring (an SVG text turned back upright: the clock is turned a
  // quarter so that its ring starts at the top).
  drawSeconds(svg, text) {
    let label = svg.querySelector(".clock-seconds");
    if (!label && !text) return;
    if (!label) {
      label = document.createElementNS("http://www.w3.org/2000/svg", "text");
      label.setAttribute("class", "clock-seconds");
      label.setAttribute("x", "18");
      label.setAttribute("y", "18");
      label.setAttribute("transform", "rotate(90 18 18)");
      label.setAttribute("text-anchor", "middle");
      label.setAttribute("dominant-baseline", "central");
      svg.append(label);
    }
    if (label.textContent !== text) label.textContent = text;
    svg.classList.toggle("counting", Boolean(text));
  }
}

export const CLOCK_RADIUS = RADIUS;
