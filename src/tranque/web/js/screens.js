// The screens around the table: home (with the lobby and how to play), table options,
// logging in, and waiting for a quick match.

import { t, currentLang } from "./i18n.js";
import { api } from "./api.js";
import { button, escapeHtml } from "./table.js";

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

const PRESET_EN = {
  clasico: "With the boneyard, 2 to 6 players, alone or in pairs; the highest double leads; to 100 (200 with 5–6).",
  "sin-pozo": "Nobody draws: leftover tiles stay out; 1 v 1 to 50, four players to 100.",
  salon: "Target 50 to 300; a tied tranque goes to the starter or the nearest after them.",
  internacional: "Pairs of 4 to 200; the first leader is drawn by lot; the winners count every hand.",
  latino: "Pairs of 4 to 100; the winners count only the opponents' tiles.",
  maracucho: "Pairs of 4 to 100; the tranque is individual: the player with fewest pips wins.",
  ponce: "Pairs to 20 points; passes score and a tranque gives 2 to whoever blocked.",
  futbol: "1 v 1 with 12 tiles and no boneyard; under 10 points is a goal; to 100 or 10 goals.",
  "en-contra": "Individual, 2 to 4; everyone adds what they are left with; at 100 the lowest total wins.",
};

export function presetSummary(preset) {
  return currentLang() === "en" ? PRESET_EN[preset.name] || preset.summary : preset.summary;
}

function section(className, html = "") {
  const element = document.createElement("section");
  element.className = className;
  element.innerHTML = html;
  return element;
}

export function homeScreen(app) {
  const page = document.createElement("div");
  page.className = "home";
  const hero = section("hero", `<h1>${t("brand")}</h1><p class="tagline">${t("tagline")}</p>`);
  const actions = document.createElement("div");
  actions.className = "home-actions";
  const quick = button(t("play_now"), () => app.go(app.user ? "#/jugar-ahora" : "#/entrar"), "primary big");
  quick.id = "play-now";
  const practice = button(t("practice"), () => app.go("#/practicar"), "primary big");
  practice.id = "practice";
  const create = button(t("create_table"), () => app.go(app.user ? "#/crear" : "#/entrar"), "big");
  create.id = "create-table";
  actions.append(quick, practice, create);
  if (!app.user) actions.append(button(t("login"), () => app.go("#/entrar"), "big"));
  hero.append(actions);
  hero.insertAdjacentHTML("beforeend", `<p class="note">${t("practice_hint")} ${t("play_now_hint")}</p>`);
  const lobby = section("lobby", `<h2>${t("lobby")}</h2><ul class="lobby-list"><li class="note">${t("lobby_empty")}</li></ul>`);
  const how = section("how-to", `<h2>${t("how_to")}</h2><ol>${HOW_TO[currentLang()].map((line) => `<li>${line}</li>`).join("")}</ol>`);
  page.append(hero, lobby, how);
  app.presets().then((presets) => {
    const list = document.createElement("dl");
    list.className = "presets";
    for (const preset of presets) list.insertAdjacentHTML("beforeend", `<dt>${escapeHtml(preset.title)}</dt><dd>${escapeHtml(presetSummary(preset))}</dd>`);
    how.append(list);
  });
  app.followLobby((tables) => renderLobby(app, lobby.querySelector(".lobby-list"), tables));
  return page;
}

function renderLobby(app, list, tables) {
  list.replaceChildren();
  if (!tables.length) {
    list.innerHTML = `<li class="note">${t("lobby_empty")}</li>`;
    return;
  }
  for (const table of tables) {
    const item = document.createElement("li");
    const taken = table.seats.filter(Boolean).length;
    item.innerHTML = `<span>${escapeHtml(table.preset)} · ${table.players} · ${t(table.mode)} · ${t("to_target", { n: table.target })} · ${taken}/${table.players}</span>`;
    item.append(button(t("sit"), () => app.sit({ table: table.table })));
    list.append(item);
  }
}

// The table options of docs/rules.md, with the chosen preset's rules summarised.
export function optionsScreen(app, { account }) {
  const form = document.createElement("form");
  form.className = "options card";
  form.innerHTML = `<h2>${account ? t("create_table") : t("practice")}</h2>
    <label>${t("preset")} <select name="preset"></select></label>
    <p class="preset-summary note"></p>
    <label>${t("players")} <select name="players"></select></label>
    <label>${t("mode")} <select name="mode"></select></label>
    <label>${t("target")} <select name="target"></select></label>
    <label>${t("turn_time")} <select name="turn_seconds">
      <option value="20">20 s</option><option value="30" selected>30 s</option><option value="45">45 s</option></select></label>
    <label>${t("bot_level")} <select name="bot_level"></select></label>
    <label class="check"><input type="checkbox" name="capicua"> ${t("capicua")} (+20)</label>
    ${account ? `<label class="check"><input type="checkbox" name="private"> ${t("private_table")}</label>` : ""}
    <div class="actions"><button type="submit" class="primary big" id="start">${account ? t("create") : t("start")}</button>
    <a href="#/" class="button">${t("back")}</a></div>`;
  const field = (name) => form.elements.namedItem(name);
  Promise.all([app.presets(), api("/api/bots")]).then(([presets, bots]) => {
    const byName = Object.fromEntries(presets.map((p) => [p.name, p]));
    field("preset").innerHTML = presets.map((p) => `<option value="${p.name}">${escapeHtml(p.title)}</option>`).join("");
    field("bot_level").innerHTML = bots.map((b) => `<option value="${b.name}" title="${escapeHtml(b.summary)}">${escapeHtml(b.title)}</option>`).join("");
    field("bot_level").value = bots.some((b) => b.name === "heuristic") ? "heuristic" : bots[bots.length - 1].name;
    const refresh = (changed) => {
      const preset = byName[field("preset").value];
      form.querySelector(".preset-summary").textContent = presetSummary(preset);
      const counts = Object.keys(preset.seatings);
      if (changed === "preset") {
        field("players").innerHTML = counts.map((n) => `<option>${n}</option>`).join("");
        field("players").value = counts.includes("4") ? "4" : counts[0];
      }
      const modes = preset.seatings[field("players").value];
      const mode = field("mode").value;
      field("mode").innerHTML = modes.map((m) => `<option value="${m}">${t(m)}</option>`).join("");
      if (modes.includes(mode)) field("mode").value = mode;
      const base = preset.targets[field("players").value];
      // Tables choose 100, 150 or 200; presets with their own target (ponce 20, 1 v 1 to 50) keep it.
      const targets = base >= 100 ? [...new Set([100, 150, 200, base])].sort((x, y) => x - y) : [base];
      field("target").innerHTML = targets.map((n) => `<option ${n === base ? "selected" : ""}>${n}</option>`).join("");
      field("capicua").disabled = ["ponce", "futbol", "en-contra"].includes(preset.name);
      if (field("capicua").disabled) field("capicua").checked = false;
    };
    field("preset").addEventListener("change", () => refresh("preset"));
    field("players").addEventListener("change", () => refresh("players"));
    refresh("preset");
  });
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const options = {
      preset: field("preset").value,
      players: Number(field("players").value),
      mode: field("mode").value,
      target: Number(field("target").value),
      turn_seconds: Number(field("turn_seconds").value),
      bot_level: field("bot_level").value,
      capicua_bonus: field("capicua").checked ? 20 : 0,
    };
    // One game per press: a double click (or a second press while the first is on its way) sends nothing.
    const start = form.querySelector("#start");
    if (start.disabled) return;
    start.disabled = true;
    const made = account ? app.createTable({ ...options, private: field("private").checked }) : app.practice(options);
    Promise.resolve(made).finally(() => (start.disabled = false));
  });
  return form;
}

export function loginScreen(app) {
  const form = document.createElement("form");
  form.className = "login card";
  form.innerHTML = `<h2>${t("login")}</h2>
    <label>${t("name")} <input name="name" autocomplete="username" required minlength="3" maxlength="24"></label>
    <label>${t("password")} <input name="password" type="password" autocomplete="current-password" required minlength="8"></label>
    <p class="form-error" role="alert"></p>
    <div class="actions"><button type="submit" class="primary" name="login">${t("enter")}</button>
    <button type="button" name="register">${t("register")}</button><a href="#/" class="button">${t("back")}</a></div>`;
  const submit = async (path) => {
    const body = { name: form.elements.namedItem("name").value, password: form.elements.namedItem("password").value };
    try {
      await api(path, body);
      localStorage.setItem("tranque.session", "1");
      app.reconnect();
      await app.refreshUser();
      app.go(app.afterLogin || "#/");
      app.afterLogin = null;
    } catch (error) {
      form.querySelector(".form-error").textContent = error.message;
    }
  };
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    submit("/api/login");
  });
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
  const go = button(t("play_now"), async () => {
    go.disabled = true;
    status.textContent = t("waiting_match");
    try {
      await app.socket.request({ type: "quick_match", with_bots: withBots.querySelector("input").checked });
    } catch (error) {
      status.textContent = error.message || t("error_generic");
      go.disabled = false;
    }
  }, "primary big");
  const cancel = button(t("cancel"), async () => {
    await app.socket.request({ type: "cancel_quick_match" }).catch(() => {});
    app.go("#/");
  });
  box.append(withBots, go, status, cancel);
  return box;
}
