// An open vote to annul the game (N2), for everybody at the table while it lasts: the
// question, who said yes and how many of the people must (bots do not vote), and «Sí» /
// «No» for a seated person. One «No» from anybody ends the vote (docs/protocol.md,
// «Annulling a game by vote»: a `false` vote clears every vote); the server decides all of
// it, this only shows the `votes` it sent and sends `vote` messages.

import { t } from "./i18n.js";
import { el, button, setText, place } from "./dom.js";
import { humanCount } from "./table_state.js";

export class AnnulBanner {
  constructor(view) {
    this.root = el("div", { class: "annul-vote", role: "group", "aria-label": t("tb_annul_question") });
    this.text = el("p", { class: "annul-text", "aria-live": "polite" });
    this.yes = button(t("tb_annul_yes"), () => view.send({ type: "vote", agree: true }), "primary annul-yes");
    this.no = button(t("tb_annul_no"), () => view.send({ type: "vote", agree: false }), "annul-no");
    this.buttons = el("div", { class: "annul-buttons" });
    this.root.append(this.text, this.buttons);
  }

  // Whether a vote is open now (the banner is shown only then).
  static open(state) {
    return (state.phase === "playing" || state.phase === "between_rounds") && state.votes.length > 0;
  }

  update(view, state) {
    const votes = state.votes;
    const names = votes.map((seat) => view.nameOf(seat)).join(", ");
    const count = `(${votes.length}/${humanCount(state)})`;
    setText(this.text, `${t("tb_annul_question")} ${t("tb_annul_voted", { names })} ${count}`);
    const seated = state.you !== null && (state.seats[state.you] || {}).kind === "human";
    place(this.buttons, this.no, seated);
    place(this.buttons, this.yes, seated && !votes.includes(state.you), seated ? this.no : null);
  }
}
