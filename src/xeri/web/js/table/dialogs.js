// @ts-check
// The table's dialogs: the round's end (each side's captured cards; the next round is drawn only once it is closed,
// and the server deals it only then too), every round's breakdown, Leave's question, the end of the match (after
// the last round's end, with a celebration of a win), and the end's buttons (New match, Rematch), which also take
// the hand's place on the board once the match's dialog is closed. Each reads the shown state when it opens.

import { account } from "../pages/account.js";
import { api } from "../net/api.js";
import {
  breakdownTable, fairnessBlock, folded, matchHeadline, matchResult, roundHeadline, roundOverBody, roundsTable,
} from "./reports.js";
import { modal } from "../lib/modal.js";
import { h } from "../lib/dom.js";
import { hideAnnouncement } from "../lib/flight.js";
import { locale, seatName, t } from "../lib/i18n.js";
import { say } from "./movelog.js";
import { celebrateWin } from "./storyboard.js";
import { nameOf } from "./view.js";

/** @typedef {import("./state.js").TableState} TableState */
/** @typedef {import("../lib/modal.js").Action} Action */

/**
 * What the dialogs ask of the controller.
 * @typedef {object} DialogHooks
 * @property {string} tableId
 * @property {() => TableState} shown the state the board shows
 * @property {(msg: import("../net/types.js").ClientMessage) => void} send to the table's socket, if there is one
 * @property {() => void} render draws the board again
 * @property {() => void} newMatch the same table again
 * @property {() => HTMLElement | null} resultTarget what to do next, on the board, once the match is over
 * @property {() => HTMLElement | null} table the table's element, over which a won match is celebrated
 */

export class TableDialogs {
  /** @param {DialogHooks} hooks */
  constructor(hooks) {
    this.hooks = hooks;
    /** the rematch note last said in the live region (refreshRematch) */
    this.saidRematch = "";
    /** @type {(() => void) | null} closes the round's dialog */
    this.round = null;
    /** @type {(() => void) | null} closes the match's dialog */
    this.match = null;
    this.matchShown = false;
    /** the match's dialog was opened and closed: its result and what comes next take the hand's place */
    this.resultShown = false;
    this.disposed = false;
    /** @type {Promise<void>} resolves once the round's dialog is closed */
    this.closed = Promise.resolve();
  }

  showAllRounds() {
    const s = this.hooks.shown();
    const v = s.view;
    const table = s.table;
    if (!table) return;
    const names = (v && v.names) || table.seats.map((seat) => seatName(seat));
    const players = table.players;
    const sides = v ? v.sides : players === 4 ? 2 : players;
    const body = h(
      "div",
      roundsTable(s.history, names, players, sides),
      s.history.map((r) => h("section", breakdownTable(r, names, players, sides), fairnessBlock(r, table.ruleset))),
    );
    modal(t("breakdown"), body, [{ label: t("close"), primary: true }], { id: "rounds-dialog" });
  }

  /** @param {import("../net/types.js").Round} round */
  showRoundOver(round) {
    const s = this.hooks.shown();
    const v = s.view;
    const table = s.table;
    if (!v || !table) return;
    const body = roundOverBody(round, v, s.history, table.ruleset);
    if (this.round) this.round();
    hideAnnouncement(); // the last xeri's banner is not left over the round's end
    /** @type {() => void} */
    let release = () => {};
    this.closed = new Promise((resolve) => (release = resolve));
    this.round = modal(roundHeadline(round, v), body, [{ label: t("next"), primary: true }], {
      id: "round-dialog",
      onClose: () => {
        this.round = null;
        // Tell the server this player has seen the round: the next round waits for everyone (or a timeout).
        const now = this.hooks.shown();
        const over = Boolean(now.view && now.view.match_over);
        if (now.seat != null && !over) this.hooks.send({ type: "ready", round: round.round });
        release();
        this.hooks.render();
      },
    });
  }

  /**
   * Leaving asks first, in the page's own dialog: the computer plays the seat to the end.
   * @param {() => void} leave
   */
  askLeave(leave) {
    const rated = Boolean(this.hooks.shown().table?.rated);
    modal(t("leave"), h("p", t(rated ? "leave_confirm_rated" : "leave_confirm")), [
      { label: t("leave"), cls: "leave-confirm", onClick: (close) => { close(); leave(); } },
      { label: t("stay"), primary: true, cls: "leave-cancel" },
    ], { id: "leave-dialog" });
  }

  /** @returns {Action[]} the end of the match's buttons, as a dialog's actions */
  endDialogActions() {
    /** @type {Action[]} */
    const out = [];
    const s = this.hooks.shown();
    if (s.seat == null) return out;
    const rematch = this.rematchOffer();
    if (rematch) out.push({ label: rematch.label, cls: "rematch-btn", onClick: () => this.offerRematch() });
    else {
      out.push({
        label: t("new_match"), cls: "new-match", onClick: (close) => { close(); this.hooks.newMatch(); },
      });
    }
    return out;
  }

  /** @returns {HTMLElement[]} the end of the match's buttons on the board, in the hand's place */
  endButtons() {
    /** @type {HTMLElement[]} */
    const out = [];
    if (this.hooks.shown().seat != null) {
      const rematch = this.rematchOffer();
      out.push(rematch
        ? h("button.rematch-btn", { type: "button", disabled: rematch.mine, onclick: () => this.offerRematch() },
          rematch.mine ? t("rematch_wait") : rematch.label)
        : h("button.new-match", { type: "button", onclick: () => this.hooks.newMatch() }, t("new_match")));
    }
    out.push(h("a.btn.back-lobby", { href: "#/" }, t("back_lobby")));
    out.push(h("p.rematch-note", this.rematchNote()));
    return out;
  }

  /**
   * At a friends' table, the rematch: "Rematch", or "Accept" once another player offered; null at a table against
   * the computer (New match instead).
   * @returns {{ label: string, mine: boolean } | null}
   */
  rematchOffer() {
    const s = this.hooks.shown();
    const table = s.table;
    const friends = table && table.seats.filter((seat) => seat.human).length > 1;
    if (!table || !friends) return null;
    const offers = (table.rematch && table.rematch.seats) || [];
    const mine = s.seat != null && offers.includes(s.seat);
    return { label: offers.length && !mine ? t("accept") : t("rematch"), mine };
  }

  offerRematch() {
    this.hooks.send({ type: "rematch" });
  }

  /**
   * Who offers a rematch, by name, for everyone at the table, spectators too (issue 41): "Ada offers a rematch",
   * "Ada and Βασίλης offer a rematch"; "" when nobody (else) has.
   * @returns {string}
   */
  rematchNote() {
    const s = this.hooks.shown();
    const offers = (s.table && s.table.rematch && s.table.rematch.seats) || [];
    const others = offers.filter((seat) => seat !== s.seat);
    if (!others.length) return "";
    const names = new Intl.ListFormat(locale(), { type: "conjunction" }).format(others.map((seat) => nameOf(s, seat)));
    return t("rematch_offered", { name: names, n: others.length });
  }

  /** The rematch button says "Accept" once another player offered, and waits once this one has; the note says who
   * offers, and the live region says it once per new offer (not once per table update). */
  refreshRematch() {
    const s = this.hooks.shown();
    const offers = (s.table && s.table.rematch && s.table.rematch.seats) || [];
    const mine = s.seat != null && offers.includes(s.seat);
    for (const btn of /** @type {NodeListOf<HTMLButtonElement>} */ (document.querySelectorAll(".modal .rematch-btn"))) {
      btn.textContent = mine ? t("rematch_wait") : offers.length ? t("accept") : t("rematch");
      btn.disabled = mine;
    }
    const note = this.rematchNote();
    for (const p of document.querySelectorAll(".rematch-note")) p.textContent = note;
    if (note && !mine && note !== this.saidRematch) say(note);
    this.saidRematch = note;
  }

  /**
   * The end of the match, once: after the last round's end is closed (its cards have all landed by then), a win's
   * celebration over the table, then the match's dialog. Nothing moves over an open dialog.
   */
  showMatchOver() {
    const s = this.hooks.shown();
    if (this.matchShown || !s.view || !s.table) return;
    this.matchShown = true;
    void this.closed.then(async () => {
      if (this.disposed) return;
      hideAnnouncement();
      const now = this.hooks.shown();
      const v = now.view;
      const mine = now.seat != null && v ? now.seat % v.sides : null;
      const table = this.hooks.table();
      if (v && mine != null && v.winner === mine && table) await celebrateWin(table, mine);
      if (!this.disposed) this.openMatch();
    });
  }

  /** The match's dialog: the winner and the final score lead, then what to do next; the tables are folded. */
  openMatch() {
    const s = this.hooks.shown();
    const v = s.view;
    const table = s.table;
    const tableId = this.hooks.tableId;
    if (!v || !table) return;
    sessionStorage.removeItem(`xeri.playing.${tableId}`); // its end is seen: a reload shows the result alone
    const last = s.history[s.history.length - 1];
    const byRounds = Boolean(table.ruleset && table.ruleset.match_end === "rounds");
    const next = this.endDialogActions().map(({ label, cls, onClick }, i) =>
      h(`button${i ? "" : ".primary"}${cls ? "." + cls : ""}`, {
        type: "button",
        onclick: () => onClick && onClick(close),
      }, label),
    );
    // A rated match: the player's rating before and after it (ratingsview.js).
    const [fmt, me] = [table.rated, account().name];
    const change = fmt && me && s.seat != null ? h("p.rating-change", { role: "status" }) : null;
    if (change && fmt && me) import("../pages/ratingsview.js").then((m) => m.showRatingChange(change, fmt, me));
    const body = h(
      "div",
      matchResult(v, byRounds),
      change,
      h("p.rematch-note", this.rematchNote()),
      h(
        "div.lead-actions",
        next,
        h("button.lobby-btn", { type: "button", onclick: () => { close(); location.hash = "#/"; } }, t("back_lobby")),
      ),
      folded(
        roundsTable(s.history, v.names, v.players, v.sides, v.round_wins),
        last ? breakdownTable(last, v.names, v.players, v.sides) : null,
        last ? fairnessBlock(last, table.ruleset) : null,
        s.commitment
          ? h(
              "p.commitment",
              `${t("match_commitment")}: `,
              h("code", s.commitment),
              h("br"),
              t("commitment_note", { hash: s.commitment }),
            )
          : null,
      ),
    );
    const ended = table.end === "forfeit" ? ` ${t("by_forfeit")}` : "";
    const close = modal(matchHeadline(v, byRounds) + ended, body, [
      { label: t("download_record"), href: api.recordUrl(tableId), download: `xeri-${tableId}.json` },
      { label: t("close"), cls: "close-btn" },
    ], {
      id: "match-dialog",
      onClose: () => {
        this.match = null;
        this.resultShown = true;
        this.hooks.render();
        // What to do next has the focus; an empty hand is not drawn any more.
        const target = this.hooks.resultTarget();
        if (target) target.focus({ preventScroll: true });
      },
    });
    this.match = close;
  }

  /** Close what is open, when the table is left. */
  closeAll() {
    this.disposed = true;
    if (this.round) this.round();
    if (this.match) this.match();
  }
}
