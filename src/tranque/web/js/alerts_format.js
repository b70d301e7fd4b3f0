// The clock's warnings and the table's notices, as pure functions of numbers and events
// (alerts.js does the sounds, vibrations and notifications; clock.js draws the seconds).

export const SHOW_SECONDS = 10; // the ring of your own turn shows its seconds from here
export const WARN_SECONDS = 5; // a beep each second from here, and one vibration
export const SETTINGS_KEY = "tranque.alerts";
export const DEFAULT_SETTINGS = { sound: true, vibration: true, notifications: false };

// Whole seconds left of `leftMs` milliseconds, as a countdown shows them (4.2 s is «5»).
export function secondsLeft(leftMs) {
  return Math.max(0, Math.ceil(leftMs / 1000));
}

// What the ring says: the seconds in the last SHOW_SECONDS, nothing before (and nothing once
// the time is out: the server plays then).
export function ringText(leftMs) {
  const seconds = secondsLeft(leftMs);
  return seconds > 0 && seconds <= SHOW_SECONDS ? String(seconds) : "";
}

// What a countdown's step from `before` to `after` seconds calls for: a beep on each of the
// last WARN_SECONDS, one vibration on reaching them. Nothing when time jumped back (a new turn).
export function warning(before, after) {
  const step = before !== null && after < before;
  const warn = step && after > 0 && after <= WARN_SECONDS;
  return { beep: warn, vibrate: warn && before > WARN_SECONDS };
}

// The line for an `action` event the clock played for `you` (docs/protocol.md: `"by":
// "timeout"`), as {key, params}, or null for any other action.
export function timeoutLine(data, you) {
  if (!data || data.by !== "timeout" || you === null || you === undefined || data.seat !== you) return null;
  const action = data.action || {};
  if (action.type === "play") return { key: "al_timeout_play", params: { tile: action.tile } };
  if (action.type === "draw") return { key: "al_timeout_draw", params: {} };
  return { key: "al_timeout_pass", params: {} };
}

// Whether `after` begins a turn of `you` that `before` did not have (a forced move excluded:
// the server plays it at once).
export function turnBegan(before, after) {
  const turn = after && after.turn;
  if (!turn || turn.auto || after.you === null || after.you === undefined || turn.seat !== after.you) return false;
  const old = before && before.turn;
  return !old || old.turn_id !== turn.turn_id;
}

// The saved switches, with the defaults for any not saved (or unreadable).
export function readSettings(text) {
  try {
    const saved = JSON.parse(text || "{}");
    const settings = { ...DEFAULT_SETTINGS };
    for (const key of Object.keys(DEFAULT_SETTINGS)) if (typeof saved[key] === "boolean") settings[key] = saved[key];
    return settings;
  } catch {
    return { ...DEFAULT_SETTINGS };
  }
}
