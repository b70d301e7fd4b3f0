// Browser notifications (the Notification API) and the alert switches they share with the
// table's sounds (alerts.js): what is switched on, asking the browser's permission, and a
// notification that brings this tab to a page. Loaded with the home page (friends' and
// tournaments' notices use it); the table's sounds come with the table.

import { SETTINGS_KEY, readSettings } from "./alerts_format.js";

export function alertSettings() {
  return readSettings(localStorage.getItem(SETTINGS_KEY));
}

export function setAlertSetting(key, value) {
  localStorage.setItem(SETTINGS_KEY, JSON.stringify({ ...alertSettings(), [key]: value }));
}

// Browser notifications -----------------------------------------------------------------

export function notificationsSupported() {
  return typeof window.Notification === "function";
}

export function notificationsOn() {
  return notificationsSupported() && alertSettings().notifications && Notification.permission === "granted";
}

// Asks the browser (only ever after the player chose to: a switch, the table's offer).
// Resolves to whether notifications may be shown now; the switch follows the answer.
export async function askNotifications() {
  if (!notificationsSupported()) return false;
  let permission = Notification.permission;
  if (permission === "default") {
    try {
      permission = await Notification.requestPermission();
    } catch {
      permission = "denied";
    }
  }
  setAlertSetting("notifications", permission === "granted");
  return permission === "granted";
}

// Whether the player is looking elsewhere (another tab, another window): then a notification
// says what the page would.
export function lookingElsewhere() {
  return document.visibilityState === "hidden" || (typeof document.hasFocus === "function" && !document.hasFocus());
}

// A notification that, clicked, brings this tab up at `hash` (or calls `open`). Phones'
// browsers only show notifications through the service worker (its `notificationclick`
// focuses the tab at `hash` there).
export function notify({ title, body, tag, hash, open = null }) {
  if (!notificationsOn()) return null;
  const options = { body, tag, icon: "/static/icons/icon-192.png", lang: document.documentElement.lang || "es", data: { hash } };
  try {
    const shown = new Notification(title, options);
    shown.onclick = () => {
      window.focus();
      if (open) open();
      else if (hash && location.hash !== hash) location.hash = hash;
      shown.close();
    };
    return shown;
  } catch {
    if (navigator.serviceWorker && navigator.serviceWorker.controller) {
      navigator.serviceWorker.ready.then((registration) => registration.showNotification(title, options)).catch(() => {});
    }
    return null;
  }
}

// The same, only when the player is looking elsewhere (the page shows it otherwise).
export function notifyElsewhere(notice) {
  return lookingElsewhere() ? notify(notice) : null;
}
