// @ts-check
// The table page's view parts around the board (board.js draws the felt): the status line, the tool bar, the
// panels beside the felt and the waiting room. Each is a function of the state it is given, with the handlers
// the controller (table.js) passes in; none keeps anything.

import { seenPanel, sideName } from "./board.js";
import { h } from "../lib/dom.js";
import { invitation, seatName, t, tableName } from "../lib/i18n.js";
import { logPanel } from "./movelog.js";
import { prefs } from "../lib/prefs.js";
import { myTurn, timerLeft } from "./state.js";

/** @typedef {import("./state.js").TableState} TableState */
/** @typedef {import("../net/types.js").Table} Table */

/**
 * What the view's buttons do: the controller's functions.
 * @typedef {object} ViewHandlers
 * @property {() => void} askHint
 * @property {() => void} takeBack
 * @property {() => void} toggleSeen
 * @property {() => void} toggleLog
 * @property {() => void} showAllRounds
 * @property {() => void} leaveDuringPlay
 * @property {() => void} leave
 * @property {() => void} toggleTalk opens or closes the talk panel (talk.js)
 * @property {() => boolean} talkOpen whether it is open
 */

/**
 * @param {TableState} s
 * @param {number} seat
 * @returns {string}
 */
export function nameOf(s, seat) {
  return ((s.view && s.view.names) || [])[seat] || `${t("seat")} ${seat + 1}`;
}

/**
 * Who won, from this seat's point of view.
 * @param {TableState} s
 * @returns {string}
 */
export function headline(s) {
  const v = s.view;
  if (!v) return t("match_over");
  const winner = v.winner;
  const mySide = s.seat != null ? s.seat % v.sides : null;
  const said = mySide != null && winner != null ? (winner === mySide ? t("you_win") : t("you_lose"))
    : winner != null ? t("winner", { name: sideName(v, winner) }) : t("match_over");
  return s.table && s.table.end === "forfeit" ? `${said} ${t("by_forfeit")}` : said;
}

/**
 * The turn timer of the seat to play, "12 s", or null.
 * @param {TableState} s
 * @param {number} now
 * @returns {string | null}
 */
export function timerText(s, now) {
  const v = s.view;
  const left = timerLeft(s, now);
  return v && left != null && s.timer && s.timer.seat === v.turn ? `${left} s` : null;
}

/**
 * The line over the hand: whose turn, the timer, who is still reading the round's summary. Not the winner: the
 * match's result is said once, by its dialog (and the result that takes the hand's place once it is closed).
 * @param {TableState} s
 * @param {{ roundDialogOpen: boolean, now: number }} ui
 * @returns {string}
 */
export function statusText(s, { roundDialogOpen, now }) {
  const v = s.view;
  if (!v) return "";
  if (v.match_over) return "";
  if (s.table && s.table.status === "closed") return t("table_closed");
  if (s.pause && s.pause.waiting && s.pause.waiting.length) {
    const others = s.pause.waiting.filter((seat) => seat !== s.seat);
    if (others.length && !roundDialogOpen)
      return t("waiting_dialog", { names: others.map((seat) => nameOf(s, seat)).join(", ") });
  }
  if (v.turn == null) return "";
  const timer = timerText(s, now);
  // A move in flight: it is not this page's turn any more, whatever the last view said.
  if (v.turn === s.seat && s.pending) return t("move_sending");
  const text = v.turn === s.seat ? t("your_turn") : t("turn_of", { name: nameOf(s, v.turn) });
  return timer ? `${text} · ${timer}` : text;
}

/**
 * The hand's label for a screen reader.
 * @param {TableState} s
 * @returns {string}
 */
export function handLabel(s) {
  const v = s.view;
  if (!v || v.turn == null || v.match_over) return t("hand_over");
  return v.turn === s.seat ? t("hand_mine") : t("hand_wait", { name: nameOf(s, v.turn) });
}

/**
 * The tool bar. Every button is always there (Round breakdown disabled before the first round ends), so the bar
 * never grows a button and nothing beside it moves.
 * @param {TableState} s
 * @param {ViewHandlers} on
 * @returns {HTMLElement[]}
 */
export function tools(s, on) {
  /** @type {HTMLElement[]} */
  const out = [];
  const v = s.view;
  const playing = v && !v.match_over;
  const seated = s.seat != null;
  // No hints at a rated table (docs/ratings.md).
  if (seated && playing && !(s.table && s.table.rated)) {
    out.push(h("button.hint-btn", {
      type: "button", onclick: on.askHint, title: `${t("hint")} (H)`, disabled: !myTurn(s),
    }, t("hint")));
  }
  // Only at a table the server allows takebacks at (one person against the computer), enabled while it says there
  // is a card to take back.
  if (seated && playing && s.table && s.table.takebacks) {
    out.push(h("button.takeback-btn", {
      type: "button", onclick: on.takeBack, title: `${t("takeback")} (U)`,
      disabled: !s.takeback || s.pending || s.takingBack,
    }, t("takeback")));
  }
  // The counting aid, not at a rated table (issue 41): no aids there, as no hints.
  if (seated && !(s.table && s.table.rated)) {
    out.push(h("button.seen-btn", {
      type: "button", "aria-pressed": String(Boolean(prefs.get("seenAid"))), title: `${t("cards_seen")} (S)`,
      onclick: on.toggleSeen,
    }, t("cards_seen_short")));
  }
  out.push(h("button.log-btn", {
    type: "button", "aria-pressed": String(Boolean(prefs.get("logOpen"))),
    "aria-controls": prefs.get("logOpen") ? "move-log" : null, onclick: on.toggleLog,
  }, t("moves")));
  out.push(h("button.rounds-btn", { type: "button", onclick: on.showAllRounds, disabled: !s.history.length },
    h("span.label-long", t("breakdown")), h("span.label-short", t("breakdown_short"))));
  // Table talk, for a player with another person at the table (not against the computer alone, nor offline); a
  // spectator hears the players' talk too, and its panel holds only their mutes.
  if (s.table && !s.table.offline && s.table.seats.some((x) => x.human && x.seat !== s.seat)) {
    out.push(h("button.talk-btn", {
      type: "button", onclick: on.toggleTalk, "aria-label": t("talk"), title: t("talk"),
      "aria-expanded": String(on.talkOpen()), "aria-controls": "talk-panel",
    }, h("span", { "aria-hidden": "true" }, "💬")));
  }
  if (seated && playing) out.push(h("button.leave-btn", { type: "button", onclick: on.leaveDuringPlay }, t("leave")));
  return out;
}

/**
 * The panels beside the felt: the move log and the cards seen, as the settings remember them, and the
 * Fairness disclosure with the match commitment.
 * @param {TableState} s
 * @param {ViewHandlers} on
 * @returns {HTMLElement[]}
 */
export function panels(s, on) {
  /** @type {HTMLElement[]} */
  const out = [];
  const v = s.view;
  // The Rated badge here, not in the tool bar: that one must fit a phone's width.
  if (s.table && s.table.rated) out.push(h("p.rated-note", h("span.rated-badge", t("rated"))));
  if (prefs.get("logOpen")) out.push(logPanel(s.log, { open: true, onClose: on.toggleLog }));
  if (v && s.seat != null && prefs.get("seenAid") && !(s.table && s.table.rated)) {
    const seen = seenPanel(v);
    seen.insertBefore(
      h("button.seen-close", { type: "button", onclick: on.toggleSeen, "aria-label": t("close") }, "×"),
      seen.firstChild,
    );
    out.push(seen);
  }
  if (s.commitment) {
    out.push(h(
      "details.fairness-box",
      h("summary", t("fairness_panel")),
      h("p.commitment", { title: t("commitment_note", { hash: s.commitment }) },
        `${t("match_commitment")}: `, h("code.commitment-hash", s.commitment)),
      h("p.muted", t("commitment_note", { hash: s.commitment })),
    ));
  }
  return out;
}

/**
 * @param {TableState} s
 * @param {import("../net/types.js").Seat} seat
 * @returns {string}
 */
export function seatLine(s, seat) {
  return (
    `${t("seat")} ${seat.seat + 1}: ${seat.taken ? seatName(seat) : t("free")}` +
    (seat.human ? "" : ` (${t("bot")})`) +
    (seat.seat === s.seat ? ` — ${t("you")}` : "")
  );
}

/**
 * @param {Table} table
 * @returns {string}
 */
function inviteUrl(table) {
  return new URL(table.invite || `/#/t/${table.id}`, location.href).href;
}

/**
 * Copy `text` to the clipboard; where that is refused (plain http), select it in `input` and say so.
 * @param {string} text
 * @param {HTMLInputElement} input
 * @returns {Promise<boolean>} whether the clipboard took it
 */
export async function copyText(text, input) {
  input.focus();
  input.select();
  try {
    if (!navigator.clipboard || !window.isSecureContext) throw new Error("no clipboard");
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    input.focus();
    input.select();
    return false;
  }
}

/**
 * The table waiting for its players: the invite link with its copy button, the seats, Leave.
 * @param {TableState} s
 * @param {ViewHandlers} on
 * @returns {HTMLElement}
 */
export function waitingPanel(s, on) {
  const table = s.table;
  const panel = h("div.panel.waiting");
  if (!table) {
    panel.appendChild(h("p", t("loading")));
    return panel;
  }
  panel.appendChild(h("h1", tableName(table)));
  if (table.rated) panel.appendChild(h("p", h("span.rated-badge", t("rated"))));
  panel.appendChild(h("p.waiting-text", t("waiting_players")));
  const url = inviteUrl(table);
  const input = h("input.invite-url#invite-url", { value: url, readonly: true });
  const note = h("p.copy-note", { role: "status" });
  const copyBtn = h("button.copy-btn", {
    type: "button",
    onclick: async () => {
      const ok = await copyText(url, input);
      copyBtn.textContent = ok ? t("copied") : t("copy");
      note.textContent = ok ? t("copied") : t("copy_failed");
    },
  }, t("copy"));
  // A phone's own share sheet (messages, chat apps) where the browser has one (the Web Share API).
  const shareBtn = typeof navigator.share === "function" ? h("button.share-btn", {
    type: "button",
    onclick: () => navigator.share({ title: t("title"), text: invitation(table), url }).catch(() => {}),
  }, t("share")) : null;
  panel.appendChild(h("label.label", { for: "invite-url" }, t("invite")));
  panel.appendChild(h("div.invite", input, copyBtn, shareBtn));
  panel.appendChild(note);
  // The link as a QR code (server.http.qr), for a phone to scan off this screen: folded, so it takes no room.
  panel.appendChild(h("details.invite-qr", h("summary", t("qr_show")),
    h("img.qr", { src: `/api/qr.svg?url=${encodeURIComponent(url)}`, alt: t("qr_alt"), width: 164, height: 164 })));
  panel.appendChild(h("ul.table-list.seat-list", table.seats.map((seat) => h("li", seatLine(s, seat)))));
  if (s.seat != null)
    panel.appendChild(h("p", h("button.leave-btn", { type: "button", onclick: on.leave }, t("leave"))));
  return panel;
}
