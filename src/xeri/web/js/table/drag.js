// @ts-check
// Drag a card onto the pile, with pointer events (a mouse, a pen and a finger alike). A press that does not move
// is left to the click; a drop anywhere but on the target puts the card back. The ghost flies in #fx; a card
// dropped on the pile flies on from where it was dropped (onDrop is given the ghost's place).

import { rectOf } from "../lib/flight.js";

/**
 * Start following a press on `btn` (a card button); `target()` is where a drop plays, `onDrop(from)` plays it
 * from where it was dropped.
 * @param {PointerEvent} ev
 * @param {() => Element | null} target
 * @param {(from: import("../lib/flight.js").Rect | null) => void} onDrop
 */
export function startDrag(ev, target, onDrop) {
  if (ev.button !== 0) return;
  const btn = /** @type {HTMLElement} */ (ev.currentTarget);
  const card = /** @type {HTMLElement | null} */ (btn.querySelector(".card"));
  const from = rectOf(card);
  if (!card || !from) return;
  const x0 = ev.clientX;
  const y0 = ev.clientY;
  /** @type {HTMLElement | null} */
  let ghost = null;
  /** @param {PointerEvent} e */
  const over = (e) => {
    const r = rectOf(target());
    const pad = 24;
    return Boolean(r && e.clientX > r.left - pad && e.clientX < r.left + r.width + pad &&
      e.clientY > r.top - pad && e.clientY < r.top + r.height + pad);
  };
  // A finger's drag is the page's own: no gesture of the browser's follows it (a fling after a quick release would
  // take the next tap to stop it, and the card's next tap would be lost: issue 39, bug 5).
  /** @param {TouchEvent} e */
  const noGesture = (e) => {
    if (e.cancelable) e.preventDefault();
  };
  btn.addEventListener("touchmove", noGesture, { passive: false });
  /** @param {PointerEvent} e */
  const move = (e) => {
    const dx = e.clientX - x0;
    const dy = e.clientY - y0;
    if (!ghost && Math.hypot(dx, dy) < 8) return;
    if (!ghost) {
      ghost = /** @type {HTMLElement} */ (card.cloneNode(true));
      ghost.classList.add("drag-ghost");
      Object.assign(ghost.style, { left: `${from.left}px`, top: `${from.top}px`, width: `${from.width}px` });
      document.getElementById("fx")?.appendChild(ghost);
      btn.classList.add("dragging");
      try {
        btn.setPointerCapture(e.pointerId);
      } catch {
        /* the pointer is gone */
      }
    }
    ghost.style.transform = `translate(${dx}px, ${dy}px) rotate(${Math.max(-8, Math.min(8, dx / 20))}deg)`;
    target()?.classList.toggle("drop-target", over(e));
    e.preventDefault();
  };
  /** @param {PointerEvent} e */
  const up = (e) => {
    btn.removeEventListener("pointermove", move);
    btn.removeEventListener("pointerup", up);
    btn.removeEventListener("pointercancel", up);
    btn.removeEventListener("touchmove", noGesture);
    target()?.classList.remove("drop-target");
    btn.classList.remove("dragging");
    if (!ghost) return;
    const dropped = rectOf(ghost);
    ghost.remove();
    // The click that follows a drag is not a second play. It is forgotten at the card's next press: a cancelled or
    // a finger's drag fires no click, and the next tap on the card must play it (issue 39, bug 5). The drag's own
    // touchend is left alone: cancelling it could cancel the next tap's click too, where the touch's first target
    // was redrawn during the drag and the touchend never reached the button.
    /** @param {Event} c */
    const swallow = (c) => c.stopImmediatePropagation();
    const forget = () => btn.removeEventListener("click", swallow, { capture: true });
    btn.addEventListener("click", swallow, { capture: true, once: true });
    btn.addEventListener("pointerdown", forget, { once: true, capture: true });
    if (e.type === "pointerup" && over(e)) onDrop(dropped);
  };
  btn.addEventListener("pointermove", move);
  btn.addEventListener("pointerup", up);
  btn.addEventListener("pointercancel", up);
}
