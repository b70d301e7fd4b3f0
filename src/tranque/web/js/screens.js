// The screens around the table: home (with the lobby, games to watch, your live seat and how
// to play), table options, logging in, waiting for a quick match, and the unknown table.

import { withLevel } from "./bot_faces.js";
import { t, currentLang, serverMessage, localName } from "./i18n.js";
import { api } from "./api.js";
import { button, escapeHtml } from "./dom.js";
import { formChoices, presetSummary, presetTitle, tableBody, penaTableSlug } from "./presets.js";
import { learnLink, learnOffer } from "./learn_offer.js";
import { installOffer } from "./pwa.js";

// Who may watch a private table, as its host picks (the server's talk/watching.py refuses any
// other with `bad_spectators`); here, not in talk.js, so the home page does not load the chat.
const SPECTATOR_POLICIES = ["none", "friends", "pena", "link"];

// An account name is 3 to 24 characters: the server's names.NAME_PATTERN (tests/web/
// test_screens.py checks these against it). The field says so instead of cutting silently.
export const NAME_LIMITS = { min: 3, max: 24 };

const HOW_TO = {
  es: [
    "Se juega con doble seis (2 a 4 jugadores) o doble nueve (5 o 6). Cada ficha vale la suma de sus puntos.",
    "Cada uno recibe 7 fichas; las que sobran forman el pozo. El juego va hacia la derecha.",
    "En la primera mano sale quien tiene el doble más alto, y debe jugarlo. Después la salida rota.",
    "En tu turno pones una ficha que coincida con una de las dos puntas. Si tienes ficha, debes jugarla.",
    "Si no tienes y hay pozo, robas una por una hasta que salga una que sirva. Sin pozo, pasas.",
    "Dominó: alguien pone su última ficha y gana la mano. Tranque: nadie puede jugar y gana quien tenga menos puntos.",
    "El ganador anota los puntos que quedan en las otras manos. Gana la partida quien llegue primero a la meta.",
  ],
  en: [
    "Played with double-six (2 to 4 players) or double-nine (5 or 6). A tile is worth the sum of its pips.",
    "Everyone gets 7 tiles; the rest form the boneyard. Play moves to the right.",
    "In the first round the holder of the highest double leads with it. Then the lead rotates.",
    "On your turn play a tile matching one of the two ends. If you can play, you must.",
    "If you cannot and there is a boneyard, draw one at a time until one fits. Without one, pass.",
    "Dominó: someone plays their last tile and wins the round. Tranque: nobody can play; fewest pips wins.",
    "The winner scores the pips left in the other hands. First to the target wins the game.",
  ],
};

function section(className, html = "") {
  const element = document.createElement("section");
  element.className = className;
  element.innerHTML = html;
  return element;
}

function titleOf(presets, name) {
  const preset = presets && presets.find((p) => p.name === name);
  return preset ? presetTitle(preset, currentLang()) : name;
}

export function homeScreen(app) {
  const page = document.createElement("div");
  page.className = "home";
  const hero = section("hero", `<h1>${t("brand")}</h1><p class="tagline">${t("tagline")}</p>`);
  const resume = section("resume card", "");
  resume.hidden = true;
  const actions = document.createElement("div");
  actions.className = "home-actions";
  // Guests go there too: the route asks them to log in, says why and brings them back.
  const quick = button(t("play_now"), () => app.go("#/jugar-ahora"), "primary big");
  quick.id = "play-now";
  const practice = button(t("practice"), () => app.go("#/practicar"), "primary big");
  practice.id = "practice";
  const create = button(t("create_table"), () => app.go("#/crear"), "big");
  create.id = "create-table";
  actions.append(quick, practice, create);
  if (!app.user) actions.append(button(t("login"), () => app.go("#/entrar"), "big"));
  hero.append(actions);
  // What each button does, under its own name: practice needs no account, quick match does.
  hero.insertAdjacentHTML(
    "beforeend",
    `<p class="note"><strong>${t("practice")}.</strong> ${t("practice_hint")}<br>` +
      `<strong>${t("play_now")}</strong> (${t("play_now_account")}). ${t("play_now_hint")}</p>`,
  );
  const lobby = section("lobby", `<h2>${t("lobby")}</h2><ul class="lobby-list"><li class="note">${t("lobby_empty")}</li></ul>`);
  const playing = section(
    "lobby playing",
    `<h2>${t("scr_playing_now")}</h2><ul class="playing-list"><li class="note">${t("scr_playing_empty")}</li></ul>`,
  );
  const how = section("how-to", `<h2>${t("how_to")}</h2><ol>${HOW_TO[currentLang()].map((line) => `<li>${line}</li>`).join("")}</ol>`);
  how.append(learnLink());
  page.append(...[resume, learnOffer(app), hero, lobby, playing, how].filter(Boolean));
  import("./puzzles_card.js").then(({ dailyCard }) => page.insertBefore(dailyCard(app), lobby), () => {});
  // A signed-in player's friends' results and tournaments about to start, under the buttons.
  if (app.user) import("./home_friends.js").then(({ friendsHome }) => hero.after(friendsHome(app)), () => {});
  if (app.user) import("./penas_home.js").then(({ myPenasCard }) => page.insertBefore(myPenasCard(app), lobby), () => {});
  import("./reparto_card.js").then(({ repartoCard }) => page.insertBefore(repartoCard(app), lobby), () => {});
  hero.append(installOffer()); // «Instalar Tranque», when the browser offers it (pwa.js)
  let presets = null;
  let tables = [];
  const draw = () => renderLobby(app, { open: lobby.querySelector(".lobby-list"), playing: playing.querySelector(".playing-list") }, tables, presets);
  app.presets().then((list) => {
    presets = list;
    const dl = document.createElement("dl");
    dl.className = "presets";
    for (const preset of list) {
      dl.insertAdjacentHTML("beforeend", `<dt>${escapeHtml(presetTitle(preset, currentLang()))}</dt><dd>${escapeHtml(presetSummary(preset, currentLang()))}</dd>`);
    }
    how.append(dl);
    draw();
  }, () => {});
  app.followLobby((list) => {
    tables = list;
    draw();
  });
  app.liveSeats().then((seats) => renderResume(app, resume, seats), () => {});
  return page;
}

// "Volver a tu partida": the seats this browser (or this account) holds at live tables.
function renderResume(app, box, seats) {
  box.replaceChildren();
  box.hidden = !seats.length;
  if (!seats.length) return;
  box.insertAdjacentHTML("beforeend", `<p>${t("scr_resume_hint")}</p>`);
  const back = button(t("scr_resume"), () => app.go(`#/mesa/${encodeURIComponent(seats[0].table)}`), "primary big");
  back.id = "resume";
  back.dataset.table = seats[0].table;
  box.append(back);
}

function seatNames(table) {
  const names = table.names || table.seats || [];
  const levels = table.levels || [];
  return names.map((name, seat) => name && withLevel(localName(name), levels[seat])).filter(Boolean);
}

function renderLobby(app, lists, tables, presets) {
  const waiting = tables.filter((table) => (table.phase || "waiting") === "waiting");
  const playing = tables.filter((table) => table.phase && table.phase !== "waiting");
  lists.open.replaceChildren();
  lists.playing.replaceChildren();
  if (!waiting.length) lists.open.innerHTML = `<li class="note">${t("lobby_empty")}</li>`;
  if (!playing.length) lists.playing.innerHTML = `<li class="note">${t("scr_playing_empty")}</li>`;
  for (const table of waiting) {
    const item = document.createElement("li");
    item.dataset.table = table.table;
    const taken = (table.seats || []).filter(Boolean).length;
    const preset = titleOf(presets, table.preset);
    const stake = table.stake > 0 ? ` · <b class="lobby-stake">${escapeHtml(t("fi_stake", { n: table.stake }))}</b>` : "";
    item.innerHTML = `<span>${escapeHtml(preset)} · ${table.players} · ${t(table.mode)} · ${t("to_target", { n: table.target })} · ${taken}/${table.players}${stake}</span>`;
    const sit = button(t("sit"), () => app.sit({ table: table.table }));
    sit.setAttribute("aria-label", t("scr_sit_label", { preset, taken, players: table.players }));
    item.append(sit);
    lists.open.append(item);
  }
  for (const table of playing) {
    const item = document.createElement("li");
    item.dataset.table = table.table;
    const names = seatNames(table).join(", ");
    const scores = (table.scores || []).join(" – ");
    const preset = titleOf(presets, table.preset);
    item.innerHTML = `<span><b>${escapeHtml(preset)}</b> · ${escapeHtml(names)}${scores ? ` · <span class="lobby-score">${escapeHtml(t("scr_score", { scores }))}</span>` : ""}</span>`;
    const watch = button(t("scr_watch"), () => app.go(`#/mesa/${encodeURIComponent(table.table)}`), "watch");
    watch.setAttribute("aria-label", t("scr_watch_label", { names }));
    item.append(watch);
    lists.playing.append(item);
  }
}

const options = (values, label = (value) => value) =>
  values.map((value) => `<option value="${escapeHtml(value)}">${escapeHtml(label(value))}</option>`).join("");

// The table options, every choice as GET /api/presets lists it (presets.js), with the chosen
// preset's rules summarised.
export function optionsScreen(app, { account }) {
  const form = document.createElement("form");
  form.className = "options card";
  form.innerHTML = `<h2>${account ? t("create_table") : t("practice")}</h2>
    <label>${t("preset")} <select name="preset"></select></label>
    <p class="preset-summary note"></p>
    <label>${t("players")} <select name="players"></select></label>
    <label>${t("mode")} <select name="mode"></select></label>
    <label>${t("target")} <select name="target"></select></label>
    <label class="turn-time">${t("turn_time")} <select name="turn_seconds"></select></label>
    <label>${t("bot_level")} <select name="bot_level"></select></label>
    <label class="check capicua"><input type="checkbox" name="capicua"> <span></span></label>
    ${account ? `<label class="check"><input type="checkbox" name="private"> ${t("private_table")}</label>` : ""}
    ${account ? spectatorChoice() : ""}
    ${account ? `<label class="check"><input type="checkbox" name="bots"> ${t("bt_accepts_bots")}</label>` : ""}
    ${account ? kindChoice() : ""}
    <p class="form-error" role="alert"></p>
    <div class="actions"><button type="submit" class="primary big" id="start" disabled>${account ? t("create") : t("start")}</button>
    <a href="#/" class="button">${t("back")}</a></div>`;
  const field = (name) => form.elements.namedItem(name);
  const start = form.querySelector("#start");
  const lang = currentLang();
  const penaSlug = account ? penaTableSlug(location.hash) : null; // «Nueva mesa de la peña»
  let penaId = null;
  let byName = {};
  let choices = null;
  let stakes = null; // the stake select (js/fichas_view.js), once loaded
  const refresh = (changed) => {
    const preset = byName[field("preset").value];
    form.querySelector(".preset-summary").textContent = presetSummary(preset, lang);
    const keep = changed === "preset" ? undefined : field("players").value;
    choices = formChoices(preset, keep);
    const fill = (name, values, value, label) => {
      field(name).innerHTML = options(values.map(String), label);
      field(name).value = String(value);
    };
    fill("players", choices.counts, choices.players);
    const mode = field("mode").value;
    fill("mode", choices.modes, choices.modes.includes(mode) ? mode : choices.mode, (m) => t(m));
    fill("target", choices.targets, choices.target);
    const turn = Number(field("turn_seconds").value);
    fill("turn_seconds", choices.turnSeconds, choices.turnSeconds.includes(turn) ? turn : choices.turn, (n) => t("scr_turn_seconds_n", { n }));
    form.querySelector(".turn-time").hidden = !choices.turnSeconds.length;
    form.querySelector(".capicua").hidden = !choices.capicua;
    form.querySelector(".capicua span").textContent = t("scr_capicua_bonus", { n: choices.capicuaBonus });
    if (!choices.capicua) field("capicua").checked = false;
  };
  if (account) {
    const showSpectators = () => (form.querySelector(".spectators").hidden = !field("private").checked);
    field("private").addEventListener("change", showSpectators);
    showSpectators();
    const hint = form.querySelector(".kind-hint");
    const showHint = () => (hint.textContent = t(form.querySelector("input[name=competitive]:checked").value === "yes" ? "pl_competitive_hint" : "pl_casual_hint"));
    form.querySelectorAll("input[name=competitive]").forEach((radio) => radio.addEventListener("change", showHint));
    showHint();
    import("./fichas_view.js").then((m) => form.querySelector("fieldset.kind").after((stakes = m.attachStakeSelect(form, api)).root), () => {});
  }
  const pena = penaSlug ? api(`/api/penas/${encodeURIComponent(penaSlug)}`) : null;
  Promise.all([app.presets(), api("/api/bots"), pena]).then(([presets, bots, penaPage]) => {
    if (penaPage) {
      penaId = penaPage.id; // a private table of the peña: only its members sit
      field("private").closest("label").hidden = true;
      form.querySelector("h2").after(Object.assign(document.createElement("p"), { className: "note pena-table-note", textContent: t("pn_table_for", { name: penaPage.name }) }));
    }
    byName = Object.fromEntries(presets.map((p) => [p.name, p]));
    field("preset").innerHTML = presets.map((p) => `<option value="${escapeHtml(p.name)}">${escapeHtml(presetTitle(p, lang))}</option>`).join("");
    field("bot_level").innerHTML = bots
      .map((b) => `<option value="${escapeHtml(b.name)}" title="${escapeHtml(localName(b, "summary"))}">${escapeHtml(localName(b, "title"))}</option>`)
      .join("");
    field("bot_level").value = bots.some((b) => b.name === "heuristic") ? "heuristic" : bots[bots.length - 1].name;
    field("preset").addEventListener("change", () => refresh("preset"));
    field("players").addEventListener("change", () => refresh("players"));
    refresh("preset");
    start.disabled = false;
  }, (error) => (form.querySelector(".form-error").textContent = serverMessage(error)));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    if (start.disabled || !choices) return; // a double click makes one game
    const chosen = {
      preset: field("preset").value,
      players: Number(field("players").value),
      mode: field("mode").value,
      target: Number(field("target").value),
      bot_level: field("bot_level").value,
    };
    if (choices.turnSeconds.length) chosen.turn_seconds = Number(field("turn_seconds").value);
    if (choices.capicua) chosen.capicua_bonus = field("capicua").checked ? choices.capicuaBonus : 0;
    start.disabled = true;
    form.querySelector(".form-error").textContent = "";
    const competitive = form.querySelector("input[name=competitive]:checked");
    const body = () => tableBody(chosen, { isPrivate: field("private").checked, competitive: Boolean(competitive) && competitive.value === "yes", bots: field("bots").checked, spectators: field("spectators").value, stake: stakes ? stakes.stake() : 0 });
    const done = account ? await app.createTable(penaId ? { ...body(), pena_id: penaId } : body()) : await app.practice(chosen);
    if (!done) start.disabled = false;
  });
  return form;
}

// «Mirones» of a private table (docs/protocol.md, «Mirones»): nobody by default.
function spectatorChoice() {
  const choices = SPECTATOR_POLICIES.map((policy) => `<option value="${policy}">${t(`sp_${policy}`)}</option>`).join("");
  return `<label class="spectators">${t("sp_label")} <select name="spectators">${choices}</select></label>`;
}

// «Competitiva / Amistosa» (casual first: a table counts only when its host says so), with a
// line saying what the choice means (POST /api/tables `competitive`).
function kindChoice() {
  return `<fieldset class="kind" aria-describedby="kind-hint"><legend>${t("pl_kind")}</legend>
    <label class="check"><input type="radio" name="competitive" value="no" checked> ${t("pl_casual")}</label>
    <label class="check"><input type="radio" name="competitive" value="yes"> ${t("pl_competitive")}</label>
    <p class="kind-hint note" id="kind-hint"></p></fieldset>`;
}

// `reason`: why the guest was sent here (a sentence), shown above the form.
export function loginScreen(app, reason = "") {
  const form = document.createElement("form");
  form.className = "login card";
  form.innerHTML = `<h2>${t("login")}</h2>
    ${reason ? `<p class="login-reason" role="status">${escapeHtml(reason)}</p>` : ""}
    <label>${t("name")} <input name="name" autocomplete="username" required minlength="${NAME_LIMITS.min}" maxlength="${NAME_LIMITS.max}"></label>
    <p class="field-note name-note" role="status" aria-live="polite"></p>
    <label>${t("password")} <input name="password" type="password" autocomplete="current-password" required minlength="8"></label>
    <p class="form-error" role="alert"></p>
    <div class="actions"><button type="submit" class="primary" name="login">${t("enter")}</button>
    <button type="button" name="register">${t("register")}</button><a href="#/" class="button">${t("back")}</a></div>`;
  const name = form.elements.namedItem("name");
  const note = form.querySelector(".name-note");
  const tooLong = t("scr_name_too_long", { n: NAME_LIMITS.max });
  // The field never takes more than the limit; whoever reaches it (typing or pasting) is told.
  name.addEventListener("beforeinput", (event) => {
    const adding = event.data || (event.dataTransfer && event.dataTransfer.getData("text")) || "";
    const selected = (name.selectionEnd ?? 0) - (name.selectionStart ?? 0);
    if (adding && name.value.length - selected + adding.length > NAME_LIMITS.max) note.textContent = tooLong;
  });
  name.addEventListener("input", () => {
    if (name.value.length >= NAME_LIMITS.max) note.textContent = tooLong;
    else if (note.textContent === tooLong) note.textContent = "";
  });
  const submit = async (path) => {
    const body = { name: name.value, password: form.elements.namedItem("password").value };
    try {
      await api(path, body);
      localStorage.setItem("tranque.session", "1");
      app.reconnect();
      await app.refreshUser();
      const next = app.afterLogin || "#/";
      app.afterLogin = null;
      app.go(next);
    } catch (error) {
      form.querySelector(".form-error").textContent = serverMessage(error);
    }
  };
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    submit("/api/login");
  });
  // The server's last answer was about what the fields held then: editing them clears it (N8).
  form.addEventListener("input", () => (form.querySelector(".form-error").textContent = ""));
  form.elements.namedItem("register").addEventListener("click", () => {
    if (form.reportValidity()) submit("/api/register");
  });
  return form;
}

export function quickMatchScreen(app) {
  const box = section("card waiting", `<h2>${t("play_now")}</h2><p class="note">${t("play_now_hint")}</p>`);
  const withBots = document.createElement("label");
  withBots.className = "check";
  withBots.innerHTML = `<input type="checkbox" name="with_bots"> ${t("with_bots")}`;
  const status = document.createElement("p");
  status.className = "status";
  status.setAttribute("role", "status");
  const go = button(t("play_now"), async () => {
    go.disabled = true;
    status.textContent = t("waiting_match");
    try {
      await app.socket.request({ type: "quick_match", with_bots: withBots.querySelector("input").checked });
    } catch (error) {
      status.textContent = serverMessage(error);
      go.disabled = false;
    }
  }, "primary big");
  go.id = "find-match";
  const cancel = button(t("cancel"), async () => {
    await app.socket.request({ type: "cancel_quick_match" }).catch(() => {});
    app.go("#/");
  });
  box.append(withBots, go, status, cancel);
  return box;
}

// /mesa/ID of a table that does not exist (or is over): say so, and offer the way home.
export function noTableScreen() {
  const box = section(
    "card no-table",
    `<h2>${t("scr_no_table_title")}</h2><p>${t("scr_no_table_text")}</p><p><a href="#/" class="button primary" id="go-home">${t("scr_go_home")}</a></p>`,
  );
  box.setAttribute("role", "alert");
  return box;
}
