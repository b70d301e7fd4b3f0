// What the table options form may offer, read from GET /api/presets and nothing else: the
// server says which player counts a preset seats, which modes and targets each count allows,
// the turn times and whether a capicúa bonus can be set (docs/protocol.md, «presets»). The
// client copies no rule table, so a choice the form offers is a choice the server accepts.
//
// Pure functions over the server's list, no DOM: tested by `node --test tests/web/js`.

// The player counts `preset` seats, as strings, in the server's order.
export function playerCounts(preset) {
  return preset.players.map(String);
}

// Everything the form offers for `preset` with `players` at the table (a count it seats, or
// none: the preset's default count). Values are as the server spells them.
export function formChoices(preset, players = undefined) {
  const defaults = preset.defaults;
  const counts = playerCounts(preset);
  const wanted = players === undefined || players === null ? "" : String(players);
  const n = counts.includes(wanted) ? wanted : String(defaults.players);
  const modes = preset.modes[n];
  const targets = preset.target_choices[n];
  const turns = preset.turn_seconds_choices;
  const bonuses = preset.capicua ? preset.capicua_bonus_choices.filter((bonus) => bonus > 0) : [];
  return {
    counts,
    players: n,
    modes,
    mode: defaults.mode[n],
    targets,
    target: defaults.target[n],
    turnSeconds: turns,
    turn: defaults.turn_seconds,
    // Offered only where the server says a bonus can be set, with the server's amount.
    capicua: bonuses.length > 0,
    capicuaBonus: bonuses[0],
    capicuaDefault: defaults.capicua_bonus > 0,
  };
}

// The preset's summary in `lang`; the Spanish one when the server has no English one.
export function presetSummary(preset, lang) {
  return (lang === "en" && preset.summary_en) || preset.summary || "";
}

export function presetTitle(preset, lang) {
  return (lang === "en" && preset.title_en) || preset.title || preset.name;
}

// The body of POST /api/tables for the form's `chosen` rules: private or public, and
// competitive (it counts for the rankings when everyone has an account) or casual, which is
// what the form starts with.
export function tableBody(chosen, { isPrivate = false, competitive = false, bots = false, spectators = null, stake = 0 } = {}) {
  const body = { ...chosen, private: Boolean(isPrivate), competitive: competitive === true };
  if (competitive === true && stake > 0) body.stake = stake; // fichas in the pot to sit (js/fichas_view.js)
  if (bots === true) body.bots = true; // «Acepta bots»: bot accounts may sit (docs/bots.md)
  if (isPrivate && spectators) body.spectators = spectators; // «Mirones» (talk/watching.py)
  return body;
}

// #/crear/pena/<slug>: the form of «Nueva mesa de la peña»; null for any other table form.
export function penaTableSlug(hash) {
  const parts = String(hash || "").replace(/^#/, "").split("?")[0].split("/").filter(Boolean);
  return parts[0] === "crear" && parts[1] === "pena" && parts[2] ? decodeURIComponent(parts[2]) : null;
}
