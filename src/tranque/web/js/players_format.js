// What the players' pages (players.js) and the table's rating line show, worked out from the
// server's JSON (docs/protocol.md, «Players»): which ranking a hash names, the page numbers to
// offer, a rating as it reads, a rating change, the chances of winning, the geometry of a
// rating's history chart. The server computes every number; this only arranges them.
//
// Pure functions, no DOM: tested by `node --test tests/web/js`.

// The site's drawings (server/accounts/avatars.py owns the list; /avatars/<id>.svg draws each).
export const AVATAR_IDS = ["palma", "sol", "mar", "loro", "coco", "tambor", "guitarra", "gallo", "iguana", "tucan", "cafe", "mango"];

// A drawing's address; anything not on the list (an old or a foreign id) draws the first one.
export function avatarUrl(id) {
  return `/avatars/${AVATAR_IDS.includes(id) ? id : AVATAR_IDS[0]}.svg`;
}

// The rankings' tabs, as #/clasificacion/<tab>[/<page>] names them, and what each asks
// GET /api/rankings for.
export const RANKING_TABS = [
  { tab: "semana", by: "xp", period: "week", label: "pl_tab_week" },
  { tab: "mes", by: "xp", period: "month", label: "pl_tab_month" },
  { tab: "siempre", by: "xp", period: "all", label: "pl_tab_all" },
  { tab: "1contra1", by: "rating", pool: "duel", label: "pl_pool_duel" },
  { tab: "individual", by: "rating", pool: "individual", label: "pl_pool_individual" },
  { tab: "parejas", by: "rating", pool: "pairs", label: "pl_pool_pairs" },
];

// The tab and page a hash's parts name ("semana", "2"); a tab or page it does not know is
// the first tab, page 1.
export function rankingView(tab, page) {
  const found = RANKING_TABS.find((entry) => entry.tab === tab) || RANKING_TABS[0];
  const number = Number(page);
  return { ...found, page: Number.isInteger(number) && number >= 1 ? number : 1 };
}

export function rankingHash(tab, page = 1) {
  return page > 1 ? `#/clasificacion/${tab}/${page}` : `#/clasificacion/${tab}`;
}

export function rankingQuery(view) {
  const kind = view.by === "xp" ? `period=${view.period}` : `pool=${view.pool}`;
  return `/api/rankings?by=${view.by}&${kind}&page=${view.page}`;
}

// The page numbers a pager offers: the first, the last, and two either side of the current
// one, with null where numbers are left out ([1, null, 4, 5, 6, 7, 8, null, 20]).
export function pageNumbers(page, pages) {
  if (pages <= 1) return [];
  const shown = new Set([1, pages]);
  for (let n = page - 2; n <= page + 2; n++) if (n >= 1 && n <= pages) shown.add(n);
  const sorted = [...shown].sort((a, b) => a - b);
  const out = [];
  sorted.forEach((n, index) => {
    if (index && n - sorted[index - 1] > 1) out.push(null);
    out.push(n);
  });
  return out;
}

// A rating as it reads: the number, and "?" while it is provisional.
export function ratingText(entry) {
  if (!entry || entry.rating === null || entry.rating === undefined) return "—";
  return entry.provisional ? `${entry.rating}?` : String(entry.rating);
}

// A change of rating: "+12", "−8" (a real minus sign), "±0"; "" when there was none (an
// unrated game).
export function signed(change) {
  if (change === null || change === undefined) return "";
  if (change > 0) return `+${change}`;
  if (change < 0) return `−${-change}`;
  return "±0";
}

// Chances of winning as whole percentages that add up to 100 (largest remainders), in the
// teams' order; [] without chances.
export function percentages(chances) {
  if (!Array.isArray(chances) || !chances.length) return [];
  const total = chances.reduce((sum, p) => sum + p, 0) || 1;
  const exact = chances.map((p) => (100 * p) / total);
  const whole = exact.map(Math.floor);
  let left = 100 - whole.reduce((sum, n) => sum + n, 0);
  const order = exact.map((value, index) => [value - whole[index], index]).sort((a, b) => b[0] - a[0] || a[1] - b[1]);
  for (const [, index] of order) {
    if (left <= 0) break;
    whole[index] += 1;
    left -= 1;
  }
  return whole;
}

const UNRATED_KEYS = {
  casual: "pl_unrated_casual",
  guest: "pl_unrated_guest",
  bot: "pl_unrated_bot",
  same_address: "pl_unrated_same_address",
  same_address_in_play: "pl_unrated_same_address_in_play",
  many_places: "pl_unrated_many_places",
  person_at_bots_table: "pl_unrated_person_at_bots_table",
  same_owner: "pl_unrated_same_owner",
};

// The table's line about the ranking, from sync's `rating` (or a `rating` event): the message
// key to show, and the chances when the game counts. null when the server sent nothing.
export function ratingLine(rating) {
  if (!rating) return null;
  if (rating.rated) return { key: "pl_rated", chances: percentages(rating.chances) };
  const reason = rating.reason || (rating.competitive ? null : "casual");
  return { key: UNRATED_KEYS[reason] || "pl_unrated", chances: [] };
}

// The history chart of a rating: `history` is [{at, rating}] oldest first. Returns the
// polyline's points, a dot per game, the value range and the two labelled levels, in a box
// of `width` × `height` with `pad` around the plot (`left` on the left, for the levels'
// numbers). One point draws as a flat line.
export function chartGeometry(history, { width = 320, height = 120, pad = 24, left = pad } = {}) {
  const values = (history || []).map((point) => point.rating);
  if (!values.length) return null;
  let min = Math.min(...values);
  let max = Math.max(...values);
  if (max - min < 20) {
    const middle = (max + min) / 2;
    min = middle - 10;
    max = middle + 10;
  }
  const plotWidth = width - left - pad;
  const plotHeight = height - 2 * pad;
  const x = (index) => (values.length === 1 ? left + plotWidth / 2 : left + (index * plotWidth) / (values.length - 1));
  const y = (value) => pad + ((max - value) * plotHeight) / (max - min);
  const round = (n) => Math.round(n * 10) / 10;
  const dots = values.map((value, index) => ({ x: round(x(index)), y: round(y(value)), rating: value }));
  const points = values.length === 1 ? [{ x: left, y: dots[0].y }, dots[0], { x: width - pad, y: dots[0].y }] : dots;
  return {
    width,
    height,
    left,
    right: width - pad,
    min: Math.round(min),
    max: Math.round(max),
    dots,
    points: points.map((p) => `${p.x},${p.y}`).join(" "),
    levels: [
      { value: Math.round(max), y: pad },
      { value: Math.round(min), y: height - pad },
    ],
  };
}

// The key of a game's result for the player whose list it is.
export function resultKey(game) {
  if (game.abandoned) return "pl_result_abandoned";
  return game.won ? "pl_result_won" : "pl_result_lost";
}

// The message key of a format (a rating pool; a bot account's pools are the bots' own).
export function formatKey(format) {
  const keys = {
    duel: "pl_pool_duel",
    individual: "pl_pool_individual",
    pairs: "pl_pool_pairs",
    "bots:duel": "bt_pool_duel",
    "bots:individual": "bt_pool_individual",
    "bots:pairs": "bt_pool_pairs",
  };
  return keys[format] || format;
}

// A date in the reader's language ("3 de diciembre de 2026"); `epoch` in seconds.
export function dateText(epoch, lang, withTime = false) {
  const options = withTime ? { dateStyle: "medium", timeStyle: "short" } : { dateStyle: "long" };
  return new Intl.DateTimeFormat(lang === "en" ? "en-GB" : "es-CO", options).format(new Date(epoch * 1000));
}

// The profile's friend controls for the `friend` state the server sent: which request each
// button makes. null state: nothing to offer (a guest, or your own profile).
export function friendActions(friend, blocked) {
  if (friend === null || friend === undefined) return [];
  if (blocked) return [{ key: "pl_unblock", method: "DELETE", path: "blocks" }];
  const befriend = {
    none: [{ key: "pl_add_friend", method: "POST", path: "friends" }],
    incoming: [{ key: "pl_accept_friend", method: "POST", path: "friends" }],
    outgoing: [],
    friends: [],
  }[friend] || [];
  return [...befriend, { key: "pl_block", method: "POST", path: "blocks" }];
}
