// The players' pages: #/clasificacion[/TAB[/PAGE]] (GET /api/rankings: XP of the week, the
// month and all time, and the rating of each pool, with «Tu puesto») and #/jugador/NAME
// (GET /api/players/NAME: avatar, XP, games, ratings with their history, recent games; your
// own avatar to change, someone else's friend and block buttons). What the numbers mean is
// the server's (docs/protocol.md, «Players»); players_format.js arranges them.

import { provisionalMark } from "./provisional.js";
import { t, currentLang, serverMessage } from "./i18n.js";
import { api } from "./api.js";
import { el, button } from "./dom.js";
import { svg } from "./tiles.js";
import { presetTitle } from "./presets.js";
import { reportButton } from "./report.js";
import { headToHeadSection } from "./head_to_head.js";
import { fichasSection } from "./fichas_profile.js";
import {
  RANKING_TABS, rankingView, rankingHash, rankingQuery, pageNumbers, avatarUrl, ratingText, signed,
  chartGeometry, resultKey, formatKey, dateText, friendActions,
} from "./players_format.js";
import { formatKey as tournamentFormatKey, placeText, tournamentHash } from "./tournaments_format.js";

const profileHash = (name) => `#/jugador/${encodeURIComponent(name)}`;

// An avatar drawing; `label` its text alternative ("" when the name is written beside it).
function avatar(id, size, label = "") {
  return el("img", { class: "avatar", src: avatarUrl(id), width: size, height: size, alt: label });
}

function playerLink(name, id) {
  return el("a", { class: "player-link", href: profileHash(name) }, avatar(id, 28), el("span", { text: name }));
}

// A rating, with «?» and a title while it is provisional (and words for a screen reader).
function ratingCell(entry) {
  if (!entry.provisional) return el("span", { class: "rating", text: ratingText(entry) });
  return el("span", { class: "rating provisional", title: t("pl_provisional") },
    document.createTextNode(String(entry.rating)), provisionalMark()); // «?»: what it means (provisional.js)
}

function failure(error) {
  return el("p", { class: "form-error", role: "alert", text: serverMessage(error) });
}

// ---------------------------------------------------------------------------------------
// #/clasificacion

export function rankingScreen(app, parts = []) {
  const view = rankingView(parts[0], parts[1]);
  const page = el("div", { class: "players-page rankings" });
  page.append(el("h1", { text: t("pl_rankings") }), tabs(view));
  const body = el("div", { class: "ranking-body", "aria-busy": "true" }, el("p", { class: "note", text: t("pl_loading") }));
  page.append(body);
  api(rankingQuery(view)).then(
    (data) => {
      body.removeAttribute("aria-busy");
      body.replaceChildren(...rankingBody(app, view, data));
    },
    (error) => {
      body.removeAttribute("aria-busy");
      body.replaceChildren(failure(error));
    },
  );
  return page;
}

// Two groups of tabs (XP by period, rating by pool): links, so each view has its address.
function tabs(view) {
  const group = (by, label) => {
    const links = RANKING_TABS.filter((entry) => entry.by === by).map((entry) =>
      el("a", { class: `tab${entry.tab === view.tab ? " current" : ""}`, href: rankingHash(entry.tab), "aria-current": entry.tab === view.tab ? "page" : null, text: t(entry.label) }));
    return el("div", { class: "tab-group" }, el("span", { class: "tab-group-label", text: label }), el("div", { class: "tab-row" }, ...links));
  };
  return el("nav", { class: "ranking-tabs", "aria-label": t("pl_rankings") }, group("xp", t("pl_by_xp")), group("rating", t("pl_by_rating")));
}

function rankingBody(app, view, data) {
  const isXp = view.by === "xp";
  const what = `${t(isXp ? "pl_by_xp" : "pl_by_rating")} · ${t(view.label)}`;
  const out = [];
  out.push(yourRank(app, view, data));
  if (!data.rows.length) {
    out.push(el("p", { class: "note nobody", text: t("pl_nobody") }));
  } else {
    const caption = t("pl_ranking_caption", { what, page: data.page, pages: data.pages, total: data.total });
    out.push(rankingTable(view, data.rows, data.me, caption));
  }
  out.push(pager(view, data));
  out.push(el("p", { class: "note", text: t(isXp ? "pl_xp_hint" : "pl_rating_hint") }));
  return out;
}

function rankingTable(view, rows, me, caption, extra = "") {
  const isXp = view.by === "xp";
  const head = el("tr", {},
    el("th", { scope: "col", class: "rank", text: t("pl_rank") }),
    el("th", { scope: "col", text: t("pl_player") }),
    el("th", { scope: "col", class: "value", text: t(isXp ? "pl_xp" : "pl_rating") }),
    isXp ? null : el("th", { scope: "col", class: "games", text: t("pl_games") }));
  const body = el("tbody");
  for (const row of rows) {
    const mine = Boolean(me && me.name === row.name);
    body.append(el("tr", { class: mine ? "mine" : null, "aria-current": mine ? "true" : null },
      el("td", { class: "rank", text: String(row.rank) }),
      el("td", { class: "who" }, playerLink(row.name, row.avatar)),
      el("td", { class: "value" }, isXp ? document.createTextNode(String(row.xp)) : ratingCell(row)),
      isXp ? null : el("td", { class: "games", text: String(row.games) })));
  }
  return el("table", { class: `ranking-table${extra}` }, el("caption", { class: caption ? null : "visually-hidden", text: caption || t("pl_your_rank") }), el("thead", {}, head), body);
}

// «Tu puesto»: your own row from `me`, wherever it falls.
function yourRank(app, view, data) {
  const box = el("section", { class: "your-rank", "aria-labelledby": "your-rank-title" }, el("h2", { id: "your-rank-title", text: t("pl_your_rank") }));
  if (data.me) box.append(rankingTable(view, [data.me], data.me, "", " mine-only"));
  else box.append(el("p", { class: "note", text: t(app.user ? "pl_not_ranked" : "pl_login_to_rank") }));
  return box;
}

function pager(view, data) {
  const nav = el("nav", { class: "pager", "aria-label": t("pl_pages") });
  const numbers = pageNumbers(data.page, data.pages);
  if (!numbers.length) return nav;
  const link = (n, text, label) =>
    el("a", { href: rankingHash(view.tab, n), "aria-label": label, "aria-current": n === data.page && !text ? "page" : null, class: n === data.page && !text ? "current" : null, text: text || String(n) });
  if (data.page > 1) nav.append(link(data.page - 1, t("pl_previous")));
  for (const n of numbers) nav.append(n === null ? el("span", { class: "gap", "aria-hidden": "true", text: "…" }) : link(n, "", t("pl_page_n", { n })));
  if (data.page < data.pages) nav.append(link(data.page + 1, t("pl_next")));
  return nav;
}

// ---------------------------------------------------------------------------------------
// #/jugador/NAME

export function profileScreen(app, name) {
  const page = el("div", { class: "players-page profile", "aria-busy": "true" }, el("p", { class: "note", text: t("pl_loading") }));
  const load = () =>
    Promise.all([api(`/api/players/${encodeURIComponent(name)}`), app.presets().catch(() => [])]).then(
      ([profile, presets]) => {
        page.removeAttribute("aria-busy");
        page.replaceChildren(...profileParts(app, profile, presets, load));
      },
      (error) => {
        page.removeAttribute("aria-busy");
        const text = error && error.code === "no_such_player" ? t("pl_no_player") : serverMessage(error);
        page.replaceChildren(el("h1", { text: name }), el("p", { class: "form-error", role: "alert", text }));
      },
    );
  load();
  return page;
}

function profileParts(app, profile, presets, reload) {
  const lang = currentLang();
  const titleOf = (preset) => {
    const found = presets.find((p) => p.name === preset);
    return found ? presetTitle(found, lang) : preset;
  };
  const picture = avatar(profile.avatar, 96, t("pl_avatar_of", { name: profile.name }));
  const head = el("header", { class: "profile-head" }, picture,
    el("div", { class: "profile-name" },
      el("h1", { text: profile.name }),
      el("p", { class: "note", text: t("pl_member_since", { date: dateText(profile.member_since, lang) }) })));
  const out = [head];
  if (profile.is_me) out.push(avatarPicker(app, profile, picture));
  else if (app.user) out.push(friendBox(app, profile, reload));
  if (app.user && !profile.is_me && !profile.is_bot) out.push(el("div", { class: "profile-card report-card" }, reportButton(profile.name)));
  if (profile.is_me) out.push(fichasSection()); // your balance and history: yours only, none when off
  out.push(xpSection(profile), gamesSection(profile, titleOf), headToHeadSection(app, profile), ratingsSection(profile), tournamentsSection(profile), recentSection(profile, titleOf));
  return out;
}

function xpSection(profile) {
  const xp = profile.xp || {};
  const item = (key, value) => el("div", { class: "stat" }, el("dt", { text: t(key) }), el("dd", { text: String(value || 0) }));
  return el("section", { class: "profile-card xp", "aria-labelledby": "pl-xp" }, el("h2", { id: "pl-xp", text: t("pl_xp_title") }),
    el("dl", { class: "stats" }, item("pl_xp_week", xp.week), item("pl_xp_month", xp.month), item("pl_xp_all", xp.all)));
}

function gamesSection(profile, titleOf) {
  const box = el("section", { class: "profile-card games", "aria-labelledby": "pl-games" }, el("h2", { id: "pl-games", text: t("pl_games_title") }));
  const totals = profile.totals || { played: 0, won: 0 };
  box.append(el("p", { class: "totals", text: t("pl_totals", totals) }));
  if (!profile.stats || !profile.stats.length) return box;
  const rows = profile.stats.map((row) =>
    el("tr", {}, el("td", { text: titleOf(row.preset) }), el("td", { text: t(formatKey(row.format)) }), el("td", { class: "num", text: String(row.played) }), el("td", { class: "num", text: String(row.won) })));
  const head = el("tr", {}, ...["pl_preset", "pl_format", "pl_played", "pl_won"].map((key, i) => el("th", { scope: "col", class: i > 1 ? "num" : null, text: t(key) })));
  box.append(el("div", { class: "scroll", tabindex: 0, role: "region", "aria-label": t("pl_stats_table") }, el("table", { class: "stats-table" }, el("thead", {}, head), el("tbody", {}, ...rows))));
  return box;
}

function ratingsSection(profile) {
  const box = el("section", { class: "profile-card ratings", "aria-labelledby": "pl-ratings" }, el("h2", { id: "pl-ratings", text: t("pl_ratings_title") }));
  const ratings = profile.ratings || [];
  if (!ratings.length) {
    box.append(el("p", { class: "note", text: t("pl_no_ratings") }));
    return box;
  }
  const list = el("div", { class: "rating-pools" });
  for (const entry of ratings) {
    const pool = t(formatKey(entry.pool));
    list.append(el("article", { class: "rating-pool", "data-pool": entry.pool },
      el("h3", { text: pool }),
      el("p", { class: "rating-now" }, ratingCell(entry), el("span", { class: "note", text: ` · ${entry.games === 1 ? t("pl_rating_game_one") : t("pl_rating_games", { n: entry.games })}` })),
      historyChart(entry, pool)));
  }
  box.append(list);
  return box;
}

// The rating after each game, as a line (no chart library: an <svg> from chartGeometry).
function historyChart(entry, pool) {
  const shape = chartGeometry(entry.history, { width: 320, height: 120, pad: 16, left: 40 });
  if (!shape) return null;
  const first = shape.dots[0].rating;
  const last = shape.dots[shape.dots.length - 1].rating;
  const root = svg("svg", {
    class: "rating-chart", viewBox: `0 0 ${shape.width} ${shape.height}`, role: "img",
    "aria-label": t("pl_rating_chart", { pool, first, last, min: shape.min, max: shape.max }),
  });
  for (const level of shape.levels) {
    root.append(svg("line", { class: "level", x1: shape.left, x2: shape.right, y1: level.y, y2: level.y }));
    const label = svg("text", { x: shape.left - 6, y: level.y + 4, "text-anchor": "end", class: "level-label" });
    label.textContent = String(level.value);
    root.append(label);
  }
  root.append(svg("polyline", { class: "series", points: shape.points }));
  if (shape.dots.length <= 40) for (const dot of shape.dots) root.append(svg("circle", { class: "dot", cx: dot.x, cy: dot.y, r: 2.5 }));
  return root;
}

// «Torneos»: the events the player entered (GET /api/players/NAME/tournaments), newest first,
// with the place reached once finished.
function tournamentsSection(profile) {
  const box = el("section", { class: "profile-card tournaments", "aria-labelledby": "pl-tournaments", "aria-busy": "true" }, el("h2", { id: "pl-tournaments", text: t("tn_profile_title") }));
  api(`/api/players/${encodeURIComponent(profile.name)}/tournaments`).then((data) => {
    box.removeAttribute("aria-busy");
    const rows = (data && data.tournaments) || [];
    if (!rows.length) return box.append(el("p", { class: "note", text: t("tn_profile_none") }));
    const lang = currentLang();
    box.append(el("ul", { class: "tn-profile-list" }, ...rows.map((row) => {
      const place = row.place ? t("tn_profile_place", { place: placeText(row.place, lang), n: row.entrants }) : t(row.status === "finished" ? "tn_status_finished" : row.status === "cancelled" ? "tn_status_cancelled" : "tn_profile_playing");
      return el("li", { "data-tournament": row.id },
        el("span", {}, el("a", { href: tournamentHash(row.id), text: row.name }), el("span", { class: "note", text: ` · ${t(tournamentFormatKey(row.format))}` })),
        el("span", {}, el("span", { class: "tn-profile-place", text: place }), row.finished_at ? el("span", { class: "note", text: ` · ${dateText(row.finished_at, lang)}` }) : null));
    })));
  }, (error) => {
    box.removeAttribute("aria-busy");
    box.append(failure(error));
  });
  return box;
}

function recentSection(profile, titleOf) {
  const box = el("section", { class: "profile-card recent", "aria-labelledby": "pl-recent" }, el("h2", { id: "pl-recent", text: t("pl_recent_title") }));
  const games = profile.recent || [];
  if (!games.length) {
    box.append(el("p", { class: "note", text: t("pl_no_games") }));
    return box;
  }
  const list = el("ul", { class: "game-list" });
  const add = (items) => items.forEach((game) => list.append(gameItem(game, profile.name, titleOf)));
  add(games);
  box.append(list);
  // More: the games before the last one shown, 20 at a time.
  let oldest = games[games.length - 1].finished_at;
  const more = button(t("pl_more_games"), async () => {
    more.disabled = true;
    try {
      const page = await api(`/api/players/${encodeURIComponent(profile.name)}/games?before=${oldest}&limit=20`);
      add(page.games);
      if (page.games.length) oldest = page.games[page.games.length - 1].finished_at;
      more.disabled = false;
      if (!page.more) more.remove();
    } catch (error) {
      more.disabled = false;
      more.after(failure(error));
    }
  }, "more-games");
  if (games.length >= 10) box.append(more);
  return box;
}

function gameItem(game, owner, titleOf) {
  const lang = currentLang();
  const date = dateText(game.finished_at, lang, true);
  const kind = [titleOf(game.preset), t(formatKey(game.format)), game.competitive ? null : t("pl_casual_game"), game.private ? t("pl_private_game") : null].filter(Boolean).join(" · ");
  const who = el("span", { class: "who" });
  (game.seats || []).forEach((seat, index) => {
    if (index) who.append(", ");
    if (seat.kind === "human" && seat.name !== owner) who.append(el("a", { href: profileHash(seat.name), text: seat.name }));
    else who.append(seat.name);
  });
  const result = el("span", { class: `result ${resultKey(game).slice(10)}`, text: t(resultKey(game)) });
  const gains = [game.xp ? `+${game.xp} XP` : "", game.rating_change === null || game.rating_change === undefined ? "" : `${t("pl_rating")} ${signed(game.rating_change)}`].filter(Boolean).join(" · ");
  const replay = el("a", { class: "replay-link", href: `#/partida/${encodeURIComponent(game.game_id)}`, "aria-label": t("pl_watch_replay_label", { date }), text: t("pl_watch_replay") });
  return el("li", { class: "game-item", "data-game": game.game_id },
    el("div", { class: "game-top" }, el("time", { datetime: new Date(game.finished_at * 1000).toISOString(), text: date }), result),
    el("div", { class: "game-kind", text: kind }),
    el("div", { class: "game-who" }, who),
    el("div", { class: "game-bottom" }, el("span", { class: "gains", text: gains }), replay));
}

// Your own profile: the twelve drawings to choose from (PUT /api/me/avatar).
function avatarPicker(app, profile, picture) {
  const box = el("fieldset", { class: "profile-card avatar-picker" }, el("legend", { text: t("pl_choose_avatar") }));
  const grid = el("div", { class: "avatar-grid" });
  box.append(grid);
  api("/api/avatars").then((avatars) => {
    for (const entry of avatars) {
      const label = currentLang() === "en" ? entry.label_en || entry.label : entry.label;
      const input = el("input", { type: "radio", name: "avatar", value: entry.id, checked: entry.id === profile.avatar });
      input.addEventListener("change", async () => {
        try {
          const saved = await api("/api/me/avatar", { avatar: entry.id }, "PUT");
          picture.src = avatarUrl(saved.avatar);
          app.toast(t("pl_avatar_saved"));
        } catch (error) {
          app.toast(serverMessage(error));
        }
      });
      grid.append(el("label", { class: "avatar-choice", title: label }, input, avatar(entry.id, 48, label)));
    }
  }, (error) => box.append(failure(error)));
  return box;
}

// Someone else's profile: add as a friend or accept, block or unblock (the friends API), and
// the state the server sent.
function friendBox(app, profile, reload) {
  const box = el("div", { class: "profile-card friend-box" });
  const friend = profile.friend && profile.friend !== "none" ? t(`pl_friend_${profile.friend}`) : "";
  const state = profile.blocked ? t("pl_blocked") : friend;
  const status = el("p", { class: "friend-state", role: "status", text: state });
  const actions = el("div", { class: "actions" });
  for (const action of friendActions(profile.friend, profile.blocked)) {
    const path = action.method === "DELETE" ? `/api/${action.path}/${encodeURIComponent(profile.name)}` : `/api/${action.path}`;
    const body = action.method === "DELETE" ? {} : { name: profile.name }; // a change is always JSON (docs/protocol.md)
    const go = button(t(action.key), async () => {
      go.disabled = true;
      try {
        await api(path, body, action.method);
        await reload();
      } catch (error) {
        go.disabled = false;
        app.toast(serverMessage(error));
      }
    }, action.key === "pl_block" ? "danger" : "primary");
    go.dataset.action = action.key;
    actions.append(go);
  }
  box.append(status, actions);
  return box;
}
