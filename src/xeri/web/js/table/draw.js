// @ts-check
// Draws the table page from one state: the waiting room, or the felt (board.js) with its tool bar, the result and
// the panels beside it (tableview.js). Drawn anew on every step; what a player opened or scrolled (the Fairness
// disclosure, the move log at its end) is kept across draws. The focus is the controller's (tablekeys.js).

import { renderBoard } from "./board.js";
import { cardLabel } from "../lib/cards.js";
import { clear, h } from "../lib/dom.js";
import { startDrag } from "./drag.js";
import { hintReason, t, tableName } from "../lib/i18n.js";
import { prefs } from "../lib/prefs.js";
import { myTurn, seatLevel, seatNames } from "./state.js";
import { handLabel, headline, panels, timerText, tools, waitingPanel } from "./view.js";

/** @typedef {import("./state.js").TableState} TableState */

/**
 * What a draw needs besides the state.
 * @typedef {object} DrawOptions
 * @property {import("./view.js").ViewHandlers} on the tool bar's and the panels' handlers
 * @property {(code: string, from?: import("../lib/flight.js").Rect | null) => void} play plays a card (a click, a
 *   drop on the pile, a number key); `from`: where a dropped card sets off
 * @property {(ev: KeyboardEvent) => void} onHandKey the arrow keys in the hand
 * @property {string} status the line over the hand
 * @property {number} now the clock the timer is read against
 * @property {() => HTMLElement[]} endActions the buttons of the end of the match, drawn in the hand's place
 * @property {boolean} resultShown the match's dialog has been read: its result and endActions take the hand's place
 */

/**
 * Draw `s` into `root`.
 * @param {HTMLElement} root
 * @param {TableState} s
 * @param {DrawOptions} options
 */
export function drawTable(root, s, { on, play, onHandKey, status, now, endActions, resultShown }) {
  const table = s.table;
  if (!s.view) {
    clear(root).appendChild(waitingPanel(s, on));
    return;
  }
  // A closed <details> stays closed, an open one open, across draws.
  const fairOpen = Boolean(root.querySelector("details.fairness-box[open]"));
  const logScroll = root.querySelector(".log-lines");
  const atEnd = !logScroll || logScroll.scrollTop + logScroll.clientHeight >= logScroll.scrollHeight - 4;
  /** @type {Record<number, boolean>} */
  const away = {};
  if (table) for (const seat of table.seats) away[seat.seat] = seat.away;
  const v = s.view;
  const canPlay = myTurn(s);
  const board = renderBoard(v, {
    fourColour: prefs.get("fourColour"),
    tools: tools(s, on),
    onPlay: canPlay ? play : null,
    onCardPointer: canPlay
      ? (ev, code) => startDrag(ev, () => root.querySelector(".pile-area"), (from) => play(code, from))
      : null,
    myTurn: canPlay,
    hinted: s.hint && s.hint.card,
    hintText: s.hint ? t("hint_text", { card: cardLabel(s.hint.card), reason: hintReason(s.hint, cardLabel) }) : "",
    status,
    handLabel: handLabel(s),
    away,
    levels: v.names.map((_, i) => seatLevel(table, i)),
    shortNames: seatNames(table, v.names, true),
    timerText: timerText(s, now),
    rounds: table && table.ruleset && table.ruleset.match_end === "rounds" ? table.ruleset.rounds : null,
    byRounds: Boolean(table && table.ruleset && table.ruleset.match_end === "rounds"),
    onHandKey,
    dealing: s.dealing || null,
    result: v.match_over && resultShown ? h("div.result-box", h("p.result-headline", headline(s)), endActions()) : null,
  });
  const side = h("div.side-panels", panels(s, on));
  clear(root).append(
    h("h1.sr-only", table ? tableName(table) : t("table")),
    h("div.table-layout", board, side),
  );
  if (fairOpen) root.querySelector("details.fairness-box")?.setAttribute("open", "");
  const lines = root.querySelector(".log-lines");
  if (lines && atEnd) lines.scrollTop = lines.scrollHeight;
  // A marker in the tab's title, for a player who is looking at another tab.
  document.title = (canPlay ? "● " : "") + t("title");
  if (s.seat == null) root.appendChild(h("p.muted.spectator-note", t("spectating")));
}

/**
 * The turn timer's second hand, between draws: only the status line and the seat's timer are written.
 * @param {HTMLElement} root
 * @param {TableState} s
 * @param {string} status
 * @param {number} now
 */
export function tickTimer(root, s, status, now) {
  if (!s.timer || !s.view || s.view.match_over) return;
  const node = root.querySelector(".me .status");
  if (node) node.textContent = status;
  const seatTimer = root.querySelector(".seat-box.turn .seat-timer");
  const left = timerText(s, now);
  if (seatTimer && left) seatTimer.textContent = ` · ${left}`;
}
