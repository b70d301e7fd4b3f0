// The app: one socket, hash routes (#/, #/practicar, #/crear, #/entrar, #/jugar-ahora,
// #/mesa/ID, #/unirse/CODE), and the account of whoever is using the browser.

import { t, setLang, currentLang } from "./i18n.js";
import { api } from "./api.js";
import { Socket } from "./socket.js";
import { applyLobby } from "./lobby.js";
import { TableView } from "./table.js";
import { homeScreen, optionsScreen, loginScreen, quickMatchScreen } from "./screens.js";

class App {
  constructor() {
    this.root = document.getElementById("app");
    this.user = null;
    this.table = null;
    this.lobbyHandler = null;
    this.lobbyTables = [];
    this.afterLogin = null;
    this.presetList = null;
    this.socket = new Socket({ onMessage: (m) => this.message(m), onStatus: (online) => this.status(online) });
  }

  async start() {
    setLang(currentLang());
    document.getElementById("lang").addEventListener("click", () => {
      setLang(currentLang() === "es" ? "en" : "es");
      this.route();
    });
    window.addEventListener("hashchange", () => this.route());
    window.addEventListener("resize", () => this.table && this.table.render());
    const invite = new URLSearchParams(location.search).get("invite");
    if (invite) history.replaceState(null, "", `/#/unirse/${encodeURIComponent(invite)}`);
    else if (location.pathname !== "/") history.replaceState(null, "", `/${location.hash}`);
    await this.refreshUser();
    this.socket.connect();
    this.route();
  }

  go(hash) {
    if (location.hash === hash) this.route();
    else location.hash = hash;
  }

  presets() {
    this.presetList = this.presetList || api("/api/presets");
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
    const account = document.getElementById("account");
    account.replaceChildren();
    if (this.user && this.user.name) {
      account.textContent = `${t("logged_as", { name: this.user.name })} · `;
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
    } else {
      this.user = null;
    }
    document.getElementById("lang").textContent = t("language");
  }

  // The server reads the session cookie when a socket opens: log in or out, open a new one.
  reconnect() {
    this.socket.close();
    this.socket.connect();
  }

  leaveTable() {
    if (this.table) this.table.stop();
    this.table = null;
  }

  route() {
    const [, page, arg] = (location.hash || "#/").split("/");
    this.leaveTable();
    this.lobbyHandler = null;
    document.querySelectorAll("[data-i18n]").forEach((el) => (el.textContent = t(el.dataset.i18n)));
    const show = (element) => this.root.replaceChildren(element);
    if (page === "practicar") show(optionsScreen(this, { account: false }));
    else if (page === "crear") this.needAccount("#/crear") && show(optionsScreen(this, { account: true }));
    else if (page === "entrar") show(loginScreen(this));
    else if (page === "jugar-ahora") this.needAccount("#/jugar-ahora") && show(quickMatchScreen(this));
    else if (page === "unirse" && arg) this.needAccount(location.hash) && this.sit({ invite: decodeURIComponent(arg) });
    else if (page === "mesa" && arg) this.openTable(decodeURIComponent(arg));
    else show(homeScreen(this));
  }

  needAccount(hash) {
    if (this.user) return true;
    this.afterLogin = hash;
    this.toast(t("login_needed"));
    this.root.replaceChildren(loginScreen(this));
    return false;
  }

  followLobby(handler) {
    this.lobbyHandler = handler;
    this.socket.request({ type: "lobby" }).catch(() => {});
  }

  remember(table, seat, token) {
    localStorage.setItem(`tranque.seat.${table}`, JSON.stringify({ seat, token }));
  }

  async practice(options) {
    try {
      const seated = await api("/api/practice", { ...options, name: this.user ? this.user.name : "Invitado" });
      this.remember(seated.table, seated.seat, seated.token);
      this.lastOptions = options;
      this.go(`#/mesa/${encodeURIComponent(seated.table)}`);
    } catch (error) {
      this.toast(error.message);
    }
  }

  async createTable(options) {
    try {
      const created = await api("/api/tables", options);
      this.hosting = { invite: created.invite_url ? `${location.origin}${created.invite_url}` : null };
      await this.sit({ table: created.table, invite: created.invite });
    } catch (error) {
      this.toast(error.message);
    }
  }

  async sit(where) {
    try {
      const message = where.invite ? { type: "sit", invite: where.invite } : { type: "sit", table: where.table };
      const seated = await this.socket.request(message);
      this.remember(seated.table, seated.seat, seated.token);
      this.go(`#/mesa/${encodeURIComponent(seated.table)}`);
    } catch (error) {
      this.toast(error.message || t("error_generic"));
      this.go("#/");
    }
  }

  openTable(tableId) {
    const saved = JSON.parse(localStorage.getItem(`tranque.seat.${tableId}`) || "null");
    this.table = new TableView({
      root: this.root,
      socket: this.socket,
      tableId,
      seat: saved ? saved.seat : null,
      token: saved ? saved.token : null,
      toast: (text) => this.toast(text),
      onLeave: (next) => this.afterTable(next),
      hosting: this.hosting,
    });
    this.hosting = null;
    this.table.start();
  }

  afterTable(next) {
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
    } else if (message.type === "matched") {
      this.remember(message.table, message.seat, message.token);
      this.go(`#/mesa/${encodeURIComponent(message.table)}`);
    } else if (message.type === "error") this.toast(message.message);
    else if (this.table) this.table.handle(message);
  }

  status(online) {
    const banner = document.getElementById("offline");
    banner.hidden = online;
    banner.textContent = online ? "" : t("offline");
    document.body.classList.toggle("is-offline", !online);
  }

  toast(text) {
    const toast = document.getElementById("toast");
    toast.textContent = text;
    toast.classList.add("show");
    clearTimeout(this.toastTimer);
    this.toastTimer = setTimeout(() => toast.classList.remove("show"), 3200);
  }
}

const app = new App();
window.tranque = app;
app.start();
