// The home page's part for a signed-in player (GET /api/home, docs/protocol.md «Home»): their
// friends' latest finished games, who won and the replay; and the tournaments starting
// soonest that they are entered in or may enter. A guest gets none of it (screens.js does
// not load this module for a guest). The peñas have their own part, beside this one.
//
//   import { friendsHome } from "./home_friends.js";
//   page.insertBefore(friendsHome(app), lobby); // fills itself in when the answer arrives

import { t, currentLang, serverMessage } from "./i18n.js";
import { api } from "./api.js";
import { el } from "./dom.js";
import { dateText, formatKey } from "./players_format.js";
import { tournamentHash, startText, entrantsText, formatKey as tournamentFormatKey } from "./tournaments_format.js";
import { wonByText, scoresText } from "./head_to_head_format.js";

export function friendsHome(app) {
  const box = el("section", { class: "home-friends", "aria-busy": "true" });
  const friends = el("section", { class: "hf-card hf-friends", "aria-labelledby": "hf-friends-title" },
    el("h2", { id: "hf-friends-title", text: t("hf_friends_title") }));
  const tournaments = el("section", { class: "hf-card hf-tournaments", "aria-labelledby": "hf-tournaments-title" },
    el("h2", { id: "hf-tournaments-title", text: t("hf_tournaments_title") }));
  box.append(friends, tournaments);
  if (!app.user) {
    box.hidden = true;
    return box;
  }
  api("/api/home").then((data) => {
    box.removeAttribute("aria-busy");
    friends.append(...friendsPart(data));
    tournaments.append(...tournamentsPart(data.tournaments || []));
  }, (error) => {
    box.removeAttribute("aria-busy");
    if (error && error.code === "login_required") box.hidden = true; // the session ended meanwhile
    else friends.append(el("p", { class: "form-error", role: "alert", text: serverMessage(error) }));
  });
  return box;
}

function friendsPart(data) {
  if (!data.friends) {
    return [el("p", { class: "note", text: t("hf_no_friends") }), el("a", { class: "button", href: "#/amigos", text: t("hf_go_friends") })];
  }
  const games = data.friends_games || [];
  if (!games.length) return [el("p", { class: "note", text: t("hf_no_games") })];
  const lang = currentLang();
  return [el("ul", { class: "hf-games" }, ...games.map((game) => {
    const date = dateText(game.finished_at, lang, true);
    const won = wonByText(game, lang);
    const friends = new Set(game.friends || []);
    const who = el("p", { class: "hf-who" });
    (game.seats || []).forEach((seat, index) => {
      if (index) who.append(", ");
      who.append(friends.has(seat.name) ? el("strong", { text: seat.name }) : document.createTextNode(seat.name));
    });
    return el("li", { class: "hf-game", "data-game": game.game_id },
      who,
      el("p", { class: "hf-result" }, el("span", { class: "hf-won", text: t(won.key, won.params) }), el("span", { class: "hf-score", text: scoresText(game.scores) })),
      el("p", { class: "hf-bottom" },
        el("span", { class: "note" }, el("time", { datetime: new Date(game.finished_at * 1000).toISOString(), text: date }), document.createTextNode(` · ${t(formatKey(game.format))}`)),
        el("a", { class: "replay-link", href: `#/partida/${encodeURIComponent(game.game_id)}`, "aria-label": t("pl_watch_replay_label", { date }), text: t("pl_watch_replay") })));
  }))];
}

function tournamentsPart(list) {
  const all = el("a", { class: "hf-all", href: "#/torneos", text: t("hf_all_tournaments") });
  if (!list.length) return [el("p", { class: "note", text: t("hf_no_tournaments") }), all];
  const lang = currentLang();
  return [el("ul", { class: "hf-events" }, ...list.map((event) => {
    const start = startText(event, lang);
    const state = event.me && event.me.registered ? "hf_entered" : "hf_can_enter";
    return el("li", { class: "hf-event", "data-tournament": event.id },
      el("a", { href: tournamentHash(event.id), text: event.name }),
      el("span", { class: "note", text: `${t(tournamentFormatKey(event.format))} · ${t("hf_starts", { when: t(start.key, start.params) })} · ${t("hf_entrants", { entrants: entrantsText(event) })}` }),
      el("span", { class: `hf-state ${state === "hf_entered" ? "entered" : ""}`, text: t(state) }));
  })), all];
}
