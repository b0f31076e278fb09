// @ts-check
// What the page sends to the table: a card, a hint's question, a takeback, the move kept while the connection was
// down, and a new match. The latest state decides (never the board, which may be a step behind): the page sends
// only what the server will take, so it never hears "It is not your turn".

import { api } from "../net/api.js";
import { ApiError } from "../net/http.js";
import { seats } from "../net/seats.js";
import { announce } from "../lib/flight.js";
import { errorText, t } from "../lib/i18n.js";
import { say } from "./movelog.js";
import { myTurn } from "./state.js";

/** @typedef {Extract<import("../net/types.js").ClientMessage, { type: "move" }>} MoveMessage */

/**
 * The table's queue and its socket, as the controller holds them.
 * @typedef {object} MoveContext
 * @property {import("./queue.js").DrawQueue} queue
 * @property {() => import("../net/types.js").Transport | null} socket
 */

/**
 * Play `code`, if the latest state lets this page play it; its card flies to the pile from `from` (where it was
 * dropped), else from its place in the hand.
 * @param {MoveContext} ctx
 * @param {string} code
 * @param {import("../lib/flight.js").Rect | null} [from]
 */
export function play(ctx, code, from = null) {
  const { queue } = ctx;
  const socket = ctx.socket();
  const state = queue.state;
  const v = state.view;
  if (!socket || !myTurn(state) || !v || !(v.legal_moves || []).includes(code)) return;
  /** @type {MoveMessage} */
  const msg = { type: "move", card: code, version: state.version };
  if (!socket.send(msg)) {
    // Not sent: say so, and send it after the resync if it is still legal at the same version.
    queue.dispatch({ type: "unsent", move: msg });
    announce(t("not_sent"), { ms: 4000 });
    say(t("not_sent"));
    return;
  }
  queue.dispatch({ type: "sent", move: msg }, { from });
}

/**
 * After a resync: send a queued move if the table is still where it was, else drop it and say so.
 * @param {MoveContext} ctx
 */
export function flushOutbox(ctx) {
  const { queue } = ctx;
  const msg = queue.state.outbox;
  const sentBefore = queue.state.outboxSent;
  if (!msg) return;
  queue.dispatch({ type: "outbox-done" });
  const state = queue.state;
  const v = state.view;
  const socket = ctx.socket();
  const legal = v && v.turn === state.seat && (v.legal_moves || []).includes(msg.card);
  if (state.version === msg.version && legal && socket && socket.send(msg)) {
    queue.dispatch({ type: "sent", move: msg });
    if (!sentBefore) {
      say(t("sent_late"));
      announce(t("sent_late"));
    }
  } else if (!sentBefore) {
    say(t("dropped"));
    announce(t("dropped"), { ms: 4000 });
  }
}

/**
 * Ask for a hint, only on this page's turn by the latest state and at a casual table: never a question the server
 * would answer "not your turn" or "no hints at a rated table".
 * @param {MoveContext} ctx
 */
export function askHint(ctx) {
  const socket = ctx.socket();
  const s = ctx.queue.state;
  if (socket && myTurn(s) && !(s.table && s.table.rated)) socket.send({ type: "hint" });
}

/**
 * Take back this seat's last card (and the computer's after it), only when the latest state from the server says
 * there is one to take back and no move of this page is in flight; the server answers with a sync.
 * @param {MoveContext} ctx
 */
export function takeBack(ctx) {
  const socket = ctx.socket();
  const state = ctx.queue.state;
  if (!socket || !state.takeback || state.pending || state.takingBack) return;
  if (socket.send({ type: "takeback", version: state.version })) ctx.queue.dispatch({ type: "takeback-sent" });
}

/**
 * The same table again: the same rules and bots, this player in the same seat; the page goes to it.
 * @param {import("./state.js").TableState} state
 */
export async function newMatch(state) {
  const table = state.table;
  if (!table || state.seat == null) return;
  /** @type {import("../net/types.js").RuleOptions} */
  const options = { ...table.ruleset };
  delete options.name;
  const me = table.seats[state.seat];
  try {
    const res = await api.createTable({
      ruleset: table.ruleset.name, options, turn_timer: table.turn_timer, private: table.private,
      seats: table.seats.map((s) => (s.human ? null : { bot: s.bot })), name: me.name, seat: state.seat,
      offline: table.offline,
    });
    seats.set(res.table_id, res.seat, res.token);
    location.hash = `#/t/${res.table_id}`;
  } catch (err) {
    announce(err instanceof ApiError ? errorText(err.code, err.message) : String(err));
  }
}
