// Where the open "Frases · Ayudas" panel sits (N1): it must hide nothing needed to play.
// On a wide screen it is a column beside the table (style.css makes room for it: the table
// narrows while it is open). On a phone there is no room beside the table, so it lies over
// the board's felt only, leaving every badge, the turn line and the hand in sight; this
// module gives it the board's box, measured whenever the panel opens or the layout moves.

export const PHONE_QUERY = "(max-width: 600px)";

export function onPhone() {
  return typeof matchMedia === "function" && matchMedia(PHONE_QUERY).matches;
}

// `tools`: the <details>; `board`: the felt it may cover on a phone; `screen`: the box both
// are positioned in (the table screen).
export function placeToolsSheet(tools, board, screen) {
  const body = tools.querySelector(".tools-body");
  if (!body) return;
  const style = body.style;
  if (!tools.open || !onPhone() || !board.isConnected) {
    for (const name of ["top", "left", "width", "height"]) style.removeProperty(name);
    return;
  }
  const outer = screen.getBoundingClientRect();
  const felt = board.getBoundingClientRect();
  style.top = `${felt.top - outer.top}px`;
  style.left = `${felt.left - outer.left}px`;
  style.width = `${felt.width}px`;
  style.height = `${felt.height}px`;
}
