// @ts-check
// The move log: every event of the table said as a line in the player's language, for the log
// beside the table (a drawer on a phone) and for the polite live region a screen reader reads.

import { cardLabel } from "../lib/cards.js";
import { h } from "../lib/dom.js";
import { t, tn } from "../lib/i18n.js";

/**
 * One line of the log: kind "move" for a card played (with its capture), "deal", "xeri", "leftover", "score", "auto".
 * @typedef {{ kind: string, seat: number | null, text: string }} LogLine
 */

/**
 * @param {string[]} cards
 * @returns {string}
 */
function list(cards) {
  return cards.map(cardLabel).join(", ");
}

/**
 * Lines for `events` (docs/reference/protocol-messages.md's EVENTs, oldest first). `nameOf(seat)` names a seat,
 * `sideText(side)` a side. Each line is {text, seat, kind}: kind "move" for a card played.
 * @param {import("../net/types.js").GameEvent[]} events
 * @param {(seat: number) => string} nameOf
 * @param {(side: number) => string} sideText
 * @returns {LogLine[]}
 */
export function describeEvents(events, nameOf, sideText) {
  /** @type {LogLine[]} */
  const out = [];
  /** @type {import("../net/types.js").PlayedEvent | null} */
  let pending = null; // a `played` event waiting to see whether a capture follows
  const flush = () => {
    if (pending)
      out.push({
        kind: "move",
        seat: pending.seat,
        text: t("log_play", { name: nameOf(pending.seat), card: cardLabel(pending.card) }),
      });
    pending = null;
  };
  for (const ev of events) {
    if (ev.kind === "captured" && !ev.leftover && pending && pending.seat === ev.seat) {
      const played = pending.card;
      const taken = (ev.cards || []).filter((c) => c !== played);
      const params = {
        name: nameOf(ev.seat),
        card: cardLabel(pending.card),
        cards: list(taken),
        hidden: ev.hidden_count || 0,
      };
      let key = "log_take";
      if (
        pending.card &&
        pending.card[0] === "J" &&
        !(taken.length && taken[taken.length - 1] && taken[taken.length - 1][0] === "J")
      )
        key = "log_sweep";
      else if (ev.hidden_count) key = "log_take_hidden";
      out.push({ kind: "move", seat: ev.seat, text: tn(key, params.hidden, params) });
      pending = null;
      continue;
    }
    flush();
    switch (ev.kind) {
      case "played":
        pending = ev;
        break;
      case "captured": {
        const n = (ev.cards || []).length + (ev.hidden_count || 0);
        out.push({
          kind: "leftover",
          seat: ev.seat,
          text: t("log_leftover", { name: nameOf(ev.seat), n, cards: list(ev.cards || []) }),
        });
        break;
      }
      case "xeri":
        out.push({
          kind: "xeri",
          seat: ev.seat,
          text: t(ev.jack ? "log_jack_xeri" : "log_xeri", {
            name: nameOf(ev.seat), points: t("pts", { n: ev.points }),
          }),
        });
        break;
      case "round_started":
        out.push({ kind: "deal", seat: ev.dealer, text: t("log_deal", { n: ev.number, name: nameOf(ev.dealer) }) });
        break;
      case "dealt":
        if (!ev.first)
          out.push({
            kind: "deal",
            seat: ev.dealer,
            text: t("log_hands", { n: (ev.sizes || [])[0] || 0, talon: ev.talon }),
          });
        break;
      case "pile_unclaimed":
        out.push({ kind: "leftover", seat: null, text: t("log_unclaimed", { n: (ev.cards || []).length }) });
        break;
      case "pile_redealt":
        out.push({ kind: "deal", seat: null, text: t("log_redealt") });
        break;
      case "jack_slipped":
        out.push({ kind: "deal", seat: null, text: t("log_jack_slipped", { card: cardLabel(ev.card) }) });
        break;
      case "bottom_exposed":
        out.push({ kind: "deal", seat: null, text: t("log_bottom", { card: cardLabel(ev.card) }) });
        break;
      case "round_scored":
        out.push({
          kind: "score",
          seat: null,
          text: t("log_scored", { scores: (ev.scores || []).map((b) => `${sideText(b.side)} ${b.total}`).join(" – ") }),
        });
        break;
      case "match_over":
        out.push({ kind: "score", seat: null, text: t("log_match", { name: sideText(ev.winner) }) });
        break;
      case "threshold_raised":
        out.push({ kind: "score", seat: null, text: t("target_raised", { target: ev.target }) });
        break;
      case "auto_move":
        out.push({ kind: "auto", seat: ev.seat, text: t("log_auto", { name: nameOf(ev.seat) }) });
        break;
      default:
        break; // commitment, reveal: shown in the fairness check
    }
  }
  flush();
  return out;
}

/**
 * The log panel: newest line last, scrolled to the end.
 * @param {LogLine[]} lines
 * @param {{ open?: boolean, onClose?: (() => void) | null }} [options]
 * @returns {HTMLElement}
 */
export function logPanel(lines, { open = true, onClose = null } = {}) {
  const items = lines.length ? lines.map((l) => h(`li.log-${l.kind}`, l.text)) : [h("li.muted", t("no_moves"))];
  // Focusable, so a keyboard can scroll it.
  const list_ = h("ol.log-lines", { tabindex: "0", "aria-label": t("move_log") }, items);
  const panel = h(
    "aside.move-log",
    { "aria-label": t("move_log"), id: "move-log" },
    h(
      "div.log-head",
      h("h2", t("moves")),
      onClose ? h("button.log-close", { type: "button", onclick: onClose, "aria-label": t("close") }, "×") : null,
    ),
    list_,
  );
  if (!open) panel.classList.add("closed");
  requestAnimationFrame(() => (list_.scrollTop = list_.scrollHeight));
  return panel;
}

/**
 * Say one line in the polite live region (#live), keeping only the last few.
 * @param {string} text
 */
export function say(text) {
  const live = document.getElementById("live");
  if (!live || !text) return;
  live.appendChild(h("p", text));
  while (live.childNodes.length > 12 && live.firstChild) live.removeChild(live.firstChild);
}
