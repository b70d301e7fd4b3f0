// What the tournaments' pages, their notices and the profile's «Torneos» show
// (js/tournaments_format.js), from the JSON shapes of /api/tournaments and the socket's
// {"type": "tournament"} notices: `node --test tests/web/js/`.

import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { test } from "node:test";

const format = await import(new URL("../../../src/tranque/web/js/tournaments_format.js", import.meta.url));
const { commitmentOf } = await import(new URL("../../../src/tranque/web/js/fairness.js", import.meta.url));
const {
  tournamentsView, tournamentsHash, tournamentsQuery, tournamentRoute, tournamentHash, entriesOf, formatKey, entryKey,
  statusKey, formShape, configBody, placeText, signed, matchpointsText, entrantNames, standingsColumns, standingsRows,
  knockoutRounds, roundLabel, progressLabel, knockoutGameKey, gameView, byeNames, podiumRows, capText, startText,
  timeText, entrantsText, meActions, noticeView, seedPairs, checkDeals, shortHash, refreshSeconds,
} = format;

const standing = (entrant, place, names, extra = {}) => ({
  entrant, place, names, played: 3, wins: 2, losses: 1, byes: 0, points_for: 55, points_against: 40,
  efectividad: 15, partners_tiebreak: null, matchpoints: null, ...extra,
});

test("the list's tabs name the contract's statuses; anything unknown is the upcoming tab, page 1", () => {
  assert.deepEqual(tournamentsView("en-juego", "2"), { tab: "en-juego", status: "live", label: "tn_tab_live", page: 2 });
  assert.equal(tournamentsView(undefined).status, "upcoming");
  assert.equal(tournamentsView("nada", "0").page, 1);
  assert.equal(tournamentsView("terminados", "1.5").page, 1);
  assert.equal(tournamentsQuery(tournamentsView("terminados", "3")), "/api/tournaments?status=finished&page=3");
  assert.equal(tournamentsHash("proximos"), "#/torneos/proximos");
  assert.equal(tournamentsHash("en-juego", 2), "#/torneos/en-juego/2");
});

test("a tournament's hash carries its invitation, and is read back", () => {
  assert.equal(tournamentHash("t 1"), "#/torneo/t%201");
  assert.equal(tournamentHash("abc", "XY/9"), "#/torneo/abc?invite=XY%2F9");
  assert.deepEqual(tournamentRoute("abc?invite=XY%2F9"), { id: "abc", invite: "XY/9" });
  assert.deepEqual(tournamentRoute("t%201"), { id: "t 1", invite: null });
  assert.deepEqual(tournamentRoute("abc?other=1"), { id: "abc", invite: null });
});

test("the form offers each format only the entries it is played with", () => {
  assert.deepEqual(entriesOf("minitorneo"), ["duel", "pairs"]);
  assert.deepEqual(entriesOf("suizo"), ["duel", "pairs", "rotating"]);
  assert.deepEqual(entriesOf("arena"), ["duel", "rotating"]);
  assert.deepEqual(entriesOf("duplicado"), ["duel", "pairs"]);
  assert.equal(formatKey("duplicado"), "tn_format_duplicado");
  assert.equal(formatKey("<b>"), "tn_format_unknown");
  assert.equal(entryKey("rotating"), "tn_entry_rotating");
  assert.equal(statusKey("running"), "tn_status_running");
  assert.equal(statusKey("???"), "tn_status_open");
});

test("each format's fields: sizes for the knock-out, rounds, hands, window, bots' fill", () => {
  assert.deepEqual(formShape("minitorneo"), { sizes: [4, 8, 16], rounds: false, hands: false, window: false, botFill: true, target: true, roundEvery: true, capMinutes: 10 });
  assert.deepEqual(formShape("suizo"), { sizes: null, rounds: true, hands: false, window: false, botFill: false, target: true, roundEvery: true, capMinutes: 30 });
  assert.deepEqual(formShape("arena"), { sizes: null, rounds: false, hands: false, window: true, botFill: false, target: true, roundEvery: false, capMinutes: 30 });
  assert.deepEqual(formShape("duplicado"), { sizes: null, rounds: true, hands: true, window: false, botFill: false, target: false, roundEvery: true, capMinutes: 30 });
});

const formValues = {
  name: "  Copa del Caribe ", format: "minitorneo", entry: "duel", size: "8", rounds: "5", hands: "4", window_minutes: "60",
  target: "20", cap_minutes: "1,5", when_full: true, start: "", bot_fill: true, fill_wait_minutes: "0.5", bot_level: "heuristic",
  rated: false, private: true, requires_attendance: false,
};

test("the create form's body: seconds, numbers, and only the fields the format uses", () => {
  assert.deepEqual(configBody(formValues), {
    name: "Copa del Caribe", format: "minitorneo", entry: "duel", size: 8, game_cap_seconds: 90, bot_level: "heuristic",
    rated: false, private: true, requires_attendance: false, target: 20, bot_fill: true, fill_wait_seconds: 30, starts_at: null,
  });
  const swiss = configBody({ ...formValues, format: "suizo", entry: "rotating", size: "40", bot_fill: true });
  assert.equal(swiss.rounds, 5);
  assert.equal(swiss.size, 40);
  assert.ok(!("round_every_seconds" in swiss)); // empty: each round when the last table ends
  assert.equal(configBody({ ...formValues, format: "suizo", round_every_minutes: " 20 " }).round_every_seconds, 1200);
  assert.ok(!("round_every_seconds" in configBody({ ...formValues, format: "arena", round_every_minutes: "20" })));
  assert.ok(!("bot_fill" in swiss) && !("hands" in swiss) && !("window_seconds" in swiss));
  const duplicate = configBody({ ...formValues, format: "duplicado", entry: "rotating" });
  assert.equal(duplicate.entry, "duel"); // rotating is not a duplicado's entry: the first one is sent
  assert.equal(duplicate.hands, 4);
  assert.ok(!("target" in duplicate));
  const arena = configBody({ ...formValues, format: "arena", window_minutes: "45", bot_fill: false });
  assert.equal(arena.window_seconds, 2700);
  const noFill = configBody({ ...formValues, bot_fill: false });
  assert.equal(noFill.bot_fill, false);
  assert.ok(!("fill_wait_seconds" in noFill));
  const timed = configBody({ ...formValues, when_full: false, start: "2026-12-24T20:00" });
  assert.equal(timed.starts_at, new Date("2026-12-24T20:00").getTime() / 1000); // the reader's local clock
});

test("places read as ordinals: 1º in Spanish, 1st 2nd 3rd 11th 22nd in English", () => {
  assert.deepEqual([1, 2, 3, 10].map((n) => placeText(n, "es")), ["1º", "2º", "3º", "10º"]);
  assert.deepEqual([1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 101, 111].map((n) => placeText(n, "en")), ["1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "23rd", "101st", "111th"]);
  assert.equal(placeText(0, "es"), "—");
  assert.equal(placeText(null, "en"), "—");
});

test("numbers: signed with a real minus, matchpoints with the reader's decimal mark", () => {
  assert.deepEqual([12, -8, 0].map(signed), ["+12", "−8", "0"]);
  assert.equal(signed(null), "");
  assert.equal(matchpointsText(7.5, "es"), "7,5");
  assert.equal(matchpointsText(7.5, "en"), "7.5");
  assert.equal(matchpointsText(12, "es"), "12");
  assert.equal(matchpointsText(null, "es"), "");
});

test("an entrant's names: one, or a pair joined in the reader's language", () => {
  assert.equal(entrantNames(["ana"], "es"), "ana");
  assert.equal(entrantNames(["ana", "beto"], "es"), "ana y beto");
  assert.equal(entrantNames(["ana", "beto"], "en"), "ana & beto");
  assert.equal(entrantNames([], "es"), "");
});

test("standings rows: places with ties marked, efectividad signed, the viewer's row found", () => {
  const rows = standingsRows([
    standing(3, 1, ["ana"], { efectividad: 15 }),
    standing(1, 2, ["beto", "carla"], { efectividad: -4, wins: 1 }),
    standing(2, 2, ["dora"], { efectividad: -4, wins: 1 }),
    standing(4, 4, ["Bot 1"], { efectividad: -20, partners_tiebreak: -1 }),
  ], "es", ["carla"]);
  assert.deepEqual(rows.map((r) => [r.place, r.tied, r.names, r.efectividad, r.mine]), [
    ["1º", false, "ana", "+15", false],
    ["2º", true, "beto y carla", "−4", true],
    ["2º", true, "dora", "−4", false],
    ["4º", false, "Bot 1", "−20", false],
  ]);
  assert.equal(rows[0].pointsFor, 55);
  assert.equal(rows[0].pointsAgainst, 40);
  assert.equal(rows[3].tiebreak, "−1");
  assert.equal(rows[0].tiebreak, "");
  assert.deepEqual(standingsRows(null, "es"), []);
});

test("the extra column: matchpoints for duplicado, the tie-break for rotating partners", () => {
  assert.deepEqual(standingsColumns({ format: "duplicado", entry: "duel" }), { matchpoints: true, tiebreak: false });
  assert.deepEqual(standingsColumns({ format: "suizo", entry: "rotating" }), { matchpoints: false, tiebreak: true });
  assert.deepEqual(standingsColumns({ format: "minitorneo", entry: "duel" }), { matchpoints: false, tiebreak: false });
  const [row] = standingsRows([standing(1, 1, ["ana"], { matchpoints: 10.5 })], "es");
  assert.equal(row.matchpoints, "10,5");
});

test("a knock-out's rounds are named from the final back; the others «Ronda n de m»", () => {
  assert.deepEqual([4, 8, 16].map(knockoutRounds), [2, 3, 4]);
  const eight = { format: "minitorneo", size: 8 };
  assert.deepEqual([1, 2, 3].map((n) => roundLabel(eight, n).key), ["tn_round_quarter", "tn_round_semi", "tn_round_final"]);
  assert.equal(roundLabel({ format: "minitorneo", size: 16 }, 1).key, "tn_round_eighth");
  assert.deepEqual(roundLabel({ format: "suizo", rounds: 5 }, 2), { key: "tn_round_n_of_m", params: { n: 2, m: 5 } });
  assert.deepEqual(roundLabel({ format: "suizo", rounds: [], config: { rounds: 7 } }, 3), { key: "tn_round_n_of_m", params: { n: 3, m: 7 } });
  assert.deepEqual(roundLabel({ format: "arena", rounds: null }, 9), { key: "tn_round_n", params: { n: 9 } });
  assert.equal(progressLabel({ format: "suizo", round: 0, rounds: 5 }), null);
  assert.deepEqual(progressLabel({ format: "suizo", round: 2, rounds: 5 }).params, { n: 2, m: 5 });
});

const side = (entrants, names, points, won) => ({ entrants, names, points, won });

test("in a knock-out's last round the final is the game of the semi-finals' winners", () => {
  const detail = {
    format: "minitorneo", size: 4,
    rounds: [
      { number: 1, games: [{ key: "1-1", sides: [side([1], ["ana"], 20, true), side([4], ["Bot"], 3, false)] }, { key: "1-2", sides: [side([2], ["beto"], 9, false), side([3], ["carla"], 21, true)] }] },
      { number: 2, games: [{ key: "2-1", sides: [side([1], ["ana"], null, false), side([3], ["carla"], null, false)] }, { key: "2-2", sides: [side([4], ["Bot"], null, false), side([2], ["beto"], null, false)] }] },
    ],
  };
  const last = detail.rounds[1];
  assert.equal(knockoutGameKey(detail, last, last.games[0]), "tn_game_final");
  assert.equal(knockoutGameKey(detail, last, last.games[1]), "tn_game_third");
  assert.equal(knockoutGameKey(detail, detail.rounds[0], detail.rounds[0].games[0]), null);
  assert.equal(knockoutGameKey({ ...detail, format: "suizo" }, last, last.games[0]), null);
});

test("a game's line: each side's names and points, the winner, its state", () => {
  const view = gameView({ key: "2-1", table: "T1", state: "done", sides: [side([1, 2], ["ana", "beto"], 20, true), side([3, 4], ["carla", "dora"], 12, false)] }, "es");
  assert.deepEqual(view, {
    key: "2-1", table: "T1", state: "done", stateKey: "tn_game_done",
    sides: [{ names: "ana y beto", points: 20, won: true }, { names: "carla y dora", points: 12, won: false }],
  });
  assert.equal(gameView({ key: "1-1", state: "playing", sides: [] }, "es").stateKey, "tn_game_playing");
  assert.equal(gameView({ key: "1-1", sides: [side([1], ["ana"], null, false)] }, "es").sides[0].points, null);
});

test("byes by name, the podium in order of place", () => {
  const detail = { entrants: [{ no: 1, names: ["ana"] }, { no: 5, names: ["beto", "carla"] }] };
  assert.deepEqual(byeNames(detail, { byes: [5] }, "es"), ["beto y carla"]);
  assert.deepEqual(byeNames(detail, { byes: [] }, "es"), []);
  assert.deepEqual(podiumRows([{ place: 2, entrant: 5, names: ["beto"] }, { place: 1, entrant: 1, names: ["ana"] }, { place: 3, entrant: 2, names: ["Bot"] }], "en"), [
    { place: "1st", rank: 1, names: "ana" },
    { place: "2nd", rank: 2, names: "beto" },
    { place: "3rd", rank: 3, names: "Bot" },
  ]);
});

test("the time cap in words, and when it starts", () => {
  assert.deepEqual(capText(1800), { key: "tn_cap_minutes", params: { n: 30 } });
  assert.deepEqual(capText(7200), { key: "tn_cap_hours", params: { n: 2 } });
  assert.deepEqual(capText(45), { key: "tn_cap_seconds", params: { n: 45 } });
  assert.deepEqual(capText(90), { key: "tn_cap_minutes", params: { n: 2 } });
  assert.equal(capText(null).key, "tn_cap_none");
  assert.deepEqual(startText({ starts_at: null }, "es"), { key: "tn_when_full", params: {} });
  const at = Date.UTC(2026, 11, 24, 1, 0) / 1000;
  assert.deepEqual(startText({ starts_at: at }, "es"), { key: "tn_starts_at", params: { when: timeText(at, "es") } });
  assert.equal(timeText(at, "en"), new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short" }).format(new Date(at * 1000)));
  assert.equal(entrantsText({ entrants: 5, size: 8 }), "5/8");
  assert.equal(entrantsText({ entrants: [{ no: 1 }, { no: 2 }], size: 4 }), "2/4"); // a Detail lists them
});

test("the buttons `me` allows, «Ir a mi mesa» first", () => {
  assert.deepEqual(meActions(null, "open"), []);
  assert.deepEqual(meActions({ registered: false, can_register: true, can_withdraw: false, can_cancel: false, table: null }, "open"), ["register"]);
  assert.deepEqual(meActions({ registered: true, can_register: false, can_withdraw: true, can_cancel: true, table: null }, "open"), ["withdraw", "cancel"]);
  assert.deepEqual(meActions({ registered: true, can_register: false, can_withdraw: false, can_cancel: true, table: "T9" }, "running"), ["go_table"]);
});

test("a notice: «Ir a mi mesa» for a round with a table, «Ver torneo» for the rest", () => {
  const base = { type: "tournament", tournament: "abc", name: "Copa", round: 2, seat: 1 };
  assert.deepEqual(noticeView({ ...base, event: "round", table: "T1" }), { key: "tn_notice_round", params: { name: "Copa", round: 2 }, table: "T1", hash: "#/torneo/abc" });
  assert.equal(noticeView({ ...base, event: "round", table: null }).key, "tn_notice_bye");
  assert.equal(noticeView({ ...base, event: "starting", table: "T1" }).key, "tn_notice_starting_table");
  assert.equal(noticeView({ ...base, event: "starting", table: null }).table, null);
  assert.deepEqual(noticeView({ ...base, event: "finished", table: "T1" }), { key: "tn_notice_finished", params: { name: "Copa", round: 2 }, table: null, hash: "#/torneo/abc" });
  assert.equal(noticeView({ ...base, event: "withdrawn" }).key, "tn_notice_withdrawn");
  assert.equal(noticeView({ ...base, event: "new" }).key, "tn_notice_other");
});

const hex = (bytes) => Buffer.from(bytes).toString("hex");
const commit = (seed, salt) => createHash("sha256").update(Buffer.concat([Buffer.from(seed, "hex"), Buffer.from(salt, "hex")])).digest("hex");

test("revealed seeds come as objects, pairs or «seed:salt»", () => {
  assert.deepEqual(seedPairs([{ seed: "aa", salt: "bb" }, ["cc", "dd"], "ee:ff", 7]), [
    { seed: "aa", salt: "bb" }, { seed: "cc", salt: "dd" }, { seed: "ee", salt: "ff" }, { seed: null, salt: null },
  ]);
  assert.deepEqual(seedPairs(null), []);
});

test("«Verificar»: each revealed seed must give its published commitment", async () => {
  const seeds = [0, 1, 2].map((k) => ({ seed: hex(Array.from({ length: 32 }, (_, i) => (i * 7 + k) % 256)), salt: hex(Array.from({ length: 16 }, (_, i) => (i + 3 * k) % 256)) }));
  const commitments = seeds.map(({ seed, salt }) => commit(seed, salt));
  const good = await checkDeals(commitments, seeds, commitmentOf);
  assert.equal(good.ok, true);
  assert.deepEqual(good.deals.map((d) => d.ok), [true, true, true]);
  const swapped = await checkDeals(commitments, [seeds[1], seeds[0], seeds[2]], commitmentOf);
  assert.equal(swapped.ok, false);
  assert.deepEqual(swapped.deals.map((d) => d.ok), [false, false, true]);
  const missing = await checkDeals(commitments, seeds.slice(0, 2), commitmentOf);
  assert.deepEqual(missing.deals.map((d) => [d.deal, d.ok]), [[1, true], [2, true], [3, false]]);
  assert.equal((await checkDeals([], [], commitmentOf)).ok, false);
});

test("short commitments, and how often a live page asks again", () => {
  assert.equal(shortHash("3fa9c1d2e3f4a5b6c7d8e07b"), "3fa9c1…e07b");
  assert.equal(shortHash("abc"), "abc");
  assert.equal(refreshSeconds("open"), 3);
  assert.equal(refreshSeconds("running"), 3);
  assert.equal(refreshSeconds("finished"), null);
  assert.equal(refreshSeconds("cancelled"), null);
});
