// @ts-check
// The table's draw queue: the latest state, which every decision reads, and the state the board shows, a step
// behind while an animation plays. Every server message and every act of the page goes through the reducer
// (tablestate.js); the server's steps are drawn in order, each step's effects (effects.js) playing before the next
// is drawn, and the next round's moves waiting behind an open round dialog. The page's own acts show at once.

import { playEffects, snapshot } from "./storyboard.js";
import { say } from "./movelog.js";
import { initialState, myTurn, reduce } from "./state.js";
import { nameOf } from "./view.js";

/** @typedef {import("./state.js").TableState} TableState */
/** @typedef {import("./state.js").Step} Step */
/** @typedef {import("../net/types.js").ServerMessage | import("./state.js").LocalAction} Message */

/**
 * What the queue asks of the controller.
 * @typedef {object} QueueHooks
 * @property {HTMLElement} root the table's element, where the board is drawn
 * @property {() => void} render draws `shown`
 * @property {() => Promise<void>} gate resolves once the next round's moves may be drawn (no round dialog open)
 * @property {(step: Step) => void} after what follows a step once it is drawn and its effects have played
 */

export class DrawQueue {
  /** @param {QueueHooks} hooks */
  constructor(hooks) {
    this.hooks = hooks;
    /** The latest state: what every decision reads. */
    this.state = initialState();
    /** What the board shows now: a step behind `state` while an animation plays. */
    this.shown = this.state;
    /** @type {Step[]} */
    this.steps = [];
    this.drawing = false;
    this.disposed = false;
  }

  /**
   * The table as the HTTP API gave it, before any socket message: drawn as is.
   * @param {import("../net/types.js").Table} table
   */
  setTable(table) {
    this.state = { ...this.state, table };
    this.shown = this.state;
  }

  /** @param {Message} msg */
  dispatch(msg) {
    const step = reduce(this.state, msg, performance.now());
    this.state = step.state;
    if (step.kind === "local") {
      // The page's own acts (a card sent, a hint cleared) show at once, even while an animation plays.
      this.shown = this.latest(this.shown);
      this.hooks.render();
      return;
    }
    this.steps.push(step);
    void this.pump();
  }

  /**
   * A step's state with the page's own acts since (a move in flight, the hint), once it is the latest version:
   * an older step drawn later must not say "Your turn" again for a card already sent.
   * @param {TableState} s
   * @returns {TableState}
   */
  latest(s) {
    const state = this.state;
    return s.version === state.version && s.view === state.view
      ? { ...s, pending: state.pending, hint: state.hint, outbox: state.outbox, outboxSent: state.outboxSent }
      : s;
  }

  /** Draw the steps in order; an update's effects play before the next step is drawn. */
  async pump() {
    if (this.drawing) return;
    this.drawing = true;
    const { root, render, gate, after } = this.hooks;
    try {
      while (this.steps.length && !this.disposed) {
        const step = /** @type {Step} */ (this.steps.shift());
        // Nothing is drawn behind an open round dialog: the next round's moves wait until it is closed.
        if (step.kind === "update") await gate();
        if (this.disposed) return;
        const before = snapshot(root);
        const was = myTurn(this.shown);
        this.shown = this.latest(step.state);
        render();
        for (const line of step.said) say(line);
        if (step.kind === "update") {
          const shown = this.shown;
          // Marked while the effects play (for a test, or a style), and unmarked whatever happens.
          root.dataset.moving = "true";
          await playEffects(root, before, step.events, {
            me: shown.seat, sides: shown.view ? shown.view.sides : 2, nameOf: (seat) => nameOf(this.shown, seat),
            myTurnNow: myTurn(shown), myTurnBefore: was,
          }).finally(() => delete root.dataset.moving);
        }
        after(step);
      }
    } catch (err) {
      console.error(err);
    } finally {
      this.drawing = false;
    }
  }
}
