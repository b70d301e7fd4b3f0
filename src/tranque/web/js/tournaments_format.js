// What the tournaments' pages (tournaments.js), their notices and the profile's «Torneos» show,
// worked out from the server's JSON (docs/protocol.md, «Tournaments»): which list a hash names,
// the formats and entries the create form offers together, the body it sends, a round's name,
// a place as an ordinal, the standings' rows, the time cap's words, what a notice says and
// where its button goes. The server computes every number; this only arranges them.
//
// Pure functions, no DOM: tested by `node --test tests/web/js`.

// The list's tabs, as #/torneos/<tab>[/<page>] names them, and what each asks the server for.
export const TOURNAMENT_TABS = [
  { tab: "proximos", status: "upcoming", label: "tn_tab_upcoming" },
  { tab: "en-juego", status: "live", label: "tn_tab_live" },
  { tab: "terminados", status: "finished", label: "tn_tab_finished" },
];

export function tournamentsView(tab, page) {
  const found = TOURNAMENT_TABS.find((entry) => entry.tab === tab) || TOURNAMENT_TABS[0];
  const number = Number(page);
  return { ...found, page: Number.isInteger(number) && number >= 1 ? number : 1 };
}

export function tournamentsHash(tab, page = 1) {
  return page > 1 ? `#/torneos/${tab}/${page}` : `#/torneos/${tab}`;
}

export function tournamentsQuery(view) {
  return `/api/tournaments?status=${view.status}&page=${view.page}`;
}

// #/torneo/ID[?invite=CODE]: the id and the invitation (null without one).
export function tournamentRoute(arg) {
  const text = String(arg || "");
  const mark = text.indexOf("?");
  const id = decodeURIComponent(mark < 0 ? text : text.slice(0, mark));
  const invite = mark < 0 ? null : new URLSearchParams(text.slice(mark + 1)).get("invite");
  return { id, invite: invite || null };
}

export function tournamentHash(id, invite = null) {
  return `#/torneo/${encodeURIComponent(id)}${invite ? `?invite=${encodeURIComponent(invite)}` : ""}`;
}

// The formats and, for each, the entries it is played with (tournaments/config.py ENTRIES:
// rotating partners in suizo and arena only, pairs not in arena; it refuses the rest).
export const FORMATS = ["minitorneo", "suizo", "arena", "duplicado"];
export const ENTRIES = {
  minitorneo: ["duel", "pairs"],
  suizo: ["duel", "pairs", "rotating"],
  arena: ["duel", "rotating"],
  duplicado: ["duel", "pairs"],
};
export const KNOCKOUT_SIZES = [4, 8, 16];

export function entriesOf(format) {
  return ENTRIES[format] || ENTRIES.minitorneo;
}

export function formatKey(format) {
  return FORMATS.includes(format) ? `tn_format_${format}` : "tn_format_unknown";
}

export function entryKey(entry) {
  return ["duel", "pairs", "rotating"].includes(entry) ? `tn_entry_${entry}` : "tn_entry_unknown";
}

export function statusKey(status) {
  return ["open", "running", "finished", "cancelled"].includes(status) ? `tn_status_${status}` : "tn_status_open";
}

// Which of the create form's fields a format uses.
export function formShape(format) {
  return {
    sizes: format === "minitorneo" ? KNOCKOUT_SIZES : null, // null: a number, 2 to 1000
    rounds: format === "suizo" || format === "duplicado",
    hands: format === "duplicado",
    window: format === "arena",
    botFill: format === "minitorneo",
    target: format !== "duplicado", // duplicado: a game is its hands, not a target
    roundEvery: format !== "arena", // rounds on a schedule (an arena has no rounds)
    // The time cap offered (minutes): a minitorneo is an evening's half hour, so its three
    // rounds get 10 minutes a game; the longer formats the federations' half hour.
    capMinutes: format === "minitorneo" ? 10 : 30,
  };
}

// The body of POST /api/tournaments (TournamentConfig's fields) from the form's values, as
// strings and booleans: minutes become seconds, the start a time in seconds (the reader's
// local clock), and a field the format does not use is left out.
export function configBody(values) {
  const shape = formShape(values.format);
  const number = (text) => Number(String(text).replace(",", "."));
  const body = {
    name: String(values.name || "").trim(),
    format: values.format,
    entry: entriesOf(values.format).includes(values.entry) ? values.entry : entriesOf(values.format)[0],
    size: number(values.size),
    game_cap_seconds: Math.round(number(values.cap_minutes) * 60),
    bot_level: values.bot_level,
    rated: Boolean(values.rated),
    private: Boolean(values.private),
    requires_attendance: Boolean(values.requires_attendance),
  };
  if (shape.target) body.target = number(values.target);
  if (shape.rounds) body.rounds = number(values.rounds);
  if (shape.hands) body.hands = number(values.hands);
  if (shape.window) body.window_seconds = Math.round(number(values.window_minutes) * 60);
  const every = String(values.round_every_minutes ?? "").trim();
  if (shape.roundEvery && every) body.round_every_seconds = Math.round(number(every) * 60);
  if (values.preset) body.preset = values.preset;
  if (shape.botFill) {
    body.bot_fill = Boolean(values.bot_fill);
    if (body.bot_fill) body.fill_wait_seconds = Math.round(number(values.fill_wait_minutes) * 60);
  }
  body.starts_at = values.when_full || !values.start ? null : Math.round(new Date(values.start).getTime() / 1000);
  return body;
}

// A place as it reads: «1º» in Spanish; «1st», «2nd», «3rd», «11th», «22nd» in English.
export function placeText(place, lang) {
  if (!Number.isInteger(place) || place < 1) return "—";
  if (lang !== "en") return `${place}º`;
  const tens = place % 100;
  const suffix = tens >= 11 && tens <= 13 ? "th" : { 1: "st", 2: "nd", 3: "rd" }[place % 10] || "th";
  return `${place}${suffix}`;
}

// A signed number with a real minus sign: «+12», «−8», «0».
export function signed(value) {
  if (value === null || value === undefined) return "";
  if (value > 0) return `+${value}`;
  if (value < 0) return `−${-value}`;
  return "0";
}

// Matchpoints as they read: whole when whole, else one decimal («12», «7,5» / «7.5»).
export function matchpointsText(value, lang) {
  if (value === null || value === undefined) return "";
  const text = Number.isInteger(value) ? String(value) : value.toFixed(1);
  return lang === "en" ? text : text.replace(".", ",");
}

// The names of an entrant: one name, or a pair's two joined.
export function entrantNames(names, lang) {
  const list = (names || []).filter(Boolean);
  if (list.length <= 1) return list[0] || "";
  const and = lang === "en" ? " & " : " y ";
  return `${list.slice(0, -1).join(", ")}${and}${list[list.length - 1]}`;
}

// The standings' columns: the extra one is the format's own tie-break (rotating partners) or
// its first key (duplicado's matchpoints).
export function standingsColumns(detail) {
  const entry = detail && (detail.entry || (detail.config && detail.config.entry));
  const format = detail && (detail.format || (detail.config && detail.config.format));
  return {
    matchpoints: format === "duplicado",
    tiebreak: entry === "rotating",
  };
}

// One row per standing, as the table shows it; `tied` when another row shares its place.
export function standingsRows(standings, lang, mine = []) {
  const list = standings || [];
  const count = new Map();
  for (const row of list) count.set(row.place, (count.get(row.place) || 0) + 1);
  return list.map((row) => ({
    entrant: row.entrant,
    place: placeText(row.place, lang),
    tied: count.get(row.place) > 1,
    names: entrantNames(row.names, lang),
    played: row.played,
    wins: row.wins,
    losses: row.losses,
    byes: row.byes || 0,
    efectividad: signed(row.efectividad),
    pointsFor: row.points_for,
    pointsAgainst: row.points_against,
    tiebreak: row.partners_tiebreak === null || row.partners_tiebreak === undefined ? "" : signed(row.partners_tiebreak),
    matchpoints: matchpointsText(row.matchpoints, lang),
    mine: (row.names || []).some((name) => mine.includes(name)),
  }));
}

// How many rounds a knock-out of `size` entrants has (4 → 2, 8 → 3, 16 → 4).
export function knockoutRounds(size) {
  return Math.max(1, Math.round(Math.log2(size || 2)));
}

// A round's name: a knock-out's by how far from the final it is; the others «Ronda n de m»
// (arena: «Ronda n», it has no set number). Returns a message key and its parameters.
export function roundLabel(detail, number) {
  const format = detail.format || (detail.config && detail.config.format);
  if (format === "minitorneo") {
    const left = knockoutRounds(detail.size) - number;
    const key = ["tn_round_final", "tn_round_semi", "tn_round_quarter", "tn_round_eighth"][left];
    if (key) return { key, params: { n: number } };
  }
  const rounds = detail.rounds_total ?? (typeof detail.rounds === "number" ? detail.rounds : detail.config && detail.config.rounds);
  if (rounds) return { key: "tn_round_n_of_m", params: { n: number, m: rounds } };
  return { key: "tn_round_n", params: { n: number } };
}

// The header's «Ronda n de m» from a Summary or a Detail (`round` 0 or null: not started).
export function progressLabel(summary) {
  if (!summary || !summary.round) return null;
  return roundLabel(summary, summary.round);
}

// In a knock-out's last round, which game is the final (between the semi-finals' winners)
// and which the third place: the final's sides all won their previous game.
export function knockoutGameKey(detail, round, game) {
  const format = detail.format || (detail.config && detail.config.format);
  if (format !== "minitorneo" || round.number !== knockoutRounds(detail.size) || round.number < 2) return null;
  const before = (detail.rounds || []).find((r) => r.number === round.number - 1);
  if (!before) return null;
  const winners = new Set();
  for (const played of before.games || []) for (const side of played.sides || []) if (side.won) for (const no of side.entrants || []) winners.add(no);
  const entrants = (game.sides || []).flatMap((side) => side.entrants || []);
  if (!entrants.length) return null;
  return entrants.every((no) => winners.has(no)) ? "tn_game_final" : "tn_game_third";
}

// A game's line: each side's names and points, who won, and its state's key.
export function gameView(game, lang) {
  const sides = (game.sides || []).map((side) => ({
    names: entrantNames(side.names, lang),
    points: side.points === null || side.points === undefined ? null : side.points,
    won: Boolean(side.won),
  }));
  const stateKey = { planned: "tn_game_planned", playing: "tn_game_playing", done: "tn_game_done" }[game.state] || "tn_game_planned";
  return { key: game.key, table: game.table || null, state: game.state, stateKey, sides };
}

// The names of a round's byes (entrant numbers → names, from the Detail's entrants).
export function byeNames(detail, round, lang) {
  const byNo = new Map((detail.entrants || []).map((entrant) => [entrant.no, entrant.names]));
  return (round.byes || []).map((no) => entrantNames(byNo.get(no) || [String(no)], lang));
}

// The podium, first place first, as places and names.
export function podiumRows(podium, lang) {
  return [...(podium || [])].sort((a, b) => a.place - b.place).map((row) => ({ place: placeText(row.place, lang), rank: row.place, names: entrantNames(row.names, lang) }));
}

// The time cap per game, in words: {key, params}.
export function capText(seconds) {
  if (!seconds || seconds <= 0) return { key: "tn_cap_none", params: {} };
  if (seconds < 60) return { key: "tn_cap_seconds", params: { n: Math.round(seconds) } };
  if (seconds % 3600 === 0) return { key: "tn_cap_hours", params: { n: seconds / 3600 } };
  return { key: "tn_cap_minutes", params: { n: Math.round(seconds / 60) } };
}

// A moment in the reader's language and time zone (seconds since the epoch).
export function timeText(epoch, lang) {
  return new Intl.DateTimeFormat(lang === "en" ? "en-GB" : "es-CO", { dateStyle: "medium", timeStyle: "short" }).format(new Date(epoch * 1000));
}

// When it starts: at its time, or when full (no time), as {key, params}.
export function startText(summary, lang) {
  if (summary && summary.starts_at) return { key: "tn_starts_at", params: { when: timeText(summary.starts_at, lang) } };
  return { key: "tn_when_full", params: {} };
}

// «5/8»: entrants and places (a Summary counts them; a Detail lists them).
export function entrantsText(summary) {
  const count = Array.isArray(summary.entrants) ? summary.entrants.length : summary.entrants ?? 0;
  return `${count}/${summary.size ?? "?"}`;
}

// The buttons `me` allows on the tournament page, in order.
export function meActions(me, status) {
  if (!me) return [];
  const actions = [];
  if (me.table) actions.push("go_table");
  if (me.can_register) actions.push("register");
  if (me.can_withdraw) actions.push("withdraw");
  if (me.can_cancel && status === "open") actions.push("cancel");
  return actions;
}

// What a socket notice {"type": "tournament", "event", "name", "round", "table"} says and
// where its button goes: {key, params, table (to play at) or null, hash (the tournament)}.
export function noticeView(message) {
  const event = message.event;
  const table = (event === "round" || event === "starting") && message.table ? message.table : null;
  const keys = {
    starting: table ? "tn_notice_starting_table" : "tn_notice_starting",
    round: table ? "tn_notice_round" : "tn_notice_bye",
    finished: "tn_notice_finished",
    withdrawn: "tn_notice_withdrawn",
  };
  return {
    key: keys[event] || "tn_notice_other",
    params: { name: message.name || "", round: message.round ?? "" },
    table,
    hash: tournamentHash(message.tournament),
  };
}

// A round's revealed deals as [{seed, salt}]: the server may send objects, pairs or
// «seed:salt» strings; anything else is left out (and then cannot be checked).
export function seedPairs(seeds) {
  return (seeds || []).map((entry) => {
    if (Array.isArray(entry)) return { seed: entry[0], salt: entry[1] };
    if (entry && typeof entry === "object") return { seed: entry.seed, salt: entry.salt };
    if (typeof entry === "string" && entry.includes(":")) {
      const [seed, salt] = entry.split(":");
      return { seed, salt };
    }
    return { seed: null, salt: null };
  });
}

// Checks a round's revealed deals against the commitments published before it: each deal's
// SHA-256(seed ‖ salt) (fairness.js `commitmentOf`, passed in) must be its commitment.
// Resolves to [{deal, ok}] (deal 1-based) and `ok` for the whole round.
export async function checkDeals(commitments, seeds, commitmentOf) {
  const pairs = seedPairs(seeds);
  const deals = [];
  for (let index = 0; index < Math.max(pairs.length, (commitments || []).length); index++) {
    const pair = pairs[index];
    const made = pair && pair.seed && pair.salt ? await commitmentOf(pair.seed, pair.salt) : null;
    deals.push({ deal: index + 1, ok: Boolean(made) && made === (commitments || [])[index] });
  }
  return { deals, ok: deals.length > 0 && deals.every((deal) => deal.ok) };
}

// A commitment shortened for the eye (the whole one is in its title): «3fa9c1…e07b».
export function shortHash(hex) {
  const text = String(hex || "");
  return text.length > 12 ? `${text.slice(0, 6)}…${text.slice(-4)}` : text;
}

// How often a live tournament's page asks again (seconds): open or running pages poll; the
// socket's notices bring news sooner.
export function refreshSeconds(status) {
  return status === "open" || status === "running" ? 3 : null;
}
