// The home page's «¿Qué jugarías? · el del día» card, and the browser's streak of days the
// day's puzzle was solved (localStorage). Light on purpose: the home page loads it on the
// first visit, the puzzles' page (puzzles.js) only when asked for.

import { t } from "./i18n.js";
import { el, button } from "./dom.js";
import { liveStreak, localDay } from "./puzzles_format.js";

const STREAK_KEY = "tranque.puzzles.streak";

export function readStreak() {
  try {
    return JSON.parse(localStorage.getItem(STREAK_KEY) || "null");
  } catch {
    return null;
  }
}

export function saveStreak(state) {
  try {
    localStorage.setItem(STREAK_KEY, JSON.stringify(state));
  } catch {
    // private browsing: no streak, nothing else lost
  }
}

// The home page's card: a link to today's puzzle.
export function dailyCard(app) {
  const card = el(
    "section",
    { class: "card puzzle-card", "aria-labelledby": "puzzle-card-title" },
    el("h2", { id: "puzzle-card-title", text: t("pz_card_title") }),
    el("p", { text: t("pz_card_text") }),
  );
  const go = button(t("pz_card_go"), () => app.go("#/que-jugarias"), "primary");
  go.id = "puzzle-card-go";
  card.append(go);
  const count = liveStreak(readStreak(), localDay(new Date()));
  if (count) card.append(el("p", { class: "note", text: streakText(count) }));
  return card;
}

export function streakText(count) {
  return count === 1 ? t("pz_streak_one") : t("pz_streak", { n: count });
}

