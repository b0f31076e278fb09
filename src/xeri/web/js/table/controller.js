// @ts-check
// The table page's controller, after lichess's ui/round: it wires the parts and holds what lives as long as the
// page. The socket (api.js) feeds the draw queue (tablequeue.js), which runs every message through the reducer
// (tablestate.js) and draws each step in order (tabledraw.js, over board.js and tableview.js) with its effects
// (effects.js: motion, sound); the page's acts go out through tablemoves.js, the dialogs are tabledialogs.js's,
// the keys and the focus tablekeys.js's, joining and the connection's state tableconnect.js's.

import { account } from "../pages/account.js";
import { api, openTransport } from "../net/api.js";
import { ApiError } from "../net/http.js";
import { seats } from "../net/seats.js";
import { clear, h } from "../lib/dom.js";
import { announce, hideAnnouncement } from "../lib/flight.js";
import { errorText, t } from "../lib/i18n.js";
import { prefs } from "../lib/prefs.js";
import { banner, connectionStatus, gonePanel, joinForm, keepCommitment, showNotice } from "./connect.js";
import { TableDialogs } from "./dialogs.js";
import { drawTable, tickTimer } from "./draw.js";
import { focusKey, moveInHand, restoreFocus, resultTarget, tableKeys } from "./keys.js";
import { askHint, flushOutbox, newMatch, play, takeBack } from "./moves.js";
import { DrawQueue } from "./queue.js";
import { moving, playFrame, settle, snapshot, still, tell } from "./storyboard.js";
import { say } from "./movelog.js";
import { myTurn } from "./state.js";
import { TableTalk } from "./talk.js";
import { statusText } from "./view.js";

/** @typedef {import("../net/types.js").GameEvent} GameEvent */
/** @typedef {import("../net/types.js").ServerMessage} ServerMessage */
/** @typedef {import("./state.js").Step} Step */

const PHONE = "(max-width: 600px)";

/**
 * Mount the table `tableId` into `container`; returns a cleanup function.
 * @param {HTMLElement} container
 * @param {string} tableId
 * @param {{ watch?: boolean }} [options] watch: spectate even with a seat token
 * @returns {() => void}
 */
export function mountTable(container, tableId, { watch = false } = {}) {
  /** @type {import("../net/types.js").Transport | null} */
  let socket = null;
  let disposed = false;
  const root = h("section.table-view", { dataset: { table: tableId } });
  clear(container).appendChild(root);
  const phone = window.matchMedia(PHONE);
  const now = () => performance.now();

  const story = { snapshot, playFrame, tell, settle, still, moving };
  const queue = new DrawQueue({ root, render, gate: () => dialogs.closed, after, story, say });
  /** @type {import("./moves.js").MoveContext} */
  const moves = { queue, socket: () => socket };
  const dialogs = new TableDialogs({
    tableId, shown: () => queue.shown, send: (msg) => void (socket && socket.send(msg)), render,
    newMatch: () => void newMatch(queue.state), resultTarget: () => resultTarget(root), table: () => root,
  });
  // The talk panel lives beside the table's drawing, which each step draws anew (a draw keeps its focus).
  const talkLayer = h("div.talk-layer");
  container.appendChild(talkLayer);
  const talk = new TableTalk({
    tableId, root, layer: talkLayer, state: () => queue.shown, send: (msg) => void (socket && socket.send(msg)),
  });
  /** @type {import("./view.js").ViewHandlers} */
  const on = {
    askHint: () => askHint(moves), takeBack: () => takeBack(moves), toggleSeen, toggleLog,
    showAllRounds: () => dialogs.showAllRounds(),
    leaveDuringPlay: () => dialogs.askLeave(() => void leave()), leave,
    toggleTalk: () => talk.toggle(), talkOpen: () => talk.open,
  };
  const status = () => statusText(queue.shown, { roundDialogOpen: Boolean(dialogs.round), now: now() });

  function render() {
    if (disposed) return;
    const key = focusKey(root);
    drawTable(root, queue.shown, {
      on, play: (code, from) => play(moves, code, from), onHandKey: (ev) => moveInHand(root, ev), status: status(),
      now: now(),
      endActions: () => dialogs.endButtons(), resultShown: dialogs.resultShown,
    });
    talk.decorate();
    restoreFocus(root, key);
  }

  /**
   * What follows a step once it is drawn and its effects have played.
   * @param {Step} step
   */
  function after(step) {
    const v = queue.shown.view;
    if (step.kind === "update") {
      for (const ev of step.events) {
        if (ev.kind === "threshold_raised") announce(t("target_raised", { target: ev.target }), { ms: 2500 });
        else if (ev.kind === "auto_move" && ev.seat === queue.shown.seat)
          announce(ev.reason === "timer" ? t("auto_timer") : t("auto_away"));
      }
      const history = queue.shown.history;
      // The round's end, the last round's too; the match's result only after it is closed (showMatchOver waits).
      if (step.events.some((e) => e.kind === "round_scored") && history.length)
        dialogs.showRoundOver(history[history.length - 1]);
      if (v && v.match_over) dialogs.showMatchOver();
    } else if (step.kind === "sync") {
      flushOutbox(moves);
      if (step.said.includes(t("takeback_done"))) announce(t("takeback_done"));
      backToRoundEnd();
      if (v && v.match_over) dialogs.showMatchOver();
    } else if (step.kind === "table") {
      dialogs.refreshRematch();
    }
  }

  /**
   * Back at the table after a reload or a lost connection (issue 39): a round's end this seat has not closed yet
   * (the pause still waits for it) opens its screen again, and so does the last round of a match that ended while
   * this tab was playing it, before the match's result, as both would have shown live. A finished match opened
   * afresh (from the history, another tab) shows its result alone.
   */
  function backToRoundEnd() {
    const s = queue.shown;
    const v = s.view;
    if (s.seat == null || !v) return;
    const key = `xeri.playing.${tableId}`;
    if (!v.match_over) sessionStorage.setItem(key, "1");
    const reading = Boolean(s.pause && s.pause.waiting.includes(s.seat));
    const endedMeanwhile = v.match_over && sessionStorage.getItem(key) === "1";  // forgotten once shown (openMatch)
    if ((reading || endedMeanwhile) && s.history.length && !dialogs.round && !dialogs.matchShown)
      dialogs.showRoundOver(s.history[s.history.length - 1]);
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
    } else if (account().signed_in && !watch) {
      // The account's seat, opened on this device without its token: the session gives it up.
      await api.leaveMine(tableId).catch(() => {});
    }
    location.hash = "#/";
  }

  /** @param {ServerMessage} msg */
  function handle(msg) {
    switch (msg.type) {
      case "sync":
        queue.dispatch(msg);
        keepCommitment(tableId, queue.state.commitment);
        return;
      case "update":
      case "table":
      case "hint":
        queue.dispatch(msg);
        return;
      case "notice":
        showNotice(msg.notice);
        return;
      case "said":
        talk.heard(msg);
        return;
      case "rematch":
        if (msg.token && msg.table_id && msg.seat != null) {
          seats.set(msg.table_id, msg.seat, msg.token);
          location.hash = `#/t/${msg.table_id}`;
        } else if (msg.table_id && msg.seat == null) {
          location.hash = `#/t/${msg.table_id}/watch`; // a spectator follows the rematch (issue 41)
        }
        return;
      case "error":
        if (msg.ref === "talk") {
          // Talk refused (too fast, free text at a public table): said, and the table's state is not touched.
          announce(errorText(msg.code, msg.message));
          return;
        }
        queue.dispatch(msg);
        if (msg.code === "stale") socket?.send({ type: "sync" });
        else if (msg.code !== "sync_unchanged") announce(errorText(msg.code, msg.message)); // it holds that sync
        // Not stored (the database away, the table changing servers): sent again after a resync, if still legal.
        if (msg.retry && socket) {
          const again = socket.retryLater();
          if (again && again.type === "move") queue.dispatch({ type: "unsent", move: again });
        }
        return;
      default:
        return;
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
      onStatus: connectionStatus({ root, tableId, queue }),
    }, { watch });
  }

  const onKey = tableKeys(root, on);
  document.addEventListener("keydown", onKey);
  // A card clicked while cards still move (the hand is drawn waiting until the last one lands): kept, and played
  // if the latest state lets it; its flight follows the motion already queued.
  const onHeldClick = (/** @type {MouseEvent} */ ev) => {
    const btn = ev.target instanceof Element ? ev.target.closest(".hand .card-btn[aria-disabled='true']") : null;
    const code = btn instanceof HTMLElement ? btn.dataset.card : undefined;
    if (!code || !queue.busy || !myTurn(queue.state)) return;
    ev.stopPropagation();
    play(moves, code);
  };
  root.addEventListener("click", onHeldClick, { capture: true });
  const unPrefs = prefs.onChange((key) => {
    if (key !== "sound" && key !== "motion" && key !== "name") render();
  });
  const onMedia = () => render();
  phone.addEventListener("change", onMedia);
  const timerTick = setInterval(() => tickTimer(root, queue.shown, status(), now()), 500);

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
        queue.setTable(table);
        if (table.status === "waiting" && table.free_seats && table.free_seats.length) {
          joinForm(root, tableId, table, queue.shown, connect);
          return;
        }
      } catch (err) {
        const text = err instanceof ApiError ? errorText(err.code, err.message) : String(err);
        clear(root).appendChild(gonePanel(tableId, "not_found", text));
        return;
      }
    }
    render();
    connect(null);
  })();

  return () => {
    disposed = true;
    queue.disposed = true;
    document.removeEventListener("keydown", onKey);
    root.removeEventListener("click", onHeldClick, { capture: true });
    phone.removeEventListener("change", onMedia);
    unPrefs();
    clearInterval(timerTick);
    talk.dispose();
    talkLayer.remove();
    if (socket) socket.close();
    dialogs.closeAll();
    banner(null);
    hideAnnouncement();
    document.title = t("title");
    for (const back of document.querySelectorAll(".modal-back")) back.remove();
    const live = document.getElementById("live");
    if (live) clear(live);
  };
}
