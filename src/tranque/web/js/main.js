// The app: one socket, hash routes (#/, #/practicar, #/crear, #/entrar, #/jugar-ahora,
// #/mesa/ID, #/unirse/CODE, #/partida/GAME_ID, #/clasificacion[/TAB[/PAGE]], #/jugador/NAME,
// #/amigos, #/bots, #/que-jugarias[/ID], #/moderacion, #/admin, #/torneos[/TAB[/PAGE]],
// #/torneo/ID[?invite=CODE], #/aprender[/LESSON], #/penas[/SLUG[?invitacion=TOKEN]],
// #/reparto[/DAY]),
// and the account of whoever is using the browser.

import { t, setLang, currentLang, serverMessage, localName } from "./i18n.js";
import { api } from "./api.js";
import { Socket } from "./socket.js";
import { applyLobby } from "./lobby.js";
import { homeScreen, optionsScreen, loginScreen, quickMatchScreen, noTableScreen } from "./screens.js";
import { savedSeats, rememberSeat, seatPhase, forgetSeat, LIVE_PHASES } from "./seats.js";
import { friendsScreen, FriendsUi } from "./friends.js";
import { registerServiceWorker } from "./pwa.js";

// What the home page does not need loads when first asked for, so that the first visit fetches
// only the home page's modules (the server's page preloads those, and maps every module's URL
// to its fingerprinted one). The table's modules start loading on the pages that lead to it.
const LATER = {
  table: () => import("./table.js"),
  replay: () => import("./replay.js"),
  players: () => import("./players.js"),
  bots: () => import("./bots.js"),
  moderation: () => import("./moderation.js"),
  admin: () => import("./admin.js"),
  tournaments: () => import("./tournaments.js"),
  learn: () => import("./learn.js"),
  puzzles: () => import("./puzzles.js"),
  penas: () => import("./penas.js"),
  reparto: () => import("./reparto.js"),
};
const LEADS_TO_TABLE = new Set(["practicar", "crear", "jugar-ahora", "unirse"]);

// Pages only an account may use, and the sentence a guest sent to log in reads there.
const NEEDS_ACCOUNT = { "jugar-ahora": "scr_login_for_play_now", crear: "scr_login_for_create", unirse: "scr_login_for_join" };

// Seats of bots carry `name` (es) and `name_en` (docs/protocol.md, «seat»): the table is handed
// the name in the reader's language, in `sync` and in `seat` events alike.
// #/mesa/ID?ver=CODE: the table, and the code of its watching link (docs/protocol.md, «Mirones»).
function tableAndWatch(arg) {
  const [id, query] = arg.split("?");
  return [decodeURIComponent(id), new URLSearchParams(query || "").get("ver")];
}

function inReadersLanguage(message) {
  if (currentLang() !== "en") return message;
  const named = (seat) => (seat && seat.name_en ? { ...seat, name: localName(seat) } : seat);
  if (message.type === "sync" && Array.isArray(message.seats)) return { ...message, seats: message.seats.map(named) };
  if (message.type === "event" && message.kind === "seat") return { ...message, data: named(message.data) };
  return message;
}

class App {
  constructor() {
    this.root = document.getElementById("app");
    this.user = null;
    this.table = null;
    this.lobbyHandler = null;
    this.lobbyTables = [];
    this.afterLogin = null;
    this.presetList = null;
    this.missingTable = null; // the table id a `hello` found not to exist
    this.linkQuiet = false;
    this.linkDown = false; // the socket was open and is not now (false before the first open)
    this.serverWaiting = false; // the table waits for the server's database (`paused`)
    this.routes = 0; // how many times the page changed: a module that arrives late is for one
    this.tableTournament = null; // {table, tournament}: the open table is a tournament's game
    this.friends = new FriendsUi(this); // notices, and the table's «Invitar a un amigo»
    this.socket = new Socket({
      onMessage: (m) => this.message(m),
      onStatus: (online) => {
        this.linkDown = !online;
        this.status();
      },
      onQuiet: (quiet) => {
        this.linkQuiet = quiet;
        this.status();
      },
    });
  }

  async start() {
    setLang(currentLang());
    document.getElementById("lang").addEventListener("click", () => {
      setLang(currentLang() === "es" ? "en" : "es");
      this.renderAccount();
      this.route();
    });
    window.addEventListener("hashchange", () => this.route());
    window.addEventListener("resize", () => this.table && this.table.render && this.table.render());
    // The browser knows first: show the banner at once (the socket reconnects by itself).
    window.addEventListener("offline", () => this.status());
    window.addEventListener("online", () => this.status());
    const invite = new URLSearchParams(location.search).get("invite");
    const path = location.pathname.match(/^\/mesa\/([^/]+)\/?$/);
    const shared = location.pathname.match(/^\/(partida|torneo|pena)\/([^/]+)\/?$/); // a share link (docs/sharing.md)
    if (invite) history.replaceState(null, "", `/#/unirse/${encodeURIComponent(invite)}`);
    else if (path) history.replaceState(null, "", `/#/mesa/${path[1]}`);
    else if (shared) history.replaceState(null, "", `/#/${shared[1] === "pena" ? "penas" : shared[1]}/${shared[2]}`);
    else if (location.pathname !== "/") history.replaceState(null, "", `/${location.hash}`);
    await this.refreshUser();
    this.socket.connect();
    this.route();
  }

  go(hash) {
    // A toast said just now, in the same breath as this move, says why: it comes along.
    this.carryToast = this.toastJustShown;
    if (location.hash === hash) this.route();
    else location.hash = hash;
  }

  presets() {
    this.presetList = this.presetList || api("/api/presets");
    this.presetList.catch(() => (this.presetList = null)); // ask again next time
    return this.presetList;
  }

  async refreshUser() {
    // Only ask when this browser logged in: a guest's 401 would be noise in the console.
    this.user = null;
    if (localStorage.getItem("tranque.session") === "1") {
      try {
        this.user = await api("/api/me");
      } catch {
        localStorage.removeItem("tranque.session");
      }
    }
    if (!(this.user && this.user.name)) this.user = null;
    this.renderAccount();
  }

  renderAccount() {
    const account = document.getElementById("account");
    account.replaceChildren();
    const profile = document.getElementById("nav-profile");
    profile.hidden = !this.user;
    if (this.user) profile.href = `#/jugador/${encodeURIComponent(this.user.name)}`;
    document.getElementById("nav-friends").hidden = !this.user;
    document.getElementById("nav-moderation").hidden = !(this.user && ["moderator", "admin"].includes(this.user.role));
    document.getElementById("nav-admin").hidden = !(this.user && this.user.role === "admin");
    if (this.user) {
      const who = document.createElement("span");
      who.className = "who";
      who.textContent = t("logged_as", { name: this.user.name });
      who.title = this.user.name;
      const sep = document.createElement("span");
      sep.className = "sep";
      sep.textContent = " · ";
      account.append(who, sep);
      const out = document.createElement("button");
      out.type = "button";
      out.className = "link";
      out.textContent = t("logout");
      out.addEventListener("click", async () => {
        await api("/api/logout", {}).catch(() => {});
        localStorage.removeItem("tranque.session");
        this.reconnect();
        await this.refreshUser();
        this.go("#/");
      });
      account.append(out);
    }
    // The button names the language it switches to, in that language (its accessible name is
    // that word, what a voice user says; the hint says what it does).
    const lang = document.getElementById("lang");
    lang.textContent = t("language");
    lang.title = t("scr_language_label");
    lang.lang = currentLang() === "es" ? "en" : "es";
  }

  // The server reads the session cookie when a socket opens: log in or out, open a new one.
  reconnect() {
    this.socket.close();
    this.socket.connect();
  }

  leaveTable() {
    if (this.table) this.table.stop();
    this.table = null;
    this.friends.tableChanged(null);
  }

  route() {
    const [, page, arg] = (location.hash || "#/").split("/");
    this.routes += 1;
    if (!this.carryToast) this.hideToast(); // a toast belongs to the page that made it (N8)
    this.carryToast = false;
    this.leaveTable();
    this.lobbyHandler = null;
    document.querySelectorAll("[data-i18n]").forEach((el) => (el.textContent = t(el.dataset.i18n)));
    for (const link of document.querySelectorAll(".topnav .navlink")) {
      const here = (location.hash || "#/").startsWith(link.getAttribute("href")) && link.getAttribute("href") !== "#/";
      if (here) link.setAttribute("aria-current", "page");
      else link.removeAttribute("aria-current");
    }
    this.status();
    const show = (element) => this.root.replaceChildren(element);
    if (LEADS_TO_TABLE.has(page)) LATER.table().catch(() => {}); // asked for again when needed
    if (NEEDS_ACCOUNT[page] && !this.user) return this.askLogin(location.hash, NEEDS_ACCOUNT[page]);
    this.afterLogin = null; // somewhere else now: a later login goes home, not to a page left behind
    if (page === "practicar") show(optionsScreen(this, { account: false }));
    else if (page === "crear") show(optionsScreen(this, { account: true }));
    else if (page === "entrar") show(loginScreen(this));
    else if (page === "jugar-ahora") show(quickMatchScreen(this));
    else if (page === "unirse" && arg) this.sit({ invite: decodeURIComponent(arg) });
    else if (page === "mesa" && arg) this.openTable(...tableAndWatch(arg));
    else if (page === "partida" && arg) this.later(LATER.replay, ({ openReplay }) => openReplay(this.root, decodeURIComponent(arg), { toast: this.pageToast() }));
    else if (page === "clasificacion") this.later(LATER.players, ({ rankingScreen }) => show(rankingScreen(this, location.hash.split("/").slice(2))));
    else if (page === "jugador" && arg) this.later(LATER.players, ({ profileScreen }) => show(profileScreen(this, decodeURIComponent(arg))));
    else if (page === "amigos") this.user ? show(friendsScreen(this)) : this.askLogin(location.hash, "fr_login_reason");
    else if (page === "bots") this.later(LATER.bots, ({ botsScreen }) => show(botsScreen(this)));
    else if (page === "moderacion") this.user ? this.later(LATER.moderation, ({ moderationScreen }) => show(moderationScreen(this))) : this.askLogin(location.hash, "md_forbidden");
    else if (page === "torneos") this.later(LATER.tournaments, ({ tournamentsScreen }) => show(tournamentsScreen(this, location.hash.split("/").slice(2))));
    else if (page === "torneo" && arg) this.later(LATER.tournaments, ({ tournamentScreen }) => show(tournamentScreen(this, arg)));
    else if (page === "aprender") this.later(LATER.learn, ({ learnScreen, lessonScreen }) => show(arg ? lessonScreen(this, decodeURIComponent(arg)) : learnScreen(this)));
    else if (page === "que-jugarias") this.later(LATER.puzzles, ({ puzzlesScreen }) => show(puzzlesScreen(this, arg ? decodeURIComponent(arg) : null)));
    else if (page === "penas") this.later(LATER.penas, ({ penasScreen, penaScreen }) => show(arg ? penaScreen(this) : penasScreen(this)));
    else if (page === "reparto") this.later(LATER.reparto, ({ repartoScreen }) => show(repartoScreen(this, arg ? decodeURIComponent(arg) : null)));
    else if (page === "admin") this.user ? this.later(LATER.admin, ({ adminScreen }) => show(adminScreen(this))) : this.askLogin(location.hash, "ad_forbidden");
    else show(homeScreen(this));
  }

  // A page whose module may not be loaded yet: `then(module)` once it is, unless the reader
  // went elsewhere meanwhile. A module that cannot be fetched (offline) is said in a toast.
  later(load, then) {
    const routes = this.routes;
    load().then(
      (module) => routes === this.routes && then(module),
      () => routes === this.routes && this.toast(t("scr_page_unloaded")),
    );
  }

  // A guest on a page for accounts: the login form, saying why, and back here afterwards.
  askLogin(hash, reason) {
    this.afterLogin = hash;
    this.root.replaceChildren(loginScreen(this, t(reason)));
  }

  followLobby(handler) {
    this.lobbyHandler = handler;
    this.socket.request({ type: "lobby" }).catch(() => {});
  }

  remember(table, seat, token, kind = null) {
    rememberSeat(localStorage, table, { seat, token, kind });
  }

  // Seats at tables still being played, newest first: this browser's, checked where the server
  // lets anyone look (public tables), and the account's own list when logged in.
  async liveSeats() {
    const seats = new Map();
    if (this.user) {
      try {
        for (const held of await api("/api/me/seats")) {
          if (!LIVE_PHASES.has(held.phase)) continue;
          this.remember(held.table, held.seat, held.token);
          seatPhase(localStorage, held.table, held.phase);
          seats.set(held.table, held);
        }
      } catch {
        // the list could not be read now: this browser's own seats still count
      }
    }
    for (const saved of savedSeats(localStorage)) {
      if (seats.has(saved.table) || (saved.phase && !LIVE_PHASES.has(saved.phase))) continue;
      if (saved.kind === "public") {
        try {
          const table = await api(`/api/tables/${encodeURIComponent(saved.table)}`);
          seatPhase(localStorage, saved.table, table.phase);
          if (!LIVE_PHASES.has(table.phase)) continue;
        } catch {
          forgetSeat(localStorage, saved.table);
          continue;
        }
      }
      seats.set(saved.table, saved);
    }
    return [...seats.values()];
  }

  async practice(options) {
    try {
      const seated = await api("/api/practice", { ...options, name: this.user ? this.user.name : "Invitado" });
      this.remember(seated.table, seated.seat, seated.token, "practice");
      this.lastOptions = options;
      this.go(`#/mesa/${encodeURIComponent(seated.table)}`);
      return true;
    } catch (error) {
      this.toast(serverMessage(error));
      return false;
    }
  }

  async createTable(options) {
    try {
      const created = await api("/api/tables", options);
      return await this.sit({ table: created.table, invite: created.invite, kind: created.kind });
    } catch (error) {
      this.toast(serverMessage(error));
      return false;
    }
  }

  async sit(where) {
    try {
      const message = where.invite ? { type: "sit", invite: where.invite } : { type: "sit", table: where.table };
      const seated = await this.socket.request(message);
      this.remember(seated.table, seated.seat, seated.token, where.kind || (where.invite ? "private" : "public"));
      this.go(`#/mesa/${encodeURIComponent(seated.table)}`);
      return true;
    } catch (error) {
      this.toast(serverMessage(error));
      this.go("#/");
      return false;
    }
  }

  // A seat the server gave this account (a tournament's table: the director seats it), taken
  // with its token from GET /api/me/seats, as «Volver a tu partida» does; without one, the
  // table opens to watch.
  async playAt(tableId) {
    if (this.user) {
      try {
        const held = (await api("/api/me/seats")).find((seat) => seat.table === tableId);
        if (held) this.remember(held.table, held.seat, held.token, "tournament");
      } catch {
        // not readable now: the table's page still shows the game
      }
    }
    this.go(`#/mesa/${encodeURIComponent(tableId)}`);
  }

  openTable(tableId, watch = null) {
    this.friends.tableOpened(tableId);
    this.later(LATER.table, ({ TableView }) => this.showTable(TableView, tableId, watch));
  }

  showTable(TableView, tableId, watch = null) {
    const saved = savedSeats(localStorage).find((seat) => seat.table === tableId) || null;
    this.missingTable = null;
    this.table = new TableView({
      root: this.root,
      socket: this.tableSocket(tableId),
      tableId,
      seat: saved ? saved.seat : null,
      token: saved ? saved.token : null,
      toast: this.pageToast(),
      onLeave: (next) => this.afterTable(next),
      onWaiting: (waiting) => this.waiting(waiting),
      watch,
      account: Boolean(this.user),
    });
    this.table.start();
  }

  // The socket as a table view uses it: refusals come back in the reader's language, and a
  // `hello` that finds no such table is noted so the page can say so (not just go home).
  tableSocket(tableId) {
    const socket = this.socket;
    const request = (message) =>
      socket.request(message).catch((error) => {
        if (error && error.code === "no_such_table" && message.type === "hello") this.missingTable = tableId;
        throw error && error.code !== "offline" ? { ...error, message: serverMessage(error) } : error;
      });
    return new Proxy(socket, {
      get: (target, key) => (key === "request" ? request : typeof target[key] === "function" ? target[key].bind(target) : target[key]),
      set: (target, key, value) => {
        target[key] = value;
        return true;
      },
    });
  }

  afterTable(next) {
    if (this.missingTable) {
      forgetSeat(localStorage, this.missingTable);
      this.missingTable = null;
      this.leaveTable();
      this.root.replaceChildren(noTableScreen());
      document.getElementById("toast").classList.remove("show"); // the screen says it already
      return;
    }
    const tournament = this.tableTournament;
    if (tournament && this.table && tournament.table === this.table.tableId) {
      this.go(`#/torneo/${encodeURIComponent(tournament.tournament)}`); // a tournament's game: back to it
      return;
    }
    if (next && next.rematch && next.kind === "practice") {
      const rules = next.rematch;
      this.practice({ ...this.lastOptions, preset: rules.preset_name, players: rules.players, mode: rules.mode, target: rules.target, turn_seconds: rules.turn_seconds });
      return;
    }
    this.go("#/");
  }

  message(message) {
    if (message.type === "lobby" || message.type === "lobby_update") {
      // The socket keeps following once asked: the list is kept up to date off the home page too.
      this.lobbyTables = applyLobby(this.lobbyTables, message);
      if (this.lobbyHandler) this.lobbyHandler(this.lobbyTables);
      return;
    }
    if (message.type === "matched") {
      this.remember(message.table, message.seat, message.token, "quick");
      this.go(`#/mesa/${encodeURIComponent(message.table)}`);
      return;
    }
    if (message.type === "error") {
      this.toast(serverMessage(message));
      return;
    }
    if (message.type === "notice") return this.friends.notice(message);
    if (message.type === "tournament") return this.friends.tournament(message);
    if (message.type === "sync" && message.tournament && this.table) {
      // A tournament's table ({"id", "round"}): its game's end leads back to the tournament.
      const tournament = typeof message.tournament === "object" ? message.tournament.id : message.tournament;
      this.tableTournament = { table: this.table.tableId, tournament };
    }
    // A tournament game's time cap was reached: every viewer is told, in their language.
    if (message.type === "event" && message.kind === "time_called" && message.data) this.toast(serverMessage(message.data));
    if (message.type === "paused" || message.type === "resumed") return this.waiting(message.type === "paused");
    if (message.type === "event" || message.type === "sync") this.waiting(false); // the table moves
    this.notePhase(message);
    if (this.table) this.table.handle(inReadersLanguage(message));
    if (this.table) this.friends.tableChanged(this.table);
  }

  // Keep the saved seat's phase as the table reports it, for "Volver a tu partida".
  notePhase(message) {
    const tableId = this.table && this.table.tableId;
    if (!tableId) return;
    if (message.type === "sync" && message.phase) seatPhase(localStorage, tableId, message.phase, message.kind);
    else if (message.type === "event" && message.kind === "game_ended") seatPhase(localStorage, tableId, "finished");
    else if (message.type === "event" && message.kind === "game_started") seatPhase(localStorage, tableId, "playing");
  }

  // The server's table waits for its database (docs/protocol.md, `paused`): the turn clock
  // stands still and the table goes on by itself.
  waiting(waiting) {
    if (this.serverWaiting === waiting) return;
    this.serverWaiting = waiting;
    if (this.table) this.table.setWaiting(waiting);
    this.status();
  }

  // The banner: no network (the browser's word), no socket, a socket gone quiet, or a
  // server waiting for its database.
  status() {
    const online = !this.linkDown && navigator.onLine;
    const banner = document.getElementById("offline");
    const waiting = online && !this.linkQuiet && this.serverWaiting && Boolean(this.table);
    const show = !online || this.linkQuiet || waiting;
    banner.hidden = !show;
    const quiet = t(this.table ? "scr_quiet_table" : "scr_quiet");
    banner.textContent = !online ? t("offline") : waiting ? t("scr_server_waiting") : show ? quiet : "";
    document.body.classList.toggle("is-offline", show);
  }

  // A toast for the page shown now: said only while the reader is still on it.
  pageToast() {
    const routes = this.routes;
    return (text) => routes === this.routes && this.toast(text);
  }

  hideToast() {
    clearTimeout(this.toastTimer);
    document.getElementById("toast").classList.remove("show");
  }

  toast(text) {
    const toast = document.getElementById("toast");
    toast.textContent = text;
    toast.classList.add("show");
    this.toastJustShown = true;
    queueMicrotask(() => (this.toastJustShown = false));
    clearTimeout(this.toastTimer);
    this.toastTimer = setTimeout(() => toast.classList.remove("show"), 3200);
  }
}

const app = new App();
window.tranque = app;
app.start();
registerServiceWorker();
