// Input on the hand: taps, drags and keys. Pointer events serve mouse, touch and pen alike:
// a tile dragged onto an end of the line is played there, onto another tile of the hand it
// moves before that tile (the hand's order is the player's own); a tap plays or chooses
// it, and a tap just below a tile (its flip strip) turns it round. The keyboard does all of
// it too: arrows choose a tile, Enter plays it, F flips it, I/D (or L/R) choose the end.

const DRAG_START_PX = 8;

// The end of the line under a point: this client's end buttons or the line's own ends.
export function endAt(x, y) {
  const target = document.elementFromPoint(x, y);
  const end = target && target.closest(".end");
  if (!end) return null;
  if (end.dataset.side) return end.dataset.side;
  return end.classList.contains("end-left") ? "left" : end.classList.contains("end-right") ? "right" : null;
}

export function attachHandInput(hand, handlers) {
  let drag = null;
  let swallowClick = false;
  let pressed = null; // where the last press on a tile was: on its face, or on the strip below

  const finish = () => {
    if (!drag) return;
    if (drag.ghost) drag.ghost.remove();
    drag.tile.classList.remove("dragging");
    document.querySelectorAll(".drop-target").forEach((element) => element.classList.remove("drop-target"));
    drag = null;
  };

  hand.addEventListener("pointerdown", (event) => {
    const tile = event.target.closest(".hand-tile");
    if (!tile || (event.pointerType === "mouse" && event.button !== 0)) return;
    // By the point itself, not the event's target: a finger's tap may be retargeted to the button.
    const face = tile.querySelector(".tile-face").getBoundingClientRect();
    pressed = { key: tile.dataset.tile, below: event.clientY > face.bottom };
    drag = { key: tile.dataset.tile, tile, id: event.pointerId, x: event.clientX, y: event.clientY, ghost: null };
  });

  const onMove = (event) => {
    if (!drag || event.pointerId !== drag.id) return;
    const dx = event.clientX - drag.x;
    const dy = event.clientY - drag.y;
    if (!drag.ghost) {
      if (Math.hypot(dx, dy) < DRAG_START_PX) return;
      const box = drag.tile.getBoundingClientRect();
      // A picture of the tile that follows the pointer: not a tile of the hand (no class,
      // role or key of one), so nothing mistakes it for the tile itself.
      drag.ghost = document.createElement("div");
      drag.ghost.className = "drag-ghost";
      drag.ghost.setAttribute("aria-hidden", "true");
      drag.ghost.append(drag.tile.querySelector(".tile-face").cloneNode(true));
      Object.assign(drag.ghost.style, { left: `${box.left}px`, top: `${box.top}px`, width: `${box.width}px` });
      drag.origin = { left: box.left, top: box.top };
      document.body.append(drag.ghost);
      drag.tile.classList.add("dragging");
    }
    drag.ghost.style.transform = `translate(${dx}px, ${dy}px)`;
    document.querySelectorAll(".drop-target").forEach((element) => element.classList.remove("drop-target"));
    const target = document.elementFromPoint(event.clientX, event.clientY);
    const over = target && (target.closest(".end") || target.closest(".hand-tile"));
    if (over && over !== drag.tile) over.classList.add("drop-target");
    event.preventDefault();
  };

  const onUp = (event) => {
    if (!drag || event.pointerId !== drag.id) return;
    const { key, ghost } = drag;
    if (ghost) {
      swallowClick = true; // the click a drag may end with is not a tap
      setTimeout(() => (swallowClick = false), 0);
      const side = endAt(event.clientX, event.clientY);
      const target = document.elementFromPoint(event.clientX, event.clientY);
      const onto = target && target.closest(".hand-tile");
      finish();
      if (side) handlers.dropOnEnd(key, side);
      else if (onto && onto.dataset.tile !== key && hand.contains(onto)) handlers.reorder(key, onto.dataset.tile);
      return;
    }
    // A tap, handled here rather than on `click`: a browser may drop the click of a quick
    // tap after a drag, and a finger's click may be retargeted away from the flip strip.
    const { tile } = drag;
    finish();
    const under = document.elementFromPoint(event.clientX, event.clientY);
    if (!under || under.closest(".hand-tile") !== tile) return;
    handlers.focus(key);
    if (pressed && pressed.key === key && pressed.below) handlers.flip(key);
    else handlers.tap(key);
    pressed = null;
  };

  const onCancel = (event) => {
    if (drag && event.pointerId === drag.id) finish();
  };

  // The pointer may leave the hand while dragging: follow it on the whole window.
  window.addEventListener("pointermove", onMove);
  window.addEventListener("pointerup", onUp);
  window.addEventListener("pointercancel", onCancel);

  // Clicks made with a pointer were taps, handled on pointerup; what is left is the keyboard
  // (Enter or Space on a tile: a click with no pointer, `detail` 0).
  hand.addEventListener("click", (event) => {
    const tile = event.target.closest(".hand-tile");
    if (!tile || swallowClick || event.detail !== 0) return;
    handlers.focus(tile.dataset.tile);
    handlers.tap(tile.dataset.tile);
  });

  hand.addEventListener("keydown", (event) => {
    const tile = event.target.closest(".hand-tile");
    const key = tile ? tile.dataset.tile : null;
    const letter = event.key.length === 1 ? event.key.toLowerCase() : event.key;
    if (letter === "ArrowRight" || letter === "ArrowDown") handlers.move(key, 1);
    else if (letter === "ArrowLeft" || letter === "ArrowUp") handlers.move(key, -1);
    else if (letter === "Home") handlers.move(key, -Infinity);
    else if (letter === "End") handlers.move(key, Infinity);
    else if (letter === "f" && key) handlers.flip(key);
    else if (letter === "i" || letter === "l") handlers.end("left");
    else if (letter === "d" || letter === "r") handlers.end("right");
    else return;
    event.preventDefault();
  });

  return function detach() {
    finish();
    window.removeEventListener("pointermove", onMove);
    window.removeEventListener("pointerup", onUp);
    window.removeEventListener("pointercancel", onCancel);
  };
}
