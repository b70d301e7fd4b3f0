// «El reparto del día» (#/reparto, and a past day at #/reparto/<YYYY-MM-DD>): today's deals
// against the expert in two modes, the day's public commitment, today's board and yesterday's
// final one, yesterday's revealed seed checked here («Verificar», reparto_verify.js), and for
// an account that played, its game and the day's best side by side (the replay page's module).
// The server decides everything (docs/protocol.md «El reparto del día»); this page shows it.

import { t, currentLang, serverMessage } from "./i18n.js";
import { api } from "./api.js";
import { el, button } from "./dom.js";
import { verifyDay, keepCommitment, keptCommitment, signed } from "./reparto_verify.js";

const MODES = ["individual", "pairs"];

export function repartoScreen(app, day = null) {
  const page = el("div", { class: "reparto-page" }, el("h1", { text: t("rd_title") }), el("p", { class: "note", text: t("rd_loading") }));
  const load = day ? api(`/api/reparto/${encodeURIComponent(day)}`) : api("/api/reparto");
  load.then(
    (data) => {
      if (!page.isConnected) return; // the reader went elsewhere meanwhile
      if (day) showDay(app, page, data);
      else showToday(app, page, data);
    },
    (error) => page.replaceChildren(el("h1", { text: t("rd_title") }), el("p", { class: "rd-missing", text: serverMessage(error) }), backLink()),
  );
  return page;
}

function backLink() {
  return el("a", { class: "button", href: "#/reparto", text: t("rd_back") });
}

function when(seconds) {
  return new Date(seconds * 1000).toLocaleString(currentLang() === "en" ? "en-GB" : "es-CO", {
    dateStyle: "medium",
    timeStyle: "short",
    timeZone: "America/Bogota",
  });
}

// Today ----------------------------------------------------------------------------------

function showToday(app, page, data) {
  const { today, yesterday, me } = data;
  keepCommitment(localStorage, today.day, today.commitment);
  const head = el("header", { class: "rd-head" },
    el("h1", { text: t("rd_title") }),
    el("p", { class: "rd-day", text: t("rd_day", { day: today.day }) }),
    el("p", { class: "rd-intro", text: t("rd_intro", { hands: today.hands }) }),
  );
  const modes = el("div", { class: "rd-modes" }, ...MODES.map((mode) => modeCard(app, today, mode, me)));
  const note = app.user ? null : el("p", { class: "note rd-guest", text: t("rd_guest_note") });
  const replays = el("section", { class: "rd-replays", hidden: true, "aria-label": t("rd_replay") });
  if (me) {
    for (const mode of MODES) {
      if (me[mode] && me[mode].finished) {
        const open = button(`${t("rd_replay")} · ${t(`rd_${mode}`)}`, () => openReplays(app, replays, today.day, mode), "rd-replay-open");
        open.dataset.mode = mode;
        modes.querySelector(`.rd-mode[data-mode=${mode}]`).append(open);
      }
    }
  }
  const commitment = el("section", { class: "card rd-commitment", "aria-labelledby": "rd-commitment-title" },
    el("h2", { id: "rd-commitment-title", text: t("rd_commitment") }),
    el("code", { class: "rd-hash", text: today.commitment }),
    el("p", { class: "note", text: t("rd_commitment_note") }),
    el("p", { class: "note", text: t("rd_reveal_at", { when: when(today.reveal_at) }) }),
  );
  const boards = el("section", { class: "rd-boards", "aria-labelledby": "rd-board-title" },
    el("h2", { id: "rd-board-title", text: t("rd_board_today") }),
    el("div", { class: "rd-board-pair" }, ...MODES.map((mode) => boardBox(today.day, mode))),
  );
  const past = el("section", { class: "rd-yesterday", "aria-labelledby": "rd-yesterday-title" }, el("h2", { id: "rd-yesterday-title", text: t("rd_yesterday") }));
  if (yesterday) {
    const verify = el("a", { class: "button rd-verify", href: `#/reparto/${yesterday.day}`, text: t("rd_verify") });
    past.append(
      el("p", { class: "rd-day", text: t("rd_day", { day: yesterday.day }) }),
      el("p", {}, el("strong", { text: `${t("rd_seed")}: ` }), el("code", { class: "rd-hash rd-seed", text: yesterday.seed || "" })),
      verify,
      el("h3", { text: t("rd_board_final") }),
      el("div", { class: "rd-board-pair" }, ...MODES.map((mode) => boardBox(yesterday.day, mode))),
    );
  } else {
    past.append(el("p", { class: "note", text: t("rd_yesterday_none") }));
  }
  const how = el("p", { class: "note rd-how", text: t("rd_how", { hands: today.hands }) });
  page.replaceChildren(...[head, modes, note, replays, commitment, boards, past, how].filter(Boolean));
}

function modeCard(app, today, mode, me) {
  const card = el("section", { class: "card rd-mode", "data-mode": mode, "aria-labelledby": `rd-mode-${mode}` },
    el("h2", { id: `rd-mode-${mode}`, text: t(`rd_${mode}`) }),
    el("p", { text: t(`rd_${mode}_text`) }),
  );
  const mine = me && me[mode];
  if (mine && mine.finished) {
    card.append(el("p", { class: "rd-mine", text: t("rd_played", { result: signed(mine.diff) }) }));
    return card;
  }
  if (mine) {
    card.append(el("p", { class: "rd-mine note", text: t("rd_playing") }));
    return card;
  }
  let once = null;
  const play = button(t("rd_play"), async () => {
    play.disabled = true;
    once = once || `${Date.now()}-${Math.random().toString(36).slice(2)}`;
    try {
      const seated = await api("/api/reparto/play", { mode, once });
      app.remember(seated.table, seated.seat, seated.token, "practice");
      app.go(`#/mesa/${encodeURIComponent(seated.table)}`);
    } catch (error) {
      play.disabled = false;
      once = null;
      app.toast(serverMessage(error));
    }
  }, "primary");
  play.id = `rd-play-${mode}`;
  card.append(play);
  return card;
}

// Boards ---------------------------------------------------------------------------------

function boardBox(day, mode) {
  const box = el("div", { class: "rd-board", "data-mode": mode },
    el("h3", { text: t(`rd_${mode}`) }),
    el("p", { class: "note", text: t("rd_loading") }),
  );
  api(`/api/reparto/${day}/${mode}/board`).then((board) => fillBoard(box, board), (error) => box.append(el("p", { class: "note", text: serverMessage(error) })));
  return box;
}

function fillBoard(box, board) {
  const par = el("p", { class: "rd-par", text: board.par ? t("rd_par", { par: signed(board.par.diff) }) : t("rd_par_pending") });
  const parts = [el("h3", { text: t(`rd_${board.mode}`) }), par];
  if (!board.rows.length) {
    parts.push(el("p", { class: "note rd-empty", text: t("rd_board_empty") }));
  } else {
    const head = el("tr", {}, ...["rd_col_place", "rd_col_name", "rd_col_diff", "rd_col_par"].map((key) => el("th", { scope: "col", text: t(key) })));
    const rows = board.rows.map((row) =>
      el("tr", { class: "rd-row" },
        el("td", { text: String(row.place) }),
        el("td", { class: "rd-name" }, el("a", { href: `#/jugador/${encodeURIComponent(row.name)}`, text: row.name })),
        el("td", { text: signed(row.diff) }),
        el("td", { class: "rd-against", text: signed(row.against_par) }),
      ),
    );
    parts.push(el("table", { class: "rd-table" }, el("thead", {}, head), el("tbody", {}, ...rows)));
  }
  // A final board says nothing of games left unfinished at midnight: they never count.
  if (board.playing && !board.final) parts.push(el("p", { class: "note", text: t("rd_playing_count", { count: board.playing }) }));
  box.replaceChildren(...parts);
}

// Replays: my game and the day's best, side by side (stacked on a phone) -----------------

function openReplays(app, holder, day, mode) {
  holder.hidden = false;
  const panes = ["mine", "best"].map((who) => {
    const pane = el("div", { class: "rd-replay-pane", "data-who": who }, el("h2", { text: t(`rd_replay_${who}`) }));
    const body = el("div", { class: "rd-replay-body" });
    pane.append(body);
    return [who, pane, body];
  });
  holder.replaceChildren(el("div", { class: "rd-replay-pair" }, ...panes.map(([, pane]) => pane)));
  import("./replay.js").then(({ openReplay }) => {
    for (const [who, , body] of panes) {
      const url = `/api/reparto/${day}/${mode}/replay/${who}`;
      openReplay(body, null, { toast: (text) => app.toast(text), url, analysis: who === "mine" });
    }
  }, () => app.toast(t("scr_page_unloaded")));
  holder.scrollIntoView({ block: "start" });
}

// A past day: its seed checked here ------------------------------------------------------

function showDay(app, page, day) {
  const parts = [el("h1", { text: t("rd_day_page", { day: day.day }) })];
  parts.push(el("p", {}, el("strong", { text: `${t("rd_commitment_day")}: ` }), el("code", { class: "rd-hash", text: day.commitment })));
  if (!day.revealed) {
    parts.push(el("p", { class: "note", text: t("rd_not_revealed") }), backLink());
    page.replaceChildren(...parts);
    return;
  }
  const verdict = el("p", { class: "rd-verdict", "aria-live": "polite", text: t("rd_verifying") });
  parts.push(el("p", {}, el("strong", { text: `${t("rd_seed")}: ` }), el("code", { class: "rd-hash rd-seed", text: day.seed })), verdict);
  const kept = keptCommitment(localStorage, day.day);
  verifyDay(day, kept).then((result) => {
    verdict.classList.add(result.ok ? "ok" : "bad");
    if (result.ok) verdict.textContent = kept ? `✔ ${t("rd_verified")} ${t("rd_verified_kept")}` : `✔ ${t("rd_verified")}`;
    else verdict.textContent = t("rd_not_verified", { reason: result.reasons.map(reasonText).join("; ") });
  });
  for (const mode of MODES) {
    const entry = day.modes[mode];
    const deals = el("section", { class: "rd-deals", "data-mode": mode }, el("h2", { text: t(`rd_${mode}`) }));
    (entry.deals || []).forEach((deal, number) => {
      const seats = deal.hands.map((hand, seat) =>
        el("li", {}, el("strong", { text: `${seat === 0 ? t("rd_seat_you") : t("rd_seat_n", { seat: seat + 1 })}: ` }), hand.join(" ")),
      );
      deals.append(el("h3", { text: t("rd_hand", { hand: number + 1 }) }), el("ul", { class: "rd-hands" }, ...seats));
    });
    parts.push(deals);
  }
  parts.push(
    el("h2", { text: t("rd_board_final") }),
    el("div", { class: "rd-board-pair" }, ...MODES.map((mode) => boardBox(day.day, mode))),
    backLink(),
  );
  page.replaceChildren(...parts);
}

function reasonText(reason) {
  if (reason.code === "kept") return t("rd_bad_kept");
  if (reason.code === "deal") return t("rd_bad_deal", { hand: reason.hand, mode: t(`rd_${reason.mode}`) });
  return t("rd_bad_commitment");
}
