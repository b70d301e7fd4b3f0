// The host's panel while a table waits for players: the invitation link, whole, with Copy
// (the clipboard) and Share (the Web Share API, or a WhatsApp link where there is none),
// and "Completar con la máquina". It comes from `sync.host` (docs/protocol.md), so it
// survives a reload.

import { t } from "./i18n.js";
import { el, button, setText, place } from "./dom.js";
import { policyText } from "./talk.js";

export function inviteUrl(host) {
  if (!host) return null;
  const link = host.invite_url || host.invite;
  if (!link) return null;
  return /^https?:/.test(link) ? link : `${location.origin}${link.startsWith("/") ? "" : "/"}${link}`;
}

export function whatsappLink(url) {
  return `https://wa.me/?text=${encodeURIComponent(`${t("table_share_text")} ${url}`)}`;
}

export class HostPanel {
  constructor({ onFill, toast }) {
    this.toast = toast;
    this.count = el("p", { class: "waiting-count" });
    this.link = el("textarea", { class: "invite-link", readonly: true, rows: 2, spellcheck: "false", "aria-label": t("invite_link") });
    this.copy = button(t("copy"), () => this.copyLink(), "copy-link");
    this.share = button(t("table_share"), () => this.shareLink(), "share-link");
    this.inviteBox = el("div", { class: "invite-box" }, el("label", { class: "invite-label", text: t("invite_link") }), this.link,
      el("div", { class: "actions" }, this.copy, this.share));
    this.fill = button(t("fill_bots"), () => {
      this.fill.disabled = true; // one click, one request
      Promise.resolve(onFill()).finally(() => (this.fill.disabled = false));
    }, "primary fill-bots");
    // Mirones (a private table): the host's policy, and the watching link with its own Copy.
    this.policy = el("p", { class: "note spectator-policy" });
    this.watchLink = el("textarea", { class: "watch-link", readonly: true, rows: 2, spellcheck: "false", "aria-label": t("sp_watch_link") });
    this.watchBox = el("div", { class: "invite-box watch-box" }, el("label", { class: "invite-label", text: t("sp_watch_link") }), this.watchLink,
      el("div", { class: "actions" }, button(t("copy"), () => this.copyLink(this.watchLink), "copy-watch-link")));
    this.root = el("section", { class: "invite host-panel card" }, this.count);
  }

  update(state, host) {
    const taken = state.seats.filter((seat) => seat && seat.kind !== "empty").length;
    setText(this.count, `${t("waiting_players")} ${taken}/${state.rules.players}`);
    const url = inviteUrl(host);
    if (url && this.link.value !== url) this.link.value = url;
    place(this.root, this.inviteBox, Boolean(url));
    const canFill = Boolean(host) && (host.can_fill_bots === undefined ? true : host.can_fill_bots);
    place(this.root, this.fill, canFill);
    const policy = host && host.spectators;
    if (policy) setText(this.policy, policyText(policy));
    place(this.root, this.policy, Boolean(policy), this.fill.parentNode === this.root ? this.fill : null);
    const watchUrl = host && host.watch_url ? `${location.origin}${host.watch_url}` : null;
    if (watchUrl && this.watchLink.value !== watchUrl) this.watchLink.value = watchUrl;
    place(this.root, this.watchBox, Boolean(watchUrl), this.fill.parentNode === this.root ? this.fill : null);
  }

  async copyLink(box = this.link) {
    const url = box.value;
    try {
      await navigator.clipboard.writeText(url);
    } catch {
      box.select(); // an older browser, or no permission: the old way
      document.execCommand("copy");
    }
    this.toast(t("copied"));
  }

  async shareLink() {
    const url = this.link.value;
    if (navigator.share) {
      try {
        await navigator.share({ title: t("brand"), text: t("table_share_text"), url });
        return;
      } catch (error) {
        if (error && error.name === "AbortError") return; // the player closed the sheet
      }
    }
    window.open(whatsappLink(url), "_blank", "noopener");
  }
}
