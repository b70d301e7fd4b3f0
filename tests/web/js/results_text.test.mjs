// The round and game summaries (results_text.js) over results the engine produced for every
// scoring (tests/web/js/vectors/results.json, kept equal to the engine by
// test_fairness_vectors.py): each number comes from the result, and no summary contradicts
// itself. `node --test tests/web/js/`.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

globalThis.localStorage = globalThis.localStorage || { getItem: () => null, setItem: () => {} };
globalThis.document = globalThis.document || { documentElement: {} };

const { setLang } = await import(new URL("../../../src/tranque/web/js/i18n.js", import.meta.url));
const { roundSummary, gameSummary } = await import(new URL("../../../src/tranque/web/js/results_text.js", import.meta.url));
const VECTORS = JSON.parse(readFileSync(new URL("./vectors/results.json", import.meta.url), "utf8"));
const I18N = readFileSync(new URL("../../../src/tranque/web/js/i18n.js", import.meta.url), "utf8");

function ctx(rules, seat = 0) {
  const nameOf = (s) => (s === seat ? "Tú" : `Bot ${s}`);
  const teamName = (team) => {
    if (rules.mode !== "pairs") return nameOf(team);
    const half = rules.players / 2;
    return `Pareja ${"ABC"[team]} (${nameOf(team)} + ${nameOf(team + half)})`;
  };
  return { rules, seat, nameOf, teamName };
}

const of = (preset) => VECTORS.filter((v) => v.preset === preset);
const text = (summary) => [summary.headline, ...summary.lines, summary.total].join("\n");
const positive = (perSide) => Object.entries(perSide || {}).filter(([, n]) => n > 0).map(([s, n]) => [Number(s), n]);

test("the recorded results cover every scoring and their awkward cases", () => {
  for (const preset of ["clasico", "futbol", "en-contra", "ponce", "latino", "maracucho"]) assert.ok(of(preset).length, preset);
  assert.ok(of("futbol").some((v) => v.result && Object.keys(v.result.goals).length), "a fútbol goal");
  assert.ok(of("futbol").some((v) => v.result && positive(v.result.points).length), "fútbol points");
  assert.ok(of("ponce").some((v) => v.result && Object.keys(v.result.blocker_points).length), "a ponce tranque");
  assert.ok(of("ponce").some((v) => v.result === null), "a ponce round ended by its passes");
});

test("nobody is said to score nothing next to a score, in any preset, seat or spectator", () => {
  setLang("es");
  for (const vector of VECTORS) {
    for (const seat of [0, 1, null]) {
      const words = text(roundSummary(vector, ctx(vector.rules, seat)));
      const scored = vector.result && (positive(vector.result.points).length || positive(vector.result.goals).length);
      if (scored) assert.doesNotMatch(words, /[Nn]adie anota/, words);
      assert.doesNotMatch(words, /undefined|NaN|\{|res_/, words);
    }
  }
});

test("every team's points are named with that team and their number from the result", () => {
  setLang("es");
  for (const vector of VECTORS.filter((v) => v.result && v.preset !== "en-contra")) {
    const c = ctx(vector.rules, 1);
    const { lines } = roundSummary(vector, c);
    for (const [team, n] of positive(vector.result.points)) {
      const mine = vector.rules.mode !== "pairs" && team === c.seat;
      const named = (line) => (mine ? line.startsWith(`Anotas ${n} `) : line.includes(c.teamName(team)) && line.includes(` ${n} `));
      assert.ok(lines.some(named), `${vector.preset}: ${lines}`);
    }
  }
});

test("the score line is the server's scores", () => {
  setLang("es");
  for (const vector of VECTORS) {
    const { total } = roundSummary(vector, ctx(vector.rules, 0));
    vector.scores.forEach((n, team) => assert.ok(total.includes(`${ctx(vector.rules, 0).teamName(team).replace(/^Tú$/, "Tú")} ${n}`), total));
  }
});

test("fútbol says whose goal it is and why: under 10 left, the winner scores nothing", () => {
  setLang("es");
  const goals = of("futbol").filter((v) => v.result && Object.keys(v.result.goals).length);
  for (const vector of goals) {
    const scorer = Number(Object.keys(vector.result.goals)[0]);
    const left = vector.result.counts[String(scorer)];
    assert.notEqual(scorer, vector.result.winner);
    for (const seat of [0, 1]) {
      const c = ctx(vector.rules, seat);
      const { headline, lines } = roundSummary(vector, c);
      const goal = lines.find((line) => line.includes("Gol"));
      assert.ok(goal, lines.join("\n"));
      assert.match(goal, /menos de 10/);
      assert.ok(goal.includes(`${left} puntos`), goal);
      if (seat === scorer) assert.match(goal, /^¡Gol tuyo!/);
      else assert.ok(goal.startsWith(`¡Gol de ${c.nameOf(scorer)}!`) && /no anotas/.test(goal), goal);
      // The headline names the round's winner; the goal line never says the winner scores.
      if (seat === vector.result.winner_seat) assert.match(headline, /Pusiste tu última ficha|ganas tú/);
      assert.ok(!lines.some((line) => /^(Anotas|Bot \d anota)/.test(line)), lines.join("\n"));
    }
  }
  setLang("en");
  const [vector] = goals;
  const scorer = Number(Object.keys(vector.result.goals)[0]);
  const english = roundSummary(vector, ctx(vector.rules, 1 - scorer)).lines.join(" ");
  assert.match(english, /Goal for Bot \d! You win the round, but .* under 10: you score nothing/);
  setLang("es");
});

test("en contra says the points count against you and the lowest total wins", () => {
  setLang("es");
  for (const vector of of("en-contra").filter((v) => v.result)) {
    const { lines, total } = roundSummary(vector, ctx(vector.rules, 0));
    assert.match(lines[0], /en contra de quien los tiene; al final gana quien tenga menos/);
    for (const [team, n] of Object.entries(vector.result.points)) {
      const who = Number(team) === 0 ? (n > 0 ? `Sumas ${n} en contra.` : "No sumas nada en contra.")
        : (n > 0 ? `Bot ${team} suma ${n} en contra.` : `Bot ${team} no suma nada en contra.`);
      assert.ok(lines.includes(who), `${who} in ${lines}`);
    }
    assert.ok(!lines.some((line) => /anota/.test(line)), lines.join("\n"));
    assert.match(total, /^En contra: .*\(gana quien tenga menos\)$/);
  }
  const last = of("en-contra").find((v) => v.game_over);
  const game = gameSummary({ scores: last.scores, goals: last.goals, winners: last.winners, reason: "target" }, ctx(last.rules, 0));
  assert.ok(game.lines.includes("En contra gana quien termina con menos puntos."));
});

test("ponce counts palitos and says where they came from", () => {
  setLang("es");
  for (const vector of of("ponce")) {
    const { headline, lines, total } = roundSummary(vector, ctx(vector.rules, 0));
    assert.match(total, /^Palitos: /);
    if (!vector.result) {
      assert.match(headline, /sin terminar: los palitos de los pases/);
      continue;
    }
    for (const [team, n] of positive(vector.result.points)) {
      const line = lines.find((l) => l.startsWith(`Pareja ${"AB"[team]}`));
      assert.ok(line.includes(n === 1 ? "1 palito" : `${n} palitos`), line);
      const passes = vector.result.pass_points[String(team)] || 0;
      const blocked = (vector.result.blocker_points || {})[String(team)] || 0;
      if (passes) assert.ok(line.includes(`${passes} por pases`), line);
      if (blocked) assert.ok(line.includes(`${blocked} por trancar`), line);
      if (n - passes - blocked) assert.ok(line.includes(`${n - passes - blocked} por los puntos`), line);
    }
    if (!positive(vector.result.points).length) assert.deepEqual(lines, ["Nadie anota palitos en esta mano."]);
  }
});

test("a tied tranque says nobody wins the round, and nobody scores only when nobody does", () => {
  setLang("es");
  for (const vector of VECTORS.filter((v) => v.result && v.result.tie)) {
    const { headline, lines } = roundSummary(vector, ctx(vector.rules, 0));
    assert.equal(headline, "Tranque empatado: nadie gana la mano.");
    if (!positive(vector.result.points).length) assert.deepEqual(lines, ["Nadie anota."]);
  }
});

test("an annulled game says so and why, never as a result", () => {
  setLang("es");
  const rules = VECTORS[0].rules;
  const data = { scores: [0, 0], goals: [0, 0], winners: [], reason: "annulled" };
  assert.deepEqual(gameSummary(data, ctx(rules), { annulledByVote: true }), {
    headline: "Partida anulada", lines: ["Todos votaron por anularla: no cuenta para nadie."],
  });
  assert.match(gameSummary(data, ctx(rules)).lines[0], /se quedó sin jugadores/);
});

test("a game the site's administrators annulled says so and gives their reason", () => {
  const rules = VECTORS[0].rules;
  const data = { scores: [12, 0], goals: [0, 0], winners: [], reason: "annulled", operator_reason: "La mesa se trabó" };
  setLang("es");
  assert.deepEqual(gameSummary(data, ctx(rules), { annulledByVote: true }), {
    headline: "Partida anulada",
    lines: ["La administración del sitio anuló la partida: no cuenta para nadie.", "Motivo: «La mesa se trabó»"],
  });
  setLang("en");
  assert.deepEqual(gameSummary(data, ctx(rules)).lines, [
    "The site's administrators annulled the game: it counts for nobody.", "Reason: «La mesa se trabó»",
  ]);
  setLang("es");
});

test("the summaries read in English too", () => {
  setLang("en");
  for (const vector of VECTORS) {
    const words = text(roundSummary(vector, ctx(vector.rules, 0)));
    assert.doesNotMatch(words, /res_|\{|undefined|Anotas|anota |Nadie|Marcador|Mano /, words);
  }
  setLang("es");
});

test("every res_ key has Spanish and English", () => {
  const keys = [...I18N.matchAll(/^\s*(res_\w+): \{ es: "([^"]*)", en: "([^"]*)" \},$/gm)];
  const all = [...I18N.matchAll(/^\s*(res_\w+):/gm)];
  assert.ok(all.length > 40);
  assert.equal(keys.length, all.length);
  for (const [, key, es, en] of keys) assert.ok(es && en, key);
});
