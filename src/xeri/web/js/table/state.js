// @ts-check
// The table's state: a pure reducer of the server's messages and of the page's own few actions (after lichess's
// ui/round). It touches no DOM and starts nothing: the controller (table.js) feeds it, the view draws what it
// returns, and the effects (motion, sound) play the events it hands back. The server is the authority: the state
// is always the latest message's, whatever is still being animated.

import { framesOf, isOpening, roundEndView, roundSplit } from "./frames.js";
import { describeEvents } from "./movelog.js";
import { botName, t } from "../lib/i18n.js";

/** @typedef {import("../net/types.js").Table} Table */
/** @typedef {import("../net/types.js").View} View */
/** @typedef {import("../net/types.js").GameEvent} GameEvent */
/** @typedef {import("../net/types.js").ServerMessage} ServerMessage */
/** @typedef {Extract<import("../net/types.js").ClientMessage, { type: "move" }>} MoveMessage */

/**
 * Everything the table page knows.
 * @typedef {object} TableState
 * @property {Table | null} table
 * @property {number | null} seat this page's seat, null when watching
 * @property {number} version the moves played so far
 * @property {View | null} view null while the table waits for players; names are the page's (seatNames)
 * @property {import("../net/types.js").Round[]} history
 * @property {import("../net/types.js").Timer | null} timer
 * @property {number} timerAt when the timer was received (the caller's clock, ms)
 * @property {import("../net/types.js").Hint | null} hint
 * @property {boolean} pending a move was sent and not answered yet: it is nobody's turn on this page until then
 * @property {import("./movelog.js").LogLine[]} log
 * @property {MoveMessage | null} outbox a move made while the connection was down, or sent just before it went down
 * @property {boolean} outboxSent the outbox's move reached a socket that closed unanswered: if the table moved on,
 *   it was most likely stored, and it is forgotten without a word
 * @property {string | null} commitment
 * @property {import("../net/types.js").Pause | null} pause
 * @property {boolean} synced
 * @property {boolean} takeback the server says this seat may take back its last card now (docs/play.md#takebacks)
 * @property {boolean} takingBack a takeback was sent and its sync has not come yet
 * @property {null | { pile: boolean }} [dealing] a frame's state only (frames.js): the dealt cards drawn hidden
 */

/**
 * What the page itself does to its state.
 * @typedef {{ type: "sent", move: MoveMessage } | { type: "unsent", move: MoveMessage, sent?: boolean }
 *   | { type: "outbox-done" } | { type: "takeback-sent" }
 *   | { type: "clear-hint" }} LocalAction
 */

/**
 * What reduce() hands back: the new state, the events to play (motion, sound), the log lines to say, the frames
 * the board shows while the motion plays (frames.js; drawn before `state`), and, for an update that ends a round
 * and deals the next, the round's end as a step of its own (`before`), drawn first: the next round's deal waits
 * behind the round's screen.
 * @typedef {{ state: TableState, events: GameEvent[], said: string[], kind: string,
 *   frames?: import("./frames.js").Frame[], before?: Step | null }} Step
 */

/** @returns {TableState} */
export function initialState() {
  return {
    table: null, seat: null, version: 0, view: null, history: [], timer: null, timerAt: 0, hint: null,
    pending: false, log: [], outbox: null, outboxSent: false, commitment: null, pause: null, synced: false,
    takeback: false, takingBack: false,
  };
}

/**
 * The names the page shows: a person's own, and for the computer seats a distinct name each ("Computer 2", botName),
 * numbered by seat, with the level said beside it (seatLevel), so a score bar never reads "Computer & Computer".
 * @param {Table | null} table
 * @param {string[]} [fallback] the view's names
 * @param {boolean} [short] the computer seats in a short word ("CPU 2"), for a short screen's score bar
 * @returns {string[]}
 */
export function seatNames(table, fallback = [], short = false) {
  if (!table) return fallback;
  return table.seats.map((s, i) => {
    if (s.human === false && s.bot) return botName(s.seat, null, short);
    return s.name || fallback[i] || `${t("seat")} ${s.seat + 1}`;
  });
}

/**
 * A computer seat's level in the page's language, else null.
 * @param {Table | null} table
 * @param {number} seat
 * @returns {string | null}
 */
export function seatLevel(table, seat) {
  const s = table && table.seats[seat];
  return s && s.human === false && s.bot ? t(s.bot) : null;
}

/**
 * @param {Table | null} table
 * @param {View} view
 * @returns {View}
 */
function named(table, view) {
  const shown = table && view.names ? { ...view, names: seatNames(table, view.names) } : view;
  // A rated match ended by a forfeit (docs/ratings.md): over, whatever the score, and won by the table's winner.
  return table && table.end === "forfeit" ? { ...shown, match_over: true, winner: table.winner, turn: null } : shown;
}

/**
 * @param {TableState} state
 * @param {GameEvent[]} events
 * @returns {{ log: import("./movelog.js").LogLine[], lines: string[] }}
 */
function logged(state, events) {
  const names = (state.view && state.view.names) || [];
  const view = state.view;
  /** @param {number} seat */
  const nameOf = (seat) => names[seat] || `${t("seat")} ${seat + 1}`;
  /** @param {number} side */
  const sideText = (side) => {
    if (!view) return String(side);
    const out = [];
    for (let s = 0; s < view.players; s++) if (s % view.sides === side) out.push(nameOf(s));
    return out.join(" & ");
  };
  const lines = describeEvents(events, nameOf, sideText);
  const log = [...state.log, ...lines];
  return { log: log.length > 400 ? log.slice(log.length - 400) : log, lines: lines.map((l) => l.text) };
}

/**
 * The next state after a server message or a local action; `now` stamps a timer. Pure: the same arguments give
 * the same result, and `state` is not changed.
 * @param {TableState} state
 * @param {ServerMessage | LocalAction} msg
 * @param {number} now
 * @returns {Step}
 */
export function reduce(state, msg, now) {
  /** @type {GameEvent[]} */
  const none = [];
  switch (msg.type) {
    case "sync": {
      const view = msg.view ? named(msg.table, msg.view) : null;
      /** @type {TableState} */
      let next = {
        ...state, table: msg.table, seat: msg.seat, version: msg.version, view, history: msg.history || [],
        timer: msg.timer || null, timerAt: now, pause: msg.pause || (msg.table && msg.table.pause) || null,
        pending: false, log: [], commitment: (msg.fairness && msg.fairness.match_commitment) || null,
        takeback: Boolean(msg.takeback), takingBack: false,
      };
      // The first sync says what already happened this round (a computer may have led before the page
      // connected); a resync says nothing again.
      /** @type {string[]} */
      let said = [];
      /** @type {import("./frames.js").Frame[]} */
      let frames = [];
      if (view) {
        const { log, lines } = logged(next, msg.events || []);
        said = state.synced ? [] : lines;
        next = { ...next, log, synced: true };
        // A round's opening, seen first: its deal is shown (a sync mid-round draws the table as it is).
        if (!state.synced && isOpening(msg.events || [], msg.seat)) frames = framesOf(null, msg.events || [], view);
      }
      // The sync that answers this page's takeback: the board is the server's, the card back in the hand.
      if (state.takingBack) said = [...said, t("takeback_done")];
      return { state: next, events: none, said, kind: "sync", frames };
    }
    case "update": {
      const view = named(state.table, msg.view);
      const events = msg.events || [];
      const prev = state.view;
      const split = roundSplit(events);
      // An update that ends a round and deals the next: the round's end is a step of its own, drawn first.
      const ended = split < 0 ? [] : events.slice(0, split);
      const rest = split < 0 ? events : events.slice(split);
      /** @type {Step | null} */
      let before = null;
      let base = { ...state, view };
      if (split >= 0) {
        // The server's own view of the round's end when it sends one; else the same, worked out from the events.
        const endView = msg.round_end ? named(state.table, msg.round_end) : roundEndView(prev, ended, view);
        const endLog = logged({ ...state, view: endView }, ended);
        const end = {
          ...state, view: endView, version: msg.version, timer: null, timerAt: now, pending: false,
          history: msg.history || state.history, log: endLog.log, hint: null, takeback: false,
        };
        before = { state: end, events: ended, said: endLog.lines, kind: "update", frames: framesOf(prev, ended, view),
          before: null };
        base = { ...end, view };
      }
      const { log, lines } = logged(base, rest);
      const next = {
        ...base, version: msg.version, timer: msg.timer || null, timerAt: now,
        pause: "pause" in msg ? msg.pause ?? null : state.pause, pending: false, history: msg.history || state.history,
        log, hint: state.hint && view.turn === state.seat && view.hand.includes(state.hint.card) ? state.hint : null,
        takeback: Boolean(msg.takeback),
      };
      const frames = framesOf(before ? before.state.view : prev, rest, view);
      return { state: next, events: rest, said: lines, kind: "update", frames, before };
    }
    case "table": {
      // The table's message carries the timer as it is now (an away timer stops once the seat is back).
      const timer = msg.timer || null;
      const timerAt = now;
      const pause = msg.table.pause ?? null;
      const view = state.view && named(msg.table, state.view);
      const next = { ...state, table: msg.table, timer, timerAt, pause, view };
      return { state: next, events: none, said: [], kind: "table" };
    }
    case "hint":
      return {
        state: { ...state, hint: { card: msg.card, reason: msg.reason, code: msg.code, params: msg.params } },
        events: none, said: [], kind: "hint",
      };
    case "error":
      return { state: { ...state, pending: false, takingBack: false }, events: none, said: [], kind: "error" };
    case "takeback-sent":
      return { state: { ...state, takeback: false, takingBack: true, hint: null }, events: none, said: [],
        kind: "local" };
    case "sent":
      return { state: { ...state, pending: true, hint: null }, events: none, said: [], kind: "local" };
    case "unsent":
      return {
        state: { ...state, outbox: msg.move, outboxSent: Boolean(msg.sent), hint: null },
        events: none, said: [], kind: "local",
      };
    case "outbox-done":
      return { state: { ...state, outbox: null, outboxSent: false }, events: none, said: [], kind: "local" };
    case "clear-hint":
      return { state: { ...state, hint: null }, events: none, said: [], kind: "local" };
    default:
      return { state, events: none, said: [], kind: "none" };
  }
}

/**
 * Whether this page may play now: its seat's turn, no move in flight, the match on.
 * @param {TableState} state
 * @returns {boolean}
 */
export function myTurn(state) {
  const v = state.view;
  return Boolean(v && state.seat != null && v.turn === state.seat && !v.over && !v.match_over && !state.pending);
}

/**
 * The seconds left on the turn timer at `now`, or null.
 * @param {TableState} state
 * @param {number} now
 * @returns {number | null}
 */
export function timerLeft(state, now) {
  if (!state.timer || state.timer.remaining == null) return null;
  return Math.max(0, Math.ceil(state.timer.remaining - (now - state.timerAt) / 1000));
}
