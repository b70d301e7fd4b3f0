// The table's alerts: a beep and a vibration in your turn's last seconds, a «te toca» sound
// and a browser notification when your turn comes while this tab is hidden, and a line when
// the clock played for you. Their switches («Sonido», «Vibración», «Avisos del navegador»)
// live in the table's tools panel (`mountAlertSwitches`), saved in this browser (notify.js,
// which shows the notifications, for friends' invitations and tournaments too).

import { t } from "./i18n.js";
import { el, button, setText } from "./dom.js";
import { SHOW_SECONDS, secondsLeft, timeoutLine, turnBegan, warning } from "./alerts_format.js";
import { alertSettings, askNotifications, lookingElsewhere, notificationsOn, notificationsSupported, notify, setAlertSetting } from "./notify.js";

const OFFERED_KEY = "tranque.alerts.offered"; // the table's offer of notifications was answered

// Sounds: made here with WebAudio (no file to fetch). Browsers let a page sound only after
// the player touched it: the context is made, or resumed, on the first touch or key.
let audio = null;

function audioContext() {
  const Context = window.AudioContext || window.webkitAudioContext;
  if (!Context) return null;
  if (!audio) audio = new Context();
  if (audio.state === "suspended") audio.resume().catch(() => {});
  return audio;
}

for (const kind of ["pointerdown", "keydown"]) document.addEventListener(kind, () => audioContext(), { once: true, capture: true });

// Short tones: [frequency in Hz, start and length in seconds] each.
function tones(notes, volume = 0.15) {
  if (!alertSettings().sound) return false;
  const context = audioContext();
  if (!context || context.state !== "running") return false;
  const start = context.currentTime;
  for (const [frequency, at, length] of notes) {
    const oscillator = context.createOscillator();
    const gain = context.createGain();
    oscillator.type = "sine";
    oscillator.frequency.value = frequency;
    gain.gain.setValueAtTime(0.0001, start + at);
    gain.gain.exponentialRampToValueAtTime(volume, start + at + 0.015);
    gain.gain.exponentialRampToValueAtTime(0.0001, start + at + length);
    oscillator.connect(gain).connect(context.destination);
    oscillator.start(start + at);
    oscillator.stop(start + at + length + 0.02);
  }
  return true;
}

export const sounds = {
  tick: () => tones([[880, 0, 0.12]]), // each of the last seconds
  last: () => tones([[660, 0, 0.1], [880, 0.12, 0.18]], 0.2), // the last one
  yourTurn: () => tones([[523, 0, 0.14], [784, 0.16, 0.22]]), // «te toca»
};

export function vibrate(pattern) {
  if (!alertSettings().vibration || typeof navigator.vibrate !== "function") return false;
  return navigator.vibrate(pattern);
}

// The switches, in the tools panel's aids section: `mountAlertSwitches(aids, toast)`.
export function mountAlertSwitches(container, toast) {
  if (!container) return null;
  const group = el("div", { class: "alert-switches" });
  const settings = alertSettings();
  const entries = [["sound", "al_sound"], ["vibration", "al_vibration"]];
  if (notificationsSupported()) entries.push(["notifications", "al_notifications"]);
  for (const [key, label] of entries) {
    const box = el("input", { type: "checkbox", "data-alert": key });
    box.checked = key === "notifications" ? notificationsOn() : settings[key];
    box.addEventListener("change", async () => {
      if (key !== "notifications" || !box.checked) {
        setAlertSetting(key, box.checked);
        if (key === "sound" && box.checked) sounds.tick(); // what it will sound like
        return;
      }
      box.checked = await askNotifications();
      if (!box.checked) toast(t("al_notifications_blocked"));
    });
    group.append(el("label", {}, box, document.createTextNode(` ${t(label)}`)));
  }
  container.append(group);
  return group;
}

// One table's alerts: `react` after each message, `tick` on each frame of the clock.
export class TableAlerts {
  constructor(view) {
    this.view = view;
    this.second = null; // the last whole second of your turn seen by `tick`
    this.turnId = null;
    this.line = el("div", { class: "timeout-line", role: "status" });
    this.lineText = el("span");
    const close = button("✕", () => this.hideLine(), "link close-line");
    close.setAttribute("aria-label", t("al_close"));
    this.line.append(this.lineText, close);
    this.line.hidden = true;
    this.offered = false;
  }

  react(before, after, message) {
    const parts = this.view.parts;
    if (parts && parts.me && this.line.parentNode !== parts.me) parts.me.prepend(this.line);
    if (message.type === "event" && message.kind === "action") {
      const line = timeoutLine(message.data, after.you);
      if (line) this.showLine(t(line.key, line.params));
      else if (message.data && message.data.seat === after.you && message.data.by === "human") this.hideLine();
    }
    if (message.type === "event" && message.kind === "round_started") this.hideLine();
    if (turnBegan(before, after) && lookingElsewhere()) this.yourTurnElsewhere(after);
    this.offer(after);
  }

  showLine(text) {
    setText(this.lineText, text);
    this.line.hidden = false;
  }

  hideLine() {
    this.line.hidden = true;
  }

  yourTurnElsewhere(state) {
    sounds.yourTurn();
    vibrate(200);
    notify({
      title: t("al_notify_turn_title"),
      body: t("al_notify_turn_body", { n: secondsLeft(this.view.clock.left(state)) }),
      tag: `turn-${this.view.tableId}`,
      hash: `#/mesa/${encodeURIComponent(this.view.tableId)}`,
    });
  }

  // Seated with other people for the first time in this browser: offer notifications once.
  offer(state) {
    if (this.offered || state.you === null || !notificationsSupported() || Notification.permission !== "default") return;
    if (localStorage.getItem(OFFERED_KEY) || this.view.humanCount() < 2) return;
    this.offered = true;
    // In the flow below your hand, not over the table: it waits for an answer and must not
    // cover the score, a vote or a player while it does.
    const box = this.view.parts ? this.view.parts.me : document.getElementById("notices");
    if (!box) return;
    const card = el("div", { class: "notice notice-alerts", role: "status" }, el("p", { text: t("al_offer") }));
    const answered = () => (localStorage.setItem(OFFERED_KEY, "1"), card.remove());
    const yes = button(t("al_offer_yes"), async () => (answered(), await askNotifications()), "primary offer-notifications");
    card.append(el("div", { class: "actions" }, yes, button(t("al_offer_no"), answered, "link")));
    box.append(card);
  }

  tick(leftMs, seat) {
    const state = this.view.state;
    if (!state.turn || seat !== state.you || state.turn.auto) {
      this.second = null;
      return;
    }
    if (this.turnId !== state.turn.turn_id) {
      this.turnId = state.turn.turn_id;
      this.second = null;
    }
    const second = secondsLeft(leftMs);
    const { beep, vibrate: buzz } = warning(this.second, second);
    if (this.second !== null && second === SHOW_SECONDS && this.second > SHOW_SECONDS && this.view.parts) {
      setText(this.view.parts.announcer, t("al_seconds_left", { n: SHOW_SECONDS }));
    }
    this.second = second;
    if (beep) (second === 1 ? sounds.last : sounds.tick)();
    if (buzz) vibrate([120, 80, 120]);
  }
}
