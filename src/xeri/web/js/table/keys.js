// @ts-check
// The keyboard and the focus at the table: the table's keys (1–9, H, U, S, L), the arrow keys in the hand, and the
// focus kept across a draw (the board is drawn anew on every step, so what had the focus is found again).

/** @typedef {{ body?: boolean, card?: string | null, hand?: boolean, cls?: string | null }} FocusKey */

/**
 * What has the focus inside the table now, so a draw can give it back.
 * @param {HTMLElement} root
 * @returns {FocusKey | null}
 */
export function focusKey(root) {
  const active = /** @type {HTMLElement | null} */ (document.activeElement);
  if (!active || active === document.body || !root.contains(active))
    return active === document.body ? { body: true } : null;
  if (active.closest(".hand")) return { card: active.dataset.card || null, hand: true };
  const cls = [...active.classList].find((c) => /-(btn|link|match|lobby)$/.test(c));
  return { cls: cls || null };
}

/**
 * At the end of the match the focus goes to what to do next, not to an empty hand.
 * @param {ParentNode} root
 * @returns {HTMLElement | null}
 */
export function resultTarget(root) {
  return root.querySelector(".result .rematch-btn:not([disabled]), .result .new-match, .result .back-lobby");
}

/**
 * Give the focus back after a draw: to the same card or button, else into the hand (or what replaced it).
 * @param {HTMLElement} root
 * @param {FocusKey | null} key
 */
export function restoreFocus(root, key) {
  if (!key || document.querySelector(".modal-back")) return;
  if (document.activeElement && document.activeElement !== document.body && root.contains(document.activeElement))
    return;
  /** @type {HTMLElement | null} */
  let target = null;
  if (key.card) target = root.querySelector(`.hand .card-btn[data-card="${key.card}"]`);
  if (!target && key.cls) target = root.querySelector(`.${key.cls}:not([disabled])`);
  if (!target && (key.hand || key.body))
    target = root.querySelector(".hand .card-btn") || root.querySelector(".hand") || resultTarget(root);
  if (!target) target = root.querySelector(".hand") || resultTarget(root) || document.getElementById("view");
  if (target && target.focus) target.focus({ preventScroll: true });
}

/**
 * Arrow keys move between the cards of the hand; Home and End to the first and last.
 * @param {ParentNode} root
 * @param {KeyboardEvent} ev
 */
export function moveInHand(root, ev) {
  const cards = [.../** @type {NodeListOf<HTMLElement>} */ (root.querySelectorAll(".hand .card-btn"))];
  const i = cards.indexOf(/** @type {HTMLElement} */ (document.activeElement));
  let j = null;
  if (ev.key === "ArrowRight" || ev.key === "ArrowDown") j = i < 0 ? 0 : Math.min(cards.length - 1, i + 1);
  else if (ev.key === "ArrowLeft" || ev.key === "ArrowUp") j = i < 0 ? 0 : Math.max(0, i - 1);
  else if (ev.key === "Home") j = 0;
  else if (ev.key === "End") j = cards.length - 1;
  if (j == null || !cards[j]) return;
  ev.preventDefault();
  cards[j].focus();
}

/**
 * The table's keys on the whole page: 1–9 play the n-th card, H asks for a hint, U takes back the last card, S and
 * L open the panels. Not while typing, in a dialog, or with a modifier.
 * @param {ParentNode} root
 * @param {{ askHint: () => void, takeBack: () => void, toggleSeen: () => void, toggleLog: () => void }} on
 * @returns {(ev: KeyboardEvent) => void}
 */
export function tableKeys(root, on) {
  return (ev) => {
    if (ev.target instanceof Element && ev.target.closest("input, select, textarea, .modal, summary")) return;
    if (document.querySelector(".modal-back") || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    if (/^[1-9]$/.test(ev.key)) {
      // Clicked even while it waits (aria-disabled): as a click, a key pressed while cards move is kept and played
      // after them (the controller's held click); a card that cannot be played ignores it.
      const btn = /** @type {NodeListOf<HTMLElement>} */ (root.querySelectorAll(".hand .card-btn"))[Number(ev.key) - 1];
      if (btn) {
        ev.preventDefault();
        btn.click();
      }
    } else if (ev.key === "h" || ev.key === "H") {
      on.askHint();
    } else if (ev.key === "u" || ev.key === "U") {
      on.takeBack();
    } else if (ev.key === "s" || ev.key === "S") {
      on.toggleSeen();
    } else if (ev.key === "l" || ev.key === "L") {
      on.toggleLog();
    }
  };
}
