// «Reportar»: a small form to report a player to the moderators (POST /api/reports), from a
// profile (players.js) or the game-end card (results.js). Never shown for oneself or a bot:
// the callers decide; the server refuses those anyway.

import { t, serverMessage } from "./i18n.js";
import { api } from "./api.js";
import { el, button } from "./dom.js";
import { REPORT_REASONS, NOTE_MAX } from "./messages_moderation.js";

let formCount = 0;

// A «Reportar a NAME» button that opens the form below itself; `game` is "<table>.<n>" or null.
export function reportButton(name, game = null) {
  const box = el("div", { class: "report-box" });
  const open = button(t("md_report_who", { name }), () => {
    open.hidden = true;
    box.append(reportForm(name, game, () => {
      open.hidden = false;
      open.focus();
    }));
  }, "report-open");
  open.dataset.player = name;
  box.prepend(open);
  return box;
}

function reportForm(name, game, done) {
  const id = `report-${++formCount}`;
  const reason = el("select", { id: `${id}-reason`, name: "reason", required: true },
    ...REPORT_REASONS.map((code) => el("option", { value: code, text: t(`md_reason_${code}`) })));
  const note = el("textarea", { id: `${id}-note`, name: "note", maxlength: NOTE_MAX, rows: 3 });
  const status = el("p", { class: "report-status", role: "status" });
  const send = el("button", { type: "submit", class: "primary report-send", text: t("md_send") });
  const form = el("form", { class: "report-form", "aria-labelledby": `${id}-title` },
    el("h3", { id: `${id}-title`, text: t("md_report_title", { name }) }),
    el("label", { for: `${id}-reason`, text: t("md_reason") }), reason,
    el("label", { for: `${id}-note`, text: t("md_note") }), note,
    el("div", { class: "actions" }, send, button(t("md_cancel"), () => {
      form.remove();
      done();
    })),
    status);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    send.disabled = true;
    const body = { player: name, reason: reason.value, note: note.value.trim() || null, game };
    try {
      await api("/api/reports", body);
      form.replaceChildren(el("p", { class: "report-done", role: "status", text: t("md_sent") }));
    } catch (error) {
      status.className = "report-status form-error";
      status.textContent = serverMessage(error);
      send.disabled = false;
    }
  });
  queueMicrotask(() => reason.focus());
  return form;
}
