// Leaving a table (N7), in the table's tools panel: «Salir de la mesa» while it waits for
// players (`stand`; the host alone closes it) and «Abandonar» during a game (`abandon`: the
// machine plays the seat to the end). Each asks first, saying what follows, in a modal
// dialog (the native <dialog>: focus stays in it, Escape closes it). What the consequence
// is comes from the table's own `rating` (docs/protocol.md, «Rated games»): nothing here
// decides a rule.

import { t } from "./i18n.js";
import { el, button, place } from "./dom.js";
import { humanCount } from "./table_state.js";
import { forgetSeat } from "./seats.js";

let dialogs = 0;

export class LeavingTools {
  constructor(view) {
    this.view = view;
    this.state = null;
    this.leave = button(t("lv_leave"), () => this.ask("leave"), "leave-table");
    this.abandon = button(t("lv_abandon"), () => this.ask("abandon"), "abandon-game");
    this.root = el("div", { class: "leaving" });
    dialogs += 1;
    const id = `leaving-${dialogs}`;
    this.title = el("h2", { id: `${id}-title` });
    this.text = el("p", { id: `${id}-text` });
    this.confirm = button("", () => this.go(), "danger confirm-leave");
    this.stay = button(t("lv_stay"), () => this.dialog.close(), "primary stay");
    this.dialog = el("dialog", { class: "leaving-dialog", "aria-labelledby": `${id}-title`, "aria-describedby": `${id}-text` },
      this.title, this.text, el("div", { class: "leaving-actions" }, this.stay, this.confirm));
  }

  update(state) {
    this.state = state;
    const seated = state.you !== null && state.you !== undefined;
    const mine = seated ? state.seats[state.you] || {} : {};
    const ours = state.kind !== "tournament"; // a tournament's seats are the tournament's
    const waiting = seated && ours && state.phase === "waiting";
    const playing = seated && ours && (state.phase === "playing" || state.phase === "between_rounds") && !mine.abandoned;
    place(this.root, this.leave, waiting);
    place(this.root, this.abandon, playing);
    this.root.hidden = !(waiting || playing);
  }

  // The question, with what follows: closing an empty table, or the machine playing on.
  ask(what) {
    const state = this.state;
    this.what = what;
    if (what === "leave") {
      const alone = Boolean(state.host) && humanCount(state) <= 1;
      this.title.textContent = t("lv_leave");
      this.text.textContent = t(alone ? "lv_leave_confirm_host" : "lv_leave_confirm");
      this.confirm.textContent = t("lv_confirm_leave");
    } else {
      const rated = Boolean(state.rating && state.rating.rated);
      this.title.textContent = t("lv_abandon_title");
      this.text.textContent = t(rated ? "lv_abandon_rated" : "lv_abandon_casual");
      this.confirm.textContent = t("lv_confirm_abandon");
    }
    if (!this.dialog.isConnected) document.body.append(this.dialog);
    this.dialog.showModal();
    this.stay.focus();
  }

  async go() {
    const view = this.view;
    this.dialog.close();
    try {
      await view.socket.request({ type: this.what === "leave" ? "stand" : "abandon" });
    } catch (error) {
      view.fail(error);
      return;
    }
    forgetSeat(localStorage, view.tableId);
    view.onLeave();
  }

  remove() {
    this.dialog.remove();
  }
}
