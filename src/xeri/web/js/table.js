// @ts-check
// The table page's controller: one WebSocket feeds the reducer (tablestate.js), the board (board.js) draws each
// step's state in order, and the effects (effects.js: motion, sound) play over it; the controller also owns the
// dialogs, the hint, the keyboard, drag and drop, the panels and leaving. After lichess's ui/round: state, view,
// effects and controller apart, so the state is always the server's latest whatever is still moving.

import { account } from "./account.js";
import { api, ApiError, openTransport, seats } from "./api.js";
import { renderBoard } from "./board.js";
import { cardLabel } from "./cards.js";
import {
  breakdownTable, fairnessBlock, folded, matchHeadline, matchResult, modal, roundHeadline, roundOverBody, roundsTable,
} from "./dialogs.js";
import { clear, h } from "./dom.js";
import { playEffects, snapshot } from "./effects.js";
import { startDrag } from "./drag.js";
import { announce, hideAnnouncement } from "./fx.js";
import { errorText, hintReason, seatName, t } from "./i18n.js";
import { say } from "./movelog.js";
import { prefs } from "./prefs.js";
import { initialState, myTurn, reduce, seatLevel, seatNames } from "./tablestate.js";
import { copyText, handLabel, headline, nameOf as seatNameOf, panels, seatLine } from "./tableview.js";
import { statusText, timerText, tools, waitingPanel } from "./tableview.js";

export { copyText };

/** @typedef {import("./api.js").Table} Table */
/** @typedef {import("./api.js").View} View */
/** @typedef {import("./api.js").GameEvent} GameEvent */
/** @typedef {import("./api.js").ServerMessage} ServerMessage */
/** @typedef {Extract<import("./api.js").ClientMessage, { type: "move" }>} MoveMessage */

/** @typedef {{ body?: boolean, card?: string | null, hand?: boolean, cls?: string | null }} FocusKey */

const PHONE = "(max-width: 600px)";
const COMMITMENTS_KEY = "xeri.commitments";

/** The notices about the computer's play shown on this page so far: each is shown once. */
const noticesShown = new Set();

/**
 * A word from the server about the computer's play: the master plays by the counting rules while its rollouts
 * load, then at full strength. Shown over the table and read out, once each.
 * @param {"master_warming" | "master_ready"} notice
 */
function showNotice(notice) {
  if (noticesShown.has(notice)) return;
  noticesShown.add(notice);
  const text = t(notice);
  announce(text, { ms: 6000 });
  say(text);
}

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
 * Mount the table `tableId` into `container`; returns a cleanup function.
 * @param {HTMLElement} container
 * @param {string} tableId
 * @param {{ watch?: boolean }} [options] watch: spectate even with a seat token
 * @returns {() => void}
 */
export function mountTable(container, tableId, { watch = false } = {}) {
  /** The latest state: what every decision reads. */
  let state = initialState();
  /** What the board shows now: a step behind `state` while an animation plays. */
  let shown = state;
  /** @type {import("./tablestate.js").Step[]} */
  const steps = [];
  let drawing = false;
  /** @type {import("./api.js").Transport | null} */
  let socket = null;
  /** @type {(() => void) | null} */
  let roundDialog = null;
  /** @type {(() => void) | null} */
  let matchDialog = null;
  let shownMatchEnd = false;
  let disposed = false;
  /** @type {ReturnType<typeof setInterval> | undefined} */
  let timerTick;
  /** @type {Promise<void>} */
  let dialogClosed = Promise.resolve();
  const root = h("section.table-view", { dataset: { table: tableId } });
  clear(container).appendChild(root);
  const phone = window.matchMedia(PHONE);

  /** @param {number} seat */
  const nameOf = (seat) => seatNameOf(shown, seat);
  /** @type {import("./tableview.js").ViewHandlers} */
  const on = { askHint, toggleSeen, toggleLog, showAllRounds, leaveDuringPlay, leave };
  const now = () => performance.now();
  const status = () => statusText(shown, { roundDialogOpen: Boolean(roundDialog), now: now() });

  // ---- the state: every message and action goes through the reducer, then is drawn in order ----
  /** @param {ServerMessage | import("./tablestate.js").LocalAction} msg */
  function dispatch(msg) {
    const step = reduce(state, msg, performance.now());
    state = step.state;
    if (step.kind === "local") {
      // The page's own acts (a card sent, a hint cleared) show at once, even while an animation plays.
      shown = latest(shown);
      render();
      return;
    }
    steps.push(step);
    void pump();
  }

  /**
   * A step's state with the page's own acts since (a move in flight, the hint), once it is the latest version:
   * an older step drawn later must not say "Your turn" again for a card already sent.
   * @param {import("./tablestate.js").TableState} s
   */
  function latest(s) {
    return s.version === state.version && s.view === state.view
      ? { ...s, pending: state.pending, hint: state.hint, outbox: state.outbox, outboxSent: state.outboxSent }
      : s;
  }

  /** Draw the steps in order; an update's effects play before the next step is drawn. */
  async function pump() {
    if (drawing) return;
    drawing = true;
    try {
      while (steps.length && !disposed) {
        const step = /** @type {import("./tablestate.js").Step} */ (steps.shift());
        // Nothing is drawn behind an open round dialog: the next round's moves wait until it is closed.
        if (step.kind === "update") await dialogClosed;
        if (disposed) return;
        const before = snapshot(root);
        const was = myTurn(shown);
        shown = latest(step.state);
        render();
        for (const line of step.said) say(line);
        if (step.kind === "update") {
          // Marked while the effects play (for a test, or a style), and unmarked whatever happens.
          root.dataset.moving = "true";
          await playEffects(root, before, step.events, {
            me: shown.seat, sides: shown.view ? shown.view.sides : 2, nameOf, myTurnNow: myTurn(shown),
            myTurnBefore: was,
          }).finally(() => delete root.dataset.moving);
          afterUpdate(step.events);
        } else if (step.kind === "sync") {
          flushOutbox();
          if (shown.view && shown.view.match_over) showMatchOver();
        } else if (step.kind === "table") {
          refreshRematch();
        }
      }
    } catch (err) {
      console.error(err);
    } finally {
      drawing = false;
    }
  }

  /** @param {GameEvent[]} events */
  function afterUpdate(events) {
    for (const ev of events) {
      if (ev.kind === "threshold_raised") announce(t("target_raised", { target: ev.target }), { ms: 2500 });
      else if (ev.kind === "auto_move" && ev.seat === shown.seat)
        announce(ev.reason === "timer" ? t("auto_timer") : t("auto_away"));
    }
    const v = shown.view;
    if (v && v.match_over) showMatchOver();
    else if (events.some((e) => e.kind === "round_scored") && shown.history.length)
      showRoundOver(shown.history[shown.history.length - 1]);
  }

  // ---- the view: the board of the shown state, the tool bar and the panels ----
  /**
   * What has the focus inside the table now, so a re-render can give it back.
   * @returns {FocusKey | null}
   */
  function focusKey() {
    const active = /** @type {HTMLElement | null} */ (document.activeElement);
    if (!active || active === document.body || !root.contains(active))
      return active === document.body ? { body: true } : null;
    if (active.closest(".hand")) return { card: active.dataset.card || null, hand: true };
    const cls = [...active.classList].find((c) => /-(btn|link|match|lobby)$/.test(c));
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
    if (!target && key.cls) target = root.querySelector(`.${key.cls}:not([disabled])`);
    if (!target && (key.hand || key.body))
      target = root.querySelector(".hand .card-btn") || root.querySelector(".hand") || resultTarget();
    if (!target) target = root.querySelector(".hand") || resultTarget() || document.getElementById("view");
    if (target && target.focus) target.focus({ preventScroll: true });
  }

  /** At the end of the match the focus goes to what to do next, not to an empty hand. */
  function resultTarget() {
    return /** @type {HTMLElement | null} */ (root.querySelector(".result .rematch-btn:not([disabled]), " +
      ".result .new-match, .result .back-lobby"));
  }

  function render() {
    if (disposed) return;
    const key = focusKey();
    const table = shown.table;
    if (!shown.view) {
      clear(root).appendChild(waitingPanel(shown, on));
      restoreFocus(key);
      return;
    }
    // A closed <details> stays closed, an open one open, across draws.
    const fairOpen = Boolean(root.querySelector("details.fairness-box[open]"));
    const logScroll = root.querySelector(".log-lines");
    const atEnd = !logScroll || logScroll.scrollTop + logScroll.clientHeight >= logScroll.scrollHeight - 4;
    /** @type {Record<number, boolean>} */
    const away = {};
    if (table) for (const s of table.seats) away[s.seat] = s.away;
    const v = shown.view;
    const canPlay = myTurn(shown);
    const board = renderBoard(v, {
      fourColour: prefs.get("fourColour"),
      tools: tools(shown, on),
      onPlay: canPlay ? play : null,
      onCardPointer: canPlay
        ? (ev, code) => startDrag(ev, () => root.querySelector(".pile-area"), () => play(code))
        : null,
      myTurn: canPlay,
      hinted: shown.hint && shown.hint.card,
      hintText: shown.hint
        ? t("hint_text", { card: cardLabel(shown.hint.card), reason: hintReason(shown.hint, cardLabel) })
        : "",
      status: status(),
      handLabel: handLabel(shown),
      away,
      levels: v.names.map((_, i) => seatLevel(table, i)),
      shortNames: seatNames(table, v.names, true),
      timerText: timerText(shown, now()),
      rounds: table && table.ruleset && table.ruleset.match_end === "rounds" ? table.ruleset.rounds : null,
      byRounds: Boolean(table && table.ruleset && table.ruleset.match_end === "rounds"),
      onHandKey,
      result: v.match_over ? h("div.result-box", h("p.result-headline", headline(shown)), endActions(false)) : null,
    });
    const side = h("div.side-panels", panels(shown, on));
    clear(root).append(
      h("h1.sr-only", (table && table.title) || t("table")),
      h("div.table-layout", board, side),
    );
    if (fairOpen) root.querySelector("details.fairness-box")?.setAttribute("open", "");
    const lines = root.querySelector(".log-lines");
    if (lines && atEnd) lines.scrollTop = lines.scrollHeight;
    // A marker in the tab's title, for a player who is looking at another tab.
    document.title = (canPlay ? "● " : "") + t("title");
    if (shown.seat == null) root.appendChild(h("p.muted.spectator-note", t("spectating")));
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

  // ---- the controller: moves, hints, drag and drop, panels, dialogs ----
  /** @param {string} code */
  function play(code) {
    // The latest state decides, not the board: a move is sent only when the server will take it.
    const v = state.view;
    if (!socket || !myTurn(state) || !v || !(v.legal_moves || []).includes(code)) return;
    /** @type {MoveMessage} */
    const msg = { type: "move", card: code, version: state.version };
    if (!socket.send(msg)) {
      // Not sent: say so, and send it after the resync if it is still legal at the same version.
      dispatch({ type: "unsent", move: msg });
      announce(t("not_sent"), { ms: 4000 });
      say(t("not_sent"));
      return;
    }
    dispatch({ type: "sent", move: msg });
  }

  /** After a resync: send a queued move if the table is still where it was, else drop it and say so. */
  function flushOutbox() {
    const msg = state.outbox;
    const sentBefore = state.outboxSent;
    if (!msg) return;
    dispatch({ type: "outbox-done" });
    const v = state.view;
    const legal = v && v.turn === state.seat && (v.legal_moves || []).includes(msg.card);
    if (state.version === msg.version && legal && socket && socket.send(msg)) {
      dispatch({ type: "sent", move: msg });
      if (!sentBefore) {
        say(t("sent_late"));
        announce(t("sent_late"));
      }
    } else if (!sentBefore) {
      say(t("dropped"));
      announce(t("dropped"), { ms: 4000 });
    }
  }

  function askHint() {
    // Only on this page's turn by the latest state: never a question the server would answer "not your turn".
    if (socket && myTurn(state)) socket.send({ type: "hint" });
  }

  function toggleSeen() {
    prefs.set("seenAid", !prefs.get("seenAid"));
  }

  function toggleLog() {
    prefs.set("logOpen", !prefs.get("logOpen"));
    /** @type {HTMLButtonElement | null} */
    const target = prefs.get("logOpen") ? root.querySelector(".log-close") : root.querySelector(".log-btn");
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

  /** Leaving asks first, in the page's own dialog: the computer plays the seat to the end. */
  function leaveDuringPlay() {
    modal(t("leave"), h("p", t("leave_confirm")), [
      { label: t("leave"), cls: "leave-confirm", onClick: (close) => { close(); void leave(); } },
      { label: t("stay"), primary: true, cls: "leave-cancel" },
    ], { id: "leave-dialog" });
  }

  function showAllRounds() {
    const v = shown.view;
    const table = shown.table;
    if (!table) return;
    const names = (v && v.names) || table.seats.map((s) => seatName(s));
    const players = table.players;
    const sides = v ? v.sides : players === 4 ? 2 : players;
    const body = h(
      "div",
      roundsTable(shown.history, names, players, sides),
      shown.history.map((r) => h("section", breakdownTable(r, names, players, sides), fairnessBlock(r, table.ruleset))),
    );
    modal(t("breakdown"), body, [{ label: t("close"), primary: true }], { id: "rounds-dialog" });
  }

  /** @param {import("./api.js").Round} round */
  function showRoundOver(round) {
    const v = shown.view;
    const table = shown.table;
    if (!v || !table) return;
    const body = roundOverBody(round, v, shown.history, table.ruleset);
    if (roundDialog) roundDialog();
    /** @type {() => void} */
    let release = () => {};
    dialogClosed = new Promise((resolve) => (release = resolve));
    roundDialog = modal(roundHeadline(round, v), body, [{ label: t("next"), primary: true }], {
      id: "round-dialog",
      onClose: () => {
        roundDialog = null;
        // Tell the server this player has seen the round: the next round waits for everyone (or a timeout).
        if (socket && shown.seat != null) socket.send({ type: "ready", round: round.round });
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
    const table = shown.table;
    if (shown.seat != null) {
      const friends = table && table.seats.filter((s) => s.human).length > 1;
      if (table && friends) {
        const offers = (table.rematch && table.rematch.seats) || [];
        const mine = offers.includes(shown.seat);
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
    const v = shown.view;
    const table = shown.table;
    if (shownMatchEnd || !v || !table) return;
    shownMatchEnd = true;
    if (roundDialog) roundDialog();
    const last = shown.history[shown.history.length - 1];
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
        roundsTable(shown.history, v.names, v.players, v.sides, v.round_wins),
        last ? breakdownTable(last, v.names, v.players, v.sides) : null,
        last ? fairnessBlock(last, table.ruleset) : null,
        shown.commitment
          ? h(
              "p.commitment",
              `${t("match_commitment")}: `,
              h("code", shown.commitment),
              h("br"),
              t("commitment_note", { hash: shown.commitment }),
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
        matchDialog = null;
        render();
        // What to do next has the focus; an empty hand is not drawn any more.
        const target = resultTarget();
        if (target) target.focus({ preventScroll: true });
      },
    });
    matchDialog = close;
  }

  /** The rematch button says "Accept" once another player offered, and waits once this one has. */
  function refreshRematch() {
    const offers = (shown.table && shown.table.rematch && shown.table.rematch.seats) || [];
    const mine = shown.seat != null && offers.includes(shown.seat);
    for (const btn of /** @type {NodeListOf<HTMLButtonElement>} */ (document.querySelectorAll(".modal .rematch-btn"))) {
      btn.textContent = mine ? t("rematch_wait") : offers.length ? t("accept") : t("rematch");
      btn.disabled = mine;
    }
    const offered = offers.filter((s) => s !== shown.seat);
    if (offered.length && !mine) say(t("rematch_offered", { name: offered.map(nameOf).join(", ") }));
  }

  function offerRematch() {
    if (socket) socket.send({ type: "rematch" });
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
        offline: table.offline,
      });
      seats.set(res.table_id, res.seat, res.token);
      location.hash = `#/t/${res.table_id}`;
    } catch (err) {
      announce(err instanceof ApiError ? errorText(err.code, err.message) : String(err));
    }
  }

  /** @param {ServerMessage} msg */
  function handle(msg) {
    switch (msg.type) {
      case "sync":
        dispatch(msg);
        keepCommitment(tableId, state.commitment);
        return;
      case "update":
      case "table":
      case "hint":
        dispatch(msg);
        return;
      case "notice":
        showNotice(msg.notice);
        return;
      case "rematch":
        if (msg.token && msg.table_id && msg.seat != null) {
          seats.set(msg.table_id, msg.seat, msg.token);
          location.hash = `#/t/${msg.table_id}`;
        }
        return;
      case "error":
        dispatch(msg);
        if (msg.code === "stale") socket?.send({ type: "sync" });
        else if (msg.code !== "sync_unchanged") announce(errorText(msg.code, msg.message)); // it holds that sync
        // Not stored (the database away, the table changing servers): sent again after a resync, if still legal.
        if (msg.retry && socket) {
          const again = socket.retryLater();
          if (again && again.type === "move") dispatch({ type: "unsent", move: again });
        }
        return;
      default:
        return;
    }
  }

  /**
   * The socket's state: open (connected or reconnected), lost (retrying), closed (4003 bad token, 4004 no table).
   * @param {"open" | "lost" | "closed"} status
   * @param {string | number} detail
   * @param {import("./api.js").ClientMessage | null} [unanswered] a move the lost socket never answered
   */
  function onStatus(status, detail, unanswered) {
    if (status === "open") {
      if (detail === "reconnected") {
        banner(t("reconnected"), true);
        setTimeout(() => banner(null), 1200);
      } else banner(null);
    } else if (status === "lost") {
      banner(t("disconnected"));
      if (unanswered && unanswered.type === "move" && !state.outbox) {
        dispatch({ type: "unsent", move: unanswered, sent: true });
      }
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
    // The WebSocket, or the offline engine for a table played in this browser: the same messages either way.
    socket = openTransport(tableId, token, {
      onMessage: (msg) => {
        try {
          handle(msg);
        } catch (err) {
          console.error(err);
          announce(String(err));
        }
      },
      onStatus,
    }, { watch });
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
      h("ul.table-list", table.seats.map((seat) => h("li", seatLine(shown, seat)))),
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
    if (ev.target instanceof Element && ev.target.closest("input, select, textarea, .modal, summary")) return;
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
    } else if (ev.key === "l" || ev.key === "L") {
      toggleLog();
    }
  }

  document.addEventListener("keydown", onKey);
  const unPrefs = prefs.onChange((key) => {
    if (key !== "sound" && key !== "motion" && key !== "name") render();
  });
  const onMedia = () => render();
  phone.addEventListener("change", onMedia);
  timerTick = setInterval(() => {
    if (shown.timer && shown.view && !shown.view.match_over) {
      const node = root.querySelector(".me .status");
      if (node) node.textContent = status();
      const seatTimer = root.querySelector(".seat-box.turn .seat-timer");
      const left = timerText(shown, now());
      if (seatTimer && left) seatTimer.textContent = ` · ${left}`;
    }
  }, 500);

  (async () => {
    const mine = seats.get(tableId);
    if (mine && !watch) {
      connect(mine.token);
      return;
    }
    // Signed in, with a seat here taken on another device: the session opens it, without a token.
    if (!watch && account().signed_in) {
      try {
        const held = await api.myTables();
        if (held.tables.some((x) => x.table_id === tableId)) {
          connect(null);
          return;
        }
      } catch {
        // no answer: as a guest would
      }
    }
    if (!watch) {
      try {
        const table = await api.table(tableId);
        state = { ...state, table };
        shown = state;
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
    if (socket) socket.close();
    if (roundDialog) roundDialog();
    if (matchDialog) matchDialog();
    banner(null);
    hideAnnouncement();
    document.title = t("title");
    for (const back of document.querySelectorAll(".modal-back")) back.remove();
    const live = document.getElementById("live");
    if (live) clear(live);
  };
}
