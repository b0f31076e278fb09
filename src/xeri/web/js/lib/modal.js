// @ts-check
// A modal dialog: Tab stays inside it, Escape and the backdrop close it, the focus goes back where it was.

import { h } from "./dom.js";

/**
 * A dialog's button: a link when `href` is given; `onClick(close)` instead of closing at once.
 * @typedef {object} Action
 * @property {string} label
 * @property {boolean} [primary]
 * @property {(close: () => void) => void} [onClick]
 * @property {string} [href]
 * @property {string} [download]
 * @property {string} [cls]
 */

let dialogs = 0;

/**
 * Open a modal; returns a function that closes it. Escape and the backdrop close it too.
 * Tab stays inside it, and on closing the focus goes back where it was (or to the table).
 * @param {string} title
 * @param {import("./dom.js").Child} body
 * @param {Action[]} [actions]
 * @param {{ id?: string | null, onClose?: (() => void) | null }} [options]
 * @returns {() => void}
 */
export function modal(title, body, actions = [], { id = null, onClose = null } = {}) {
  const previous = /** @type {HTMLElement | null} */ (document.activeElement);
  const titleId = `dialog-title-${++dialogs}`;
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    back.remove();
    document.removeEventListener("keydown", onKey, true);
    if (onClose) onClose();
    if (document.querySelector(".modal-back")) return;
    /** @type {HTMLElement | null} */
    const fallback =
      document.querySelector("#view .hand .card-btn") ||
      document.querySelector("#view .hand") ||
      document.getElementById("view");
    const target = previous && previous !== document.body && previous.isConnected ? previous : fallback;
    if (target && target.focus && (!document.activeElement || document.activeElement === document.body))
      target.focus({ preventScroll: true });
  };
  const focusable = "a[href], button:not([disabled]), input, select, textarea, [tabindex]:not([tabindex='-1'])";
  const focusables = () => [
    .../** @type {NodeListOf<HTMLElement>} */ (dialog.querySelectorAll(focusable)),
  ];
  /** @param {KeyboardEvent} ev */
  const onKey = (ev) => {
    if (ev.key === "Escape") {
      ev.stopPropagation();
      close();
    } else if (ev.key === "Tab") {
      const all = focusables();
      if (!all.length) return;
      const i = all.indexOf(/** @type {HTMLElement} */ (document.activeElement));
      const next = ev.shiftKey ? (i <= 0 ? all.length - 1 : i - 1) : (i < 0 || i === all.length - 1 ? 0 : i + 1);
      ev.preventDefault();
      all[next].focus();
    }
  };
  const buttons = actions.map(({ label, primary, onClick, href, download, cls }) => {
    if (href) return h(`a.btn${cls ? "." + cls : ""}`, { href, download: download || null }, label);
    return h(
      `button${primary ? ".primary" : ""}${cls ? "." + cls : ""}`,
      { type: "button", onclick: () => (onClick ? onClick(close) : close()) },
      label,
    );
  });
  const dialog = h(
    "div.modal",
    { role: "dialog", "aria-modal": "true", "aria-labelledby": titleId, id },
    h(`h2#${titleId}`, title),
    body,
    h("div.actions", buttons),
  );
  /** @param {MouseEvent} ev */
  const onBackClick = (ev) => ev.target === back && close();
  const back = h("div.modal-back", { onclick: onBackClick }, dialog);
  document.body.appendChild(back);
  document.addEventListener("keydown", onKey, true);
  /** @type {HTMLButtonElement | null} */
  const first =
    dialog.querySelector(".lead-actions button.primary") ||
    dialog.querySelector(".actions button.primary") ||
    dialog.querySelector(".actions button");
  // The focus goes to the first button without scrolling to it: a dialog opens at its top, its headline in view.
  if (first) first.focus({ preventScroll: true });
  dialog.scrollTop = 0;
  return close;
}

