// @ts-check
// Announcements and card flights (the Web Animations API: transforms and opacity only, so the compositor moves
// them and the main thread stays free). Flights follow the motion setting: skipped when it is off (or the system
// asks for reduced motion), twice as quick when it is fast.

import { cardElement } from "./cards.js";
import { motion, prefs } from "./prefs.js";

/** @typedef {{ left: number, top: number, width: number, height: number }} Rect */

/** @type {ReturnType<typeof setTimeout> | undefined} */
let toastTimer;

/**
 * Show a short message over the table; `big` for a xeri, with `sub` (who made it) on a line of its own, so that a
 * phone's width never wraps it mid-phrase. `quiet`: for the eyes only, when the move log's line already says it to
 * a screen reader (a xeri is said once).
 * @param {string} text
 * @param {{ big?: boolean, ms?: number, sub?: string, quiet?: boolean }} [options]
 */
export function announce(text, { big = false, ms = 1400, sub = "", quiet = false } = {}) {
  const toast = document.getElementById("toast");
  if (!toast) return;
  if (quiet) toast.setAttribute("aria-hidden", "true");
  else toast.removeAttribute("aria-hidden");
  toast.textContent = text;
  if (sub) {
    const line = document.createElement("span");
    line.className = "toast-sub";
    line.textContent = sub;
    toast.appendChild(line);
  }
  toast.classList.toggle("small", !big);
  toast.hidden = false;
  clearTimeout(toastTimer);
  if (big && motion() !== "off" && toast.animate) {
    toast.animate(
      [
        { transform: "translate(-50%, -50%) scale(0.4)", opacity: 0 },
        { transform: "translate(-50%, -50%) scale(1.08)", opacity: 1 },
        { transform: "translate(-50%, -50%) scale(1)" },
      ],
      { duration: 380, easing: "ease-out" },
    );
  }
  toastTimer = setTimeout(() => {
    toast.hidden = true;
  }, ms);
}

export function hideAnnouncement() {
  clearTimeout(toastTimer);
  const toast = document.getElementById("toast");
  if (toast) toast.hidden = true;
}

export const FLIGHT_MS = 320;

/** How long `ms` of motion lasts at the speed in force: 0 when motion is off. */
/**
 * @param {number} ms
 * @returns {number}
 */
export function scaled(ms) {
  const m = motion();
  return m === "off" ? 0 : m === "fast" ? ms / 2 : ms;
}

/**
 * Fly a card (face `code`, or a back for null) from one rect to another. Resolves when it lands. `ms` and
 * `delay` are at normal speed.
 * @param {string | null} code
 * @param {Rect | null} from
 * @param {Rect | null} to
 * @param {{ ms?: number, delay?: number, turn?: number, unseen?: boolean }} [options] turn: degrees it turns on the
 *   way; unseen: not shown before it sets off (a card dealt from the talon), else it waits at `from` (a pile swept)
 * @returns {Promise<void>}
 */
export function fly(code, from, to, { ms = FLIGHT_MS, delay = 0, turn = 0, unseen = false } = {}) {
  const layer = document.getElementById("fx");
  ms = scaled(ms);
  delay = scaled(delay);
  if (!from || !to || !layer || !ms || document.querySelector(".modal-back")) return Promise.resolve();
  const card = cardElement(code, { fourColour: prefs.get("fourColour") });
  card.style.left = `${from.left}px`;
  card.style.top = `${from.top}px`;
  card.style.width = `${from.width}px`;
  if (unseen) card.style.opacity = "0";
  layer.appendChild(card);
  const dx = to.left - from.left;
  const dy = to.top - from.top;
  const scale = to.width / from.width || 1;
  const anim = card.animate(
    [
      { transform: "translate(0, 0) scale(1) rotate(0deg)", opacity: 1 },
      { transform: `translate(${dx}px, ${dy}px) scale(${scale}) rotate(${turn}deg)`, opacity: 1 },
    ],
    { duration: ms, delay, easing: "cubic-bezier(.2,.7,.3,1)", fill: unseen ? "forwards" : "both" },
  );
  return anim.finished.catch(() => {}).then(() => card.remove());
}

/**
 * Where a node is on the screen, or null when it is not shown.
 * @param {Element | null} node
 * @returns {Rect | null}
 */
export function rectOf(node) {
  if (!node) return null;
  const r = node.getBoundingClientRect();
  if (!r.width) return null;
  return { left: r.left, top: r.top, width: r.width, height: r.height };
}
