// The words of the fichas at tables (es/en): the stake, the pot, the game-end card's movements
// (docs/protocol.md «sit», «pot», «game_ended»). Fichas are play money, worth nothing.
// Merged into the catalogue when js/fichas_view.js loads (not on the home page's first load;
// the lobby's «Apuesta: 50 fichas», `fi_stake`, is in i18n.js).

export const FICHAS_MESSAGES = {
  fi_stake_label: { es: "Apuesta", en: "Stake" },
  fi_no_stake: { es: "Sin apuesta", en: "No stake" },
  fi_stake_option: { es: "{n} fichas", en: "{n} fichas" },
  fi_stake_hint: { es: "Solo en mesas competitivas: cada quien pone la apuesta en el bote al sentarse.", en: "Competitive tables only: everyone puts the stake in the pot on sitting down." },
  fi_pot: { es: "Bote: {n} fichas", en: "Pot: {n} fichas" },
  fi_title: { es: "Fichas", en: "Fichas" },
  fi_change: { es: "{name}: {amount} fichas", en: "{name}: {amount} fichas" },
  fi_cut: { es: "La banca se lleva {n}", en: "The bank takes {n}" },
};
