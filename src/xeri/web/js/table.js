// @ts-check
// The table page: one WebSocket, the seat's view, the move log, animations, dialogs, hints and the counting aid.

import { api, ApiError, seats, TableSocket } from "./api.js";
import { renderBoard, sideName } from "./board.js";
import { cardLabel } from "./cards.js";
import {
  breakdownTable, fairnessBlock, folded, matchHeadline, matchResult, modal, roundHeadline, roundOverBody, roundsTable,
} from "./dialogs.js";
import { clear, h } from "./dom.js";
import { announce, fly, hideAnnouncement, rectOf } from "./fx.js";
import { errorText, hintReason, seatName, t } from "./i18n.js";
import { describeEvents, logPanel, say } from "./movelog.js";
import { prefs } from "./prefs.js";

/** @typedef {import("./api.js").Table} Table */
/** @typedef {import("./api.js").View} View */
/** @typedef {import("./api.js").GameEvent} GameEvent */
/** @typedef {import("./api.js").ServerMessage} ServerMessage */
/** @typedef {Extract<ServerMessage, { type: "update" }>} UpdateMessage */
/** @typedef {Extract<ServerMessage, { type: "table" }>} TableMessage */
/** @typedef {Extract<import("./api.js").ClientMessage, { type: "move" }>} MoveMessage */

/**
 * Everything the table page knows; render() draws it.
 * @typedef {object} TableState
 * @property {Table | null} table
 * @property {number | null} seat this page's seat, null when watching
 * @property {number} version the moves played so far
 * @property {View | null} view null while the table waits for players
 * @property {import("./api.js").Round[]} history
 * @property {import("./api.js").Timer | null} timer
 * @property {number} timerAt when the timer was received (performance.now())
 * @property {import("./api.js").Hint | null} hint
 * @property {boolean} pending a move was sent and not answered yet
 * @property {TableSocket | null} socket
 * @property {(() => void) | null} roundDialog closes the round's dialog
 * @property {(() => void) | null} matchDialog closes the match's dialog
 * @property {boolean} shownMatchEnd
 * @property {import("./movelog.js").LogLine[]} log
 * @property {boolean} logOpen
 * @property {MoveMessage | null} outbox a move made while the connection was down
 * @property {string | null} commitment
 * @property {import("./api.js").Pause | null} pause
 * @property {boolean} matchOverClosed
 * @property {boolean} synced
 */

/** @typedef {{ body?: boolean, card?: string | null, hand?: boolean, cls?: string | null }} FocusKey */

const PHONE = "(max-width: 600px)";
const COMMITMENTS_KEY = "xeri.commitments";

/**
 * The connection banner; null hides it.
 * @param {string | null} text
 * @param {boolean} [ok] a good message (reconnected)
 */
function banner(text, ok = false) {
  const node = document.getElementById("banner");
  if (!node) return;
  if (!text) {
    node.hidden = true;
    return;
  }
  node.textContent = text;
  node.classList.toggle("ok", ok);
  node.hidden = false;
}

/**
 * @param {Table} table
 * @returns {string}
 */
function inviteUrl(table) {
  return new URL(table.invite || `/#/t/${table.id}`, location.href).href;
}

/**
 * Keep each table's match commitment, so `xeri verify --commitment HASH` can be run on it later.
 * @param {string} tableId
 * @param {string | null} hash
 */
export function keepCommitment(tableId, hash) {
  if (!hash) return;
  try {
    const all = JSON.parse(localStorage.getItem(COMMITMENTS_KEY) || "{}");
    if (all[tableId] === hash) return;
    all[tableId] = hash;
    localStorage.setItem(COMMITMENTS_KEY, JSON.stringify(all));
  } catch {
    /* storage full or blocked: the commitment is still shown */
  }
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
 * Mount the table `tableId` into `container`; returns a cleanup function.
 * @param {HTMLElement} container
 * @param {string} tableId
 * @param {{ watch?: boolean }} [options] watch: spectate even with a seat token
 * @returns {() => void}
 */
export function mountTable(container, tableId, { watch = false } = {}) {
  /** @type {TableState} */
  const state = {
    table: null, seat: null, version: 0, view: null, history: [], timer: null, timerAt: 0,
    hint: null, pending: false, socket: null, roundDialog: null, matchDialog: null, shownMatchEnd: false,
    log: [], logOpen: false, outbox: null, commitment: null, pause: null, matchOverClosed: false, synced: false,
  };
  /** @type {Promise<unknown>} */
  let queue = Promise.resolve();
  let disposed = false;
  /** @type {ReturnType<typeof setInterval> | undefined} */
  let timerTick;
  /** @type {Promise<void>} */
  let dialogClosed = Promise.resolve();
  const root = h("section.table-view", { dataset: { table: tableId } });
  clear(container).appendChild(root);
  const phone = window.matchMedia(PHONE);

  /** @param {number} seat */
  const nameOf = (seat) => ((state.view && state.view.names) || [])[seat] || `${t("seat")} ${seat + 1}`;
  /** @param {number} side */
  const sideText = (side) => (state.view ? sideName(state.view, side) : String(side));

  function tools() {
    /** @type {HTMLElement[]} */
    const out = [];
    const v = state.view;
    const playing = v && !v.match_over;
    if (state.seat != null && playing) {
      out.push(
        h(
          "button.hint-btn",
          { type: "button", onclick: askHint, title: `${t("hint")} (H)`, disabled: !(v.turn === state.seat) },
          t("hint"),
        ),
      );
    }
    if (state.seat != null) {
      out.push(
        h(
          "button.seen-btn",
          {
            type: "button",
            "aria-pressed": String(Boolean(prefs.get("seenAid"))),
            title: `${t("cards_seen")} (S)`,
            onclick: toggleSeen,
          },
          `${prefs.get("seenAid") ? "☑" : "☐"} ${t("cards_seen_short")}`,
        ),
      );
    }
    out.push(
      h(
        "button.log-btn",
        {
          type: "button",
          "aria-expanded": String(state.logOpen || !phone.matches),
          "aria-controls": "move-log",
          onclick: toggleLog,
        },
        t("moves"),
      ),
    );
    if (state.history.length)
      out.push(h("button.rounds-btn", { type: "button", onclick: showAllRounds }, t("breakdown")));
    if (state.seat != null && playing) {
      out.push(h("button.leave-btn", { type: "button", onclick: leaveDuringPlay }, t("leave")));
    }
    if (state.view && state.view.match_over && state.matchOverClosed) out.push(...endActions(false));
    return out;
  }

  function timerLeft() {
    if (!state.timer || state.timer.remaining == null) return null;
    return Math.max(0, Math.ceil(state.timer.remaining - (performance.now() - state.timerAt) / 1000));
  }

  function statusText() {
    const v = state.view;
    if (!v) return "";
    if (v.match_over) return headline();
    if (state.pause && state.pause.waiting && state.pause.waiting.length) {
      const others = state.pause.waiting.filter((s) => s !== state.seat);
      if (others.length && !state.roundDialog) return t("waiting_dialog", { names: others.map(nameOf).join(", ") });
    }
    let text;
    if (v.turn == null) text = "";
    else if (v.turn === state.seat) text = t("your_turn");
    else text = t("turn_of", { name: nameOf(v.turn) });
    const left = timerLeft();
    if (left != null && state.timer && state.timer.seat === v.turn) text += ` · ${left} s`;
    return text;
  }

  /** Who won, from this seat's point of view. */
  function headline() {
    const v = state.view;
    if (!v) return t("match_over");
    const winner = v.winner;
    const mySide = state.seat != null ? state.seat % v.sides : null;
    if (mySide != null && winner != null) return winner === mySide ? t("you_win") : t("you_lose");
    return winner != null ? t("winner", { name: sideName(v, winner) }) : t("match_over");
  }

  function handLabel() {
    const v = state.view;
    if (!v || v.turn == null || v.match_over) return t("hand_over");
    return v.turn === state.seat ? t("hand_mine") : t("hand_wait", { name: nameOf(v.turn) });
  }

  /**
   * What has the focus inside the table now, so a re-render can give it back.
   * @returns {FocusKey | null}
   */
  function focusKey() {
    const active = /** @type {HTMLElement | null} */ (document.activeElement);
    if (!active || active === document.body || !root.contains(active))
      return active === document.body ? { body: true } : null;
    if (active.closest(".hand")) return { card: active.dataset.card || null, hand: true };
    const cls = [...active.classList].find((c) => /-(btn|link)$/.test(c));
    return { cls: cls || null };
  }

  /** @param {FocusKey | null} key */
  function restoreFocus(key) {
    if (!key || document.querySelector(".modal-back")) return;
    if (document.activeElement && document.activeElement !== document.body && root.contains(document.activeElement))
      return;
    /** @type {HTMLElement | null} */
    let target = null;
    if (key.card) target = root.querySelector(`.hand .card-btn[data-card="${key.card}"]`);
    if (!target && key.cls) target = root.querySelector(`.${key.cls}`);
    if (!target && (key.hand || key.body))
      target = root.querySelector(".hand .card-btn") || root.querySelector(".hand");
    if (!target) target = root.querySelector(".hand") || document.getElementById("view");
    if (target && target.focus) target.focus({ preventScroll: true });
  }

  function render() {
    if (disposed) return;
    const key = focusKey();
    clear(root);
    const table = state.table;
    if (!state.view) {
      root.appendChild(waitingPanel(table));
      return;
    }
    /** @type {Record<number, boolean>} */
    const away = {};
    if (table) for (const s of table.seats) away[s.seat] = s.away;
    const board = renderBoard(state.view, {
      fourColour: prefs.get("fourColour"),
      seenAid: prefs.get("seenAid"),
      tools: tools(),
      onPlay: state.pending ? null : play,
      hinted: state.hint && state.hint.card,
      hintText: state.hint
        ? t("hint_text", { card: cardLabel(state.hint.card), reason: hintReason(state.hint, cardLabel) })
        : "",
      status: statusText(),
      handLabel: handLabel(),
      away,
      rounds: table && table.ruleset && table.ruleset.match_end === "rounds" ? table.ruleset.rounds : null,
      byRounds: Boolean(table && table.ruleset && table.ruleset.match_end === "rounds"),
      onHandKey,
    });
    const showLog = state.logOpen || !phone.matches;
    const log = logPanel(state.log, { open: showLog, onClose: phone.matches ? toggleLog : null });
    if (state.commitment)
      log.appendChild(
        h(
          "p.commitment",
          { title: t("commitment_note", { hash: state.commitment }) },
          `${t("match_commitment")}: `,
          h("code.commitment-hash", state.commitment),
        ),
      );
    root.appendChild(h("h1.sr-only", (table && table.title) || t("table")));
    root.appendChild(h("div.table-layout", board, log));
    // A marker in the tab's title, for a player who is looking at another tab.
    const myTurn = state.seat != null && state.view.turn === state.seat && !state.view.match_over;
    document.title = (myTurn ? "● " : "") + t("title");
    if (state.seat == null) root.appendChild(h("p.muted.spectator-note", t("spectating")));
    restoreFocus(key);
  }

  /**
   * Arrow keys move between the cards of the hand; Home and End to the first and last.
   * @param {KeyboardEvent} ev
   */
  function onHandKey(ev) {
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

  /** @param {import("./api.js").Seat} s */
  function seatLine(s) {
    return (
      `${t("seat")} ${s.seat + 1}: ${s.taken ? seatName(s) : t("free")}` +
      (s.human ? "" : ` (${t("bot")})`) +
      (s.seat === state.seat ? ` — ${t("you")}` : "")
    );
  }

  /** @param {Table | null} table */
  function waitingPanel(table) {
    const panel = h("div.panel.waiting");
    if (!table) {
      panel.appendChild(h("p", t("loading")));
      return panel;
    }
    panel.appendChild(h("h1", table.title || `${t("table")} ${table.id}`));
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
    panel.appendChild(h("label.label", { for: "invite-url" }, t("invite")));
    panel.appendChild(h("div.invite", input, copyBtn));
    panel.appendChild(note);
    panel.appendChild(
      h(
        "ul.table-list.seat-list",
        table.seats.map((s) => h("li", seatLine(s))),
      ),
    );
    if (state.seat != null)
      panel.appendChild(h("p", h("button.leave-btn", { type: "button", onclick: leave }, t("leave"))));
    return panel;
  }

  /** @param {string} code */
  function play(code) {
    if (state.pending || !state.socket) return;
    state.hint = null;
    /** @type {MoveMessage} */
    const msg = { type: "move", card: code, version: state.version };
    if (!state.socket.send(msg)) {
      // Not sent: say so, and send it after the resync if it is still legal at the same version.
      state.outbox = msg;
      announce(t("not_sent"), { ms: 4000 });
      say(t("not_sent"));
      render();
      return;
    }
    state.pending = true;
    render();
  }

  /** After a resync: send a queued move if the table is still where it was, else drop it and say so. */
  function flushOutbox() {
    const msg = state.outbox;
    if (!msg) return;
    state.outbox = null;
    const v = state.view;
    const legal = v && v.turn === state.seat && (v.legal_moves || []).includes(msg.card);
    if (state.version === msg.version && legal && state.socket && state.socket.send(msg)) {
      state.pending = true;
      say(t("sent_late"));
      announce(t("sent_late"));
    } else {
      say(t("dropped"));
      announce(t("dropped"), { ms: 4000 });
    }
  }

  function askHint() {
    if (state.socket) state.socket.send({ type: "hint" });
  }

  function toggleSeen() {
    prefs.set("seenAid", !prefs.get("seenAid"));
  }

  function toggleLog() {
    state.logOpen = !state.logOpen;
    render();
    /** @type {HTMLButtonElement | null} */
    const target = state.logOpen ? root.querySelector(".log-close") : root.querySelector(".log-btn");
    if (target) target.focus();
  }

  async function leave() {
    const mine = seats.get(tableId);
    if (mine) {
      try {
        await api.leave(tableId, mine.token);
      } catch {
        /* the seat is dropped here either way */
      }
      seats.drop(tableId);
    }
    location.hash = "#/";
  }

  function showAllRounds() {
    const v = state.view;
    const table = state.table;
    if (!table) return;
    const names = (v && v.names) || table.seats.map((s) => seatName(s));
    const players = table.players;
    const sides = v ? v.sides : players === 4 ? 2 : players;
    const body = h(
      "div",
      roundsTable(state.history, names, players, sides),
      state.history.map((r) => h("section", breakdownTable(r, names, players, sides), fairnessBlock(r, table.ruleset))),
    );
    modal(t("breakdown"), body, [{ label: t("close"), primary: true }], { id: "rounds-dialog" });
  }

  /** @param {import("./api.js").Round} round */
  function showRoundOver(round) {
    const v = state.view;
    const table = state.table;
    if (!v || !table) return;
    const body = roundOverBody(round, v, state.history, table.ruleset);
    if (state.roundDialog) state.roundDialog();
    /** @type {() => void} */
    let release = () => {};
    dialogClosed = new Promise((resolve) => (release = resolve));
    state.roundDialog = modal(roundHeadline(round, v), body, [{ label: t("next"), primary: true }], {
      id: "round-dialog",
      onClose: () => {
        state.roundDialog = null;
        // Tell the server this player has seen the round: the next round waits for everyone (or a timeout).
        if (state.socket && state.seat != null) state.socket.send({ type: "ready", round: round.round });
        release();
        render();
      },
    });
  }

  /**
   * The end of the match's buttons: as a dialog's actions, or as buttons on the board.
   * @overload
   * @param {true} inDialog
   * @returns {import("./dialogs.js").Action[]}
   */
  /**
   * @overload
   * @param {false} inDialog
   * @returns {HTMLElement[]}
   */
  /**
   * @param {boolean} inDialog
   * @returns {(import("./dialogs.js").Action | HTMLElement)[]}
   */
  function endActions(inDialog) {
    /** @type {(import("./dialogs.js").Action | HTMLElement)[]} */
    const out = [];
    const table = state.table;
    if (state.seat != null) {
      const friends = table && table.seats.filter((s) => s.human).length > 1;
      if (table && friends) {
        const offers = (table.rematch && table.rematch.seats) || [];
        const mine = offers.includes(state.seat);
        const label = offers.length && !mine ? t("accept") : t("rematch");
        out.push(
          inDialog
            ? { label, cls: "rematch-btn", onClick: () => offerRematch() }
            : h(
                "button.rematch-btn",
                { type: "button", disabled: mine, onclick: offerRematch },
                mine ? t("rematch_wait") : label,
              ),
        );
      } else {
        out.push(
          inDialog
            ? {
                label: t("new_match"),
                cls: "new-match",
                onClick: (close) => {
                  close();
                  newMatch();
                },
              }
            : h("button.new-match", { type: "button", onclick: newMatch }, t("new_match")),
        );
      }
    }
    if (!inDialog) out.push(h("a.btn.back-lobby", { href: "#/" }, t("back_lobby")));
    return out;
  }

  function showMatchOver() {
    const v = state.view;
    const table = state.table;
    if (state.shownMatchEnd || !v || !table) return;
    state.shownMatchEnd = true;
    if (state.roundDialog) state.roundDialog();
    const last = state.history[state.history.length - 1];
    const byRounds = Boolean(table.ruleset && table.ruleset.match_end === "rounds");
    // The winner and the final score lead, then what to do next; the tables and hashes are folded below.
    const next = endActions(true).map(({ label, cls, onClick }, i) =>
      h(`button${i ? "" : ".primary"}${cls ? "." + cls : ""}`, {
        type: "button",
        onclick: () => onClick && onClick(close),
      }, label),
    );
    const body = h(
      "div",
      matchResult(v, byRounds),
      h(
        "div.lead-actions",
        next,
        h("button.lobby-btn", { type: "button", onclick: () => { close(); location.hash = "#/"; } }, t("back_lobby")),
      ),
      folded(
        roundsTable(state.history, v.names, v.players, v.sides, v.round_wins),
        last ? breakdownTable(last, v.names, v.players, v.sides) : null,
        last ? fairnessBlock(last, table.ruleset) : null,
        state.commitment
          ? h(
              "p.commitment",
              `${t("match_commitment")}: `,
              h("code", state.commitment),
              h("br"),
              t("commitment_note", { hash: state.commitment }),
            )
          : null,
      ),
    );
    const close = modal(matchHeadline(v, byRounds), body, [
      { label: t("download_record"), href: api.recordUrl(tableId), download: `xeri-${tableId}.json` },
      { label: t("close"), cls: "close-btn" },
    ], {
      id: "match-dialog",
      onClose: () => {
        state.matchDialog = null;
        state.matchOverClosed = true;
        render();
      },
    });
    state.matchDialog = close;
  }

  /** The rematch button says "Accept" once another player offered, and waits once this one has. */
  function refreshRematch() {
    const offers = (state.table && state.table.rematch && state.table.rematch.seats) || [];
    const mine = state.seat != null && offers.includes(state.seat);
    for (const btn of /** @type {NodeListOf<HTMLButtonElement>} */ (document.querySelectorAll(".modal .rematch-btn"))) {
      btn.textContent = mine ? t("rematch_wait") : offers.length ? t("accept") : t("rematch");
      btn.disabled = mine;
    }
    const offered = offers.filter((s) => s !== state.seat);
    if (offered.length && !mine) say(t("rematch_offered", { name: offered.map(nameOf).join(", ") }));
  }

  function offerRematch() {
    if (state.socket) state.socket.send({ type: "rematch" });
  }

  /** The same table again: the same rules and bots, you in the same seat. */
  async function newMatch() {
    const table = state.table;
    if (!table || state.seat == null) return;
    /** @type {import("./api.js").RuleOptions} */
    const options = { ...table.ruleset };
    delete options.name;
    const me = table.seats[state.seat];
    try {
      const res = await api.createTable({
        ruleset: table.ruleset.name, options, turn_timer: table.turn_timer, private: table.private,
        seats: table.seats.map((s) => (s.human ? null : { bot: s.bot })), name: me.name, seat: state.seat,
      });
      seats.set(res.table_id, res.seat, res.token);
      location.hash = `#/t/${res.table_id}`;
    } catch (err) {
      announce(err instanceof ApiError ? errorText(err.code, err.message) : String(err));
    }
  }

  async function leaveDuringPlay() {
    if (window.confirm(t("leave_confirm"))) await leave();
  }

  // ---- animations: remember where cards are before a render, fly them after ----
  /** @param {import("./api.js").PlayedEvent} ev */
  function sourceRect(ev) {
    if (ev.seat === state.seat) return rectOf(root.querySelector(`.hand [data-card="${ev.card}"]`));
    return (
      rectOf(root.querySelector(`.seat-box[data-seat="${ev.seat}"] .fan`)) ||
      rectOf(root.querySelector(`.seat-box[data-seat="${ev.seat}"]`))
    );
  }

  /** @param {number} seat */
  function stackRect(seat) {
    if (!state.view) return null;
    const side = seat % state.view.sides;
    return rectOf(root.querySelector(`.captured[data-side="${side}"] .stack`));
  }

  /**
   * @param {GameEvent[]} events
   * @param {{ speak: boolean }} options speak: also say them in the live region
   */
  function addLog(events, { speak }) {
    const lines = describeEvents(events, nameOf, sideText);
    state.log.push(...lines);
    if (state.log.length > 400) state.log.splice(0, state.log.length - 400);
    if (speak) for (const line of lines) say(line.text);
  }

  /** @param {UpdateMessage} msg */
  async function applyUpdate(msg) {
    // Nothing happens behind an open round dialog: the next round's moves wait until it is closed.
    await dialogClosed;
    if (disposed) return;
    const events = msg.events || [];
    /** @type {{ ev: import("./api.js").PlayedEvent, from: import("./fx.js").Rect | null }[]} */
    const before = [];
    const pileRect = rectOf(root.querySelector(".pile .top-card")) || rectOf(root.querySelector(".pile"));
    for (const ev of events) if (ev.kind === "played") before.push({ ev, from: sourceRect(ev) });
    const view = localNames(msg.view);
    state.view = view;
    state.version = msg.version;
    state.timer = msg.timer || null;
    state.timerAt = performance.now();
    if ("pause" in msg) state.pause = msg.pause ?? null;
    state.pending = false;
    if (msg.history) state.history = msg.history;
    addLog(events, { speak: true });
    render();
    /** @type {Promise<unknown>[]} */
    const flights = [];
    const noDialog = !document.querySelector(".modal-back");
    const captures = events.filter((e) => e.kind === "captured");
    const captured = captures.find((e) => !e.leftover);
    const leftover = captures.find((e) => e.leftover);
    for (const { ev, from } of noDialog ? before : []) {
      /** @type {HTMLElement | null} */
      const top = root.querySelector(".pile .top-card");
      if (captured && captured.seat === ev.seat) {
        flights.push(fly(ev.card, from, pileRect).then(() => fly(null, pileRect, stackRect(ev.seat))));
      } else if (leftover) {
        // The last card of the round, then what is left on the pile goes to the last capturer.
        flights.push(fly(ev.card, from, pileRect).then(() => fly(null, pileRect, stackRect(leftover.seat))));
      } else if (top) {
        top.style.visibility = "hidden";
        flights.push(fly(ev.card, from, rectOf(top)).then(() => (top.style.visibility = "")));
      }
    }
    await Promise.all(flights);
    for (const ev of events) {
      if (ev.kind === "xeri") {
        announce(`${ev.jack ? t("jack_xeri") : t("xeri")} ${nameOf(ev.seat) ? "— " + nameOf(ev.seat) : ""}`, {
          big: true,
        });
      } else if (ev.kind === "threshold_raised") {
        announce(t("target_raised", { target: ev.target }), { ms: 2500 });
      } else if (ev.kind === "auto_move" && ev.seat === state.seat) {
        announce(ev.reason === "timer" ? t("auto_timer") : t("auto_away"));
      }
    }
    if (view.match_over) showMatchOver();
    else if (events.some((e) => e.kind === "round_scored") && state.history.length)
      showRoundOver(state.history[state.history.length - 1]);
  }

  /**
   * Server bots are told apart by their seat's `bot` field, and named in the page's language.
   * @param {View} view
   * @returns {View}
   */
  function localNames(view) {
    const table = state.table;
    if (!table || !view.names) return view;
    const names = view.names.map((name, i) => seatName(table.seats[i], name));
    return { ...view, names };
  }

  /** The table changed: the timer follows the server's, and an away timer stops once the seat is back. */
  /** @param {TableMessage} msg */
  function onTable(msg) {
    state.table = msg.table;
    if ("timer" in msg) {
      state.timer = msg.timer || null;
      state.timerAt = performance.now();
    } else if (state.timer && state.timer.reason === "away") {
      const s = msg.table.seats[state.timer.seat];
      if (s && s.connected) state.timer = null;
    }
    if ("pause" in msg) state.pause = msg.pause ?? null;
    else if ("pause" in msg.table) state.pause = msg.table.pause ?? null;
    if (state.view) state.view = localNames(state.view);
    render();
    refreshRematch();
  }

  /**
   * @param {ServerMessage} msg
   * @returns {Promise<void> | null}
   */
  function handle(msg) {
    switch (msg.type) {
      case "sync":
        state.table = msg.table;
        state.seat = msg.seat;
        state.version = msg.version;
        state.view = msg.view && localNames(msg.view);
        state.history = msg.history || [];
        state.timer = msg.timer || null;
        state.timerAt = performance.now();
        state.pause = msg.pause || (msg.table && msg.table.pause) || null;
        state.pending = false;
        state.log = [];
        // The first sync says what already happened this round (a computer may have led before the page
        // connected); a resync says nothing again.
        if (state.view) addLog(msg.events || [], { speak: !state.synced });
        if (state.view) state.synced = true;
        state.commitment = (msg.fairness && msg.fairness.match_commitment) || null;
        keepCommitment(tableId, state.commitment);
        render();
        flushOutbox();
        if (state.view && state.view.match_over) showMatchOver();
        return null;
      case "update":
        return applyUpdate(msg);
      case "table":
        onTable(msg);
        return null;
      case "rematch":
        if (msg.token && msg.table_id) {
          seats.set(msg.table_id, msg.seat, msg.token);
          location.hash = `#/t/${msg.table_id}`;
        }
        return null;
      case "hint":
        state.hint = { card: msg.card, reason: msg.reason, code: msg.code, params: msg.params };
        render();
        return null;
      case "error":
        state.pending = false;
        if (msg.code === "stale") state.socket?.send({ type: "sync" });
        else if (msg.code !== "sync_unchanged") announce(errorText(msg.code, msg.message)); // it holds that sync
        // Not stored (the database away, the table changing servers): sent again after a resync, if still legal.
        if (msg.retry && state.socket) {
          const again = state.socket.retryLater();
          if (again && again.type === "move") state.outbox = again;
        }
        render();
        return null;
      default:
        return null;
    }
  }

  /**
   * The socket's state: open (connected or reconnected), lost (retrying), closed (4003 bad token, 4004 no table).
   * @param {"open" | "lost" | "closed"} status
   * @param {string | number} detail
   */
  function onStatus(status, detail) {
    if (status === "open") {
      if (detail === "reconnected") {
        banner(t("reconnected"), true);
        setTimeout(() => banner(null), 1200);
      } else banner(null);
    } else if (status === "lost") {
      banner(t("disconnected"));
    } else if (status === "closed") {
      banner(null);
      if (detail === 4003) {
        seats.drop(tableId);
        clear(root).appendChild(
          h("div.panel", h("p", t("seat_lost")), h("a", { href: `#/t/${tableId}/watch` }, t("spectate"))),
        );
      } else {
        clear(root).appendChild(h("div.panel", h("p", t("not_found")), h("a", { href: "#/" }, t("back_lobby"))));
      }
    }
  }

  /** @param {string | null} token */
  function connect(token) {
    state.socket = new TableSocket(tableId, token, {
      onMessage: (msg) => {
        queue = queue.then(() => handle(msg)).catch((err) => {
          console.error(err);
          announce(String(err));
        });
      },
      onStatus,
    });
  }

  /** @param {Table} table */
  async function joinForm(table) {
    const name = h("input.join-name#join-name", {
      value: prefs.get("name") || "",
      maxlength: 32,
      autocomplete: "nickname",
    });
    const error = h("p.error-text", { role: "alert" });
    const form = h(
      "form.panel.join-form",
      {
        onsubmit: async (ev) => {
          ev.preventDefault();
          prefs.set("name", name.value.trim());
          try {
            const res = await api.join(tableId, name.value.trim());
            seats.set(tableId, res.seat, res.token);
            clear(root);
            connect(res.token);
          } catch (err) {
            error.textContent = err instanceof ApiError ? errorText(err.code, err.message) : String(err);
          }
        },
      },
      h("h1", table.title || `${t("table")} ${table.id}`),
      h("ul.table-list", table.seats.map((s) => h("li", seatLine(s)))),
      h("div.form-grid", h("label", { for: "join-name" }, t("your_name")), name),
      h("button.primary.join-btn", { type: "submit" }, t("join")),
      " ",
      h("a", { href: `#/t/${tableId}/watch` }, t("spectate")),
      error,
    );
    clear(root).appendChild(form);
    name.focus();
  }

  /** @param {KeyboardEvent} ev */
  function onKey(ev) {
    if (ev.target instanceof Element && ev.target.closest("input, select, textarea, .modal")) return;
    if (document.querySelector(".modal-back") || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    if (/^[1-9]$/.test(ev.key)) {
      const btn = /** @type {NodeListOf<HTMLElement>} */ (root.querySelectorAll(".hand .card-btn"))[Number(ev.key) - 1];
      if (btn && btn.getAttribute("aria-disabled") !== "true") {
        ev.preventDefault();
        btn.click();
      }
    } else if (ev.key === "h" || ev.key === "H") {
      askHint();
    } else if (ev.key === "s" || ev.key === "S") {
      toggleSeen();
    }
  }

  document.addEventListener("keydown", onKey);
  const unPrefs = prefs.onChange(() => render());
  const onMedia = () => render();
  phone.addEventListener("change", onMedia);
  timerTick = setInterval(() => {
    if (state.timer && state.view && !state.view.match_over) {
      const node = root.querySelector(".me .status");
      if (node) node.textContent = statusText();
    }
  }, 500);

  (async () => {
    const mine = seats.get(tableId);
    if (mine && !watch) {
      connect(mine.token);
      return;
    }
    if (!watch) {
      try {
        const table = await api.table(tableId);
        state.table = table;
        if (table.status === "waiting" && table.free_seats && table.free_seats.length) {
          await joinForm(table);
          return;
        }
      } catch (err) {
        const text = err instanceof ApiError ? errorText(err.code, err.message) : String(err);
        clear(root).appendChild(
          h("div.panel", h("p", `${t("not_found")}: ${text}`), h("a", { href: "#/" }, t("back_lobby"))),
        );
        return;
      }
    }
    render();
    connect(null);
  })();

  return () => {
    disposed = true;
    document.removeEventListener("keydown", onKey);
    phone.removeEventListener("change", onMedia);
    unPrefs();
    clearInterval(timerTick);
    if (state.socket) state.socket.close();
    if (state.roundDialog) state.roundDialog();
    banner(null);
    hideAnnouncement();
    document.title = t("title");
    for (const back of document.querySelectorAll(".modal-back")) back.remove();
    const live = document.getElementById("live");
    if (live) clear(live);
  };
}
