// @ts-check
// The table's draw queue: the latest state, which every decision reads, and the state the board shows, behind it
// while the motion plays. Every server message and every act of the page goes through the reducer (state.js); the
// server's steps are drawn in order, each through its frames (frames.js: the pile still drawn while the capturing
// card flies, the hand hidden until it is dealt), each frame's motion (storyboard.js) played before the next is
// drawn, and the step's own state drawn last. The next round's steps wait behind an open round dialog. This page's
// own card flies at once, from its slot or from where it was dropped, and the server's answer does not fly it again.
//
// The contract the dialogs rely on: `after(step)` runs once a step's every frame has played and its state is
// drawn, so a round's screen or a match's result never shows under a card still in flight; `idle()` resolves once
// nothing is queued or moving.
//
// It touches no DOM itself: the storyboard, the draw and the live region come in as hooks (the node tests in
// tests/web/js give stand-ins).

import { initialState, myTurn, reduce } from "./state.js";

/** @typedef {import("./state.js").TableState} TableState */
/** @typedef {import("./state.js").Step} Step */
/** @typedef {import("./frames.js").Motion} Motion */
/** @typedef {import("../lib/flight.js").Rect} Rect */
/** @typedef {import("../net/types.js").ServerMessage | import("./state.js").LocalAction} Message */

/**
 * The motion the queue plays: storyboard.js's functions, or a test's stand-ins.
 * @typedef {object} Story
 * @property {(root: HTMLElement) => any} snapshot where the cards are on the board now
 * @property {(root: HTMLElement, before: any, motion: Motion, ctx: import("./storyboard.js").StoryContext)
 *   => Promise<void>} playFrame a frame's motion, over the board just drawn
 * @property {(motion: Motion, ctx: import("./storyboard.js").StoryContext) => void} tell a frame's sound and
 *   banner alone, when nothing may move
 * @property {(events: import("../net/types.js").GameEvent[], turn: { myTurnNow: boolean, myTurnBefore: boolean })
 *   => void} settle the sounds that follow a step's last frame
 * @property {() => boolean} still nothing may move now (motion off, or a dialog open): states are drawn at once
 * @property {(on: boolean) => void} moving a step's motion starts (true) or ends (false)
 */

/**
 * What the queue asks of the controller.
 * @typedef {object} QueueHooks
 * @property {HTMLElement} root the table's element, where the board is drawn
 * @property {() => void} render draws `shown`
 * @property {() => Promise<void>} gate resolves once the next round's moves may be drawn (no round dialog open)
 * @property {(step: Step) => void} after what follows a step once all its motion has played and its state is drawn
 * @property {Story} story
 * @property {(line: string) => void} say a line of the move log, to the live region
 */

/** @typedef {{ step: Step } | { own: string, from: Rect | null }} Entry */

/**
 * A seat's name in `s`.
 * @param {TableState} s
 * @param {number} seat
 */
function nameIn(s, seat) {
  return ((s.view && s.view.names) || [])[seat] || `${seat + 1}`;
}

export class DrawQueue {
  /** @param {QueueHooks} hooks */
  constructor(hooks) {
    this.hooks = hooks;
    /** The latest state: what every decision reads. */
    this.state = initialState();
    /** What the board shows now: behind `state` while the motion plays. */
    this.shown = this.state;
    /** @type {Entry[]} */
    this.entries = [];
    this.drawing = false;
    this.disposed = false;
    /** This page's card already flown to the pile, whose play in the server's answer is not flown again. */
    this.flown = /** @type {string | null} */ (null);
    /** @type {(() => void)[]} */
    this.waiting = [];
  }

  /** Whether anything is queued or moving: a click now is kept (the controller plays it once it can). */
  get busy() {
    return this.drawing || this.entries.length > 0;
  }

  /**
   * Resolves once nothing is queued or moving (at once when nothing is).
   * @returns {Promise<void>}
   */
  idle() {
    if (!this.busy) return Promise.resolve();
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  /**
   * The table as the HTTP API gave it, before any socket message: drawn as is.
   * @param {import("../net/types.js").Table} table
   */
  setTable(table) {
    this.state = { ...this.state, table };
    this.shown = this.state;
  }

  /**
   * @param {Message} msg
   * @param {{ from?: Rect | null }} [options] from: where this page's card sets off (a card dropped on the felt)
   */
  dispatch(msg, { from = null } = {}) {
    const step = reduce(this.state, msg, performance.now());
    this.state = step.state;
    if (step.kind === "local") {
      // This page's card flies at once (after what already moves); its other acts show at once.
      if (msg.type === "sent") {
        this.entries.push({ own: msg.move.card, from });
        void this.pump();
        return;
      }
      this.shown = this.latest(this.shown);
      this.hooks.render();
      return;
    }
    if (step.before) this.entries.push({ step: step.before });
    this.entries.push({ step });
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

  /**
   * @param {TableState} s
   * @param {Rect | null} [from]
   * @returns {import("./storyboard.js").StoryContext}
   */
  context(s, from = null) {
    return { me: s.seat, nameOf: (seat) => nameIn(s, seat), from };
  }

  /** Draw the entries in order: each step's frames with their motion, then its state. */
  async pump() {
    if (this.drawing) return;
    this.drawing = true;
    try {
      while (this.entries.length && !this.disposed) {
        const entry = /** @type {Entry} */ (this.entries.shift());
        try {
          if ("own" in entry) await this.playOwn(entry.own, entry.from);
          else await this.drawStep(entry.step);
        } catch (err) {
          console.error(err);
        }
      }
    } finally {
      this.drawing = false;
      if (!this.entries.length) for (const resolve of this.waiting.splice(0)) resolve();
    }
  }

  /**
   * This page's card, sent: it leaves the hand at once and flies to the pile, where it waits for the server.
   * @param {string} card
   * @param {Rect | null} from
   */
  async playOwn(card, from) {
    const { root, render, story } = this.hooks;
    const s = this.shown;
    const v = s.view;
    const me = s.seat;
    if (!v || me == null || !v.hand.includes(card) || story.still()) {
      this.shown = this.latest(this.shown);
      render();
      return;
    }
    const counts = [...(v.hand_counts || [])];
    counts[me] = Math.max(0, (counts[me] || 0) - 1);
    const flying = { ...v, hand: v.hand.filter((c) => c !== card), legal_moves: [], hand_counts: counts };
    const before = story.snapshot(root);
    this.shown = { ...s, pending: true, hint: null, view: flying };
    render();
    root.dataset.moving = "true";
    try {
      await story.playFrame(root, before, { kind: "play", seat: me, card, takes: false }, this.context(s, from));
    } finally {
      delete root.dataset.moving;
    }
    if (this.disposed) return;
    this.flown = card;
    // Landed: it lies on the pile until the server's answer is drawn (or a refusal puts it back in the hand).
    const state = this.state;
    this.shown = state.pending
      ? { ...this.shown, view: { ...flying, pile: [...(v.pile || []), card], top: card } }
      : this.latest(this.shown);
    render();
  }

  /**
   * A step: its frames, each frame's motion, then its state; then the step's `after`.
   * @param {Step} step
   */
  async drawStep(step) {
    const { root, render, gate, after, story, say } = this.hooks;
    // Nothing is drawn behind an open round dialog: the next round's moves wait until it is closed.
    if (step.kind === "update") await gate();
    if (this.disposed) return;
    const was = myTurn(this.shown);
    for (const line of step.said) say(line);
    const frames = step.frames || [];
    const me = step.state.seat;
    const ctx = this.context(step.state);
    const flown = this.flown;
    // A table's or a hint's message leaves this page's card where it lies; the server's answer takes it from there.
    const keep = Boolean(flown) && this.state.pending && (step.kind === "table" || step.kind === "hint");
    if (!keep) this.flown = null;
    root.dataset.moving = "true";
    story.moving(true);
    try {
      for (const frame of frames) {
        if (this.disposed) return;
        const m = frame.motion;
        // This page's card has flown already (playOwn): drawn on the pile, it does not fly again.
        if (m.kind === "play" && m.seat === me && m.card === flown) continue;
        if (story.still()) {
          story.tell(m, ctx);
          continue;
        }
        const before = story.snapshot(root);
        // While it moves it is nobody's turn on this page: the turn shows once the last card has landed.
        this.shown = {
          ...step.state, view: frame.view, dealing: frame.dealing, hint: null,
          pending: me != null && frame.view.turn === me,
        };
        render();
        await story.playFrame(root, before, m, ctx);
      }
      if (this.disposed) return;
      this.shown = keep ? { ...this.latest(step.state), view: this.shown.view } : this.latest(step.state);
      render();
    } finally {
      story.moving(false);
      delete root.dataset.moving;
    }
    // The sounds of a move or a deal, not of a resync that draws the table as it is.
    if (step.kind === "update" || frames.length)
      story.settle(step.events, { myTurnNow: myTurn(this.shown), myTurnBefore: was });
    after(step);
  }
}
