// The table's draw queue (src/xeri/web/js/table/queue.js), run by node's own test runner with stand-ins for the
// board, the storyboard and the dialogs' gate: what it draws, in which order, and when its hooks run.
import assert from "node:assert/strict";
import { test } from "node:test";

import { DrawQueue } from "../../../src/xeri/web/js/table/queue.js";
import { myTurn } from "../../../src/xeri/web/js/table/state.js";
import { captureUpdate, dealt, sync, update } from "./fixtures.mjs";

/**
 * A queue over stand-ins that write down, in order, every draw (the pile's size, a deal's hidden cards, whether
 * this page may play), every motion and every `after`. Each motion waits for the test to let it end, unless
 * `instant`.
 */
function harness({ instant = true, still = false } = {}) {
  const log = [];
  /** @type {(() => void)[]} */
  const running = [];
  let gateOpen = Promise.resolve();
  const hooks = {
    root: { dataset: {} },
    render: () => {
      const s = queue.shown;
      log.push(["draw", (s.view && s.view.pile.length) ?? null, s.dealing ? "hidden" : "", myTurn(s)]);
    },
    gate: () => gateOpen,
    after: (step) => log.push(["after", step.events.map((e) => e.kind).join(",")]),
    say: () => {},
    story: {
      snapshot: () => ({}),
      playFrame: (_root, _before, m) => {
        log.push(["motion", m.kind]);
        return instant ? Promise.resolve() : new Promise((resolve) => running.push(resolve));
      },
      tell: (m) => log.push(["told", m.kind]),
      settle: () => {},
      still: () => still,
      moving: () => {},
    },
  };
  const queue = new DrawQueue(hooks);
  return {
    queue, log, running,
    /** Close the gate until the returned function is called (a round dialog open). */
    closeGate() {
      let open = () => {};
      gateOpen = new Promise((resolve) => (open = resolve));
      return () => open();
    },
  };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

test("a capture is drawn frame by frame, and `after` and `idle` only once the last card has landed", async () => {
  const { queue, log, running } = harness({ instant: false });
  queue.dispatch(sync());
  await queue.idle();
  log.length = 0;
  queue.dispatch(captureUpdate());
  let idle = false;
  void queue.idle().then(() => (idle = true));
  const expected = [["play", 5], ["hold", 6], ["sweep", 0]];
  for (const [kind, pile] of expected) {
    await tick();
    assert.deepEqual(log.slice(-2), [["draw", pile, "", false], ["motion", kind]]);
    assert.equal(idle, false);
    assert.ok(!log.some((l) => l[0] === "after"), "no after() while a card flies");
    running.shift()();
  }
  await queue.idle();
  assert.deepEqual(log.slice(-2), [["draw", 0, "", false], ["after", "played,captured"]]);
  assert.equal(idle, true);
});

test("your turn is drawn only after the opponent's card has landed", async () => {
  const { queue, log, running } = harness({ instant: false });
  queue.dispatch(sync({ turn: 1, legal_moves: [] }));
  await queue.idle();
  log.length = 0;
  queue.dispatch(update([{ kind: "played", seat: 1, card: "4D" }], { pile: ["2C", "8H", "KD", "5S", "TH", "4D"] }));
  await tick();
  assert.equal(myTurn(queue.state), true); // the latest state, for decisions
  assert.deepEqual(log, [["draw", 5, "", false], ["motion", "play"]]);
  assert.equal(queue.busy, true); // a click now is kept (the controller plays it once it may)
  running.shift()();
  await queue.idle();
  assert.deepEqual(log.at(-2), ["draw", 6, "", true]);
});

test("a new hand is drawn hidden while it is dealt", async () => {
  const { queue, log } = harness();
  queue.dispatch(sync({ hand: [], legal_moves: [], hand_counts: [0, 0], turn: null }));
  await queue.idle();
  log.length = 0;
  const hand = ["2D", "5C", "9S", "KH"];
  queue.dispatch(update([dealt(hand)], { hand, legal_moves: hand, hand_counts: [4, 4] }));
  await queue.idle();
  assert.deepEqual(log, [["draw", 5, "hidden", false], ["motion", "deal"], ["draw", 5, "", true], ["after", "dealt"]]);
});

test("the next round's deal waits for the round's screen to close", async () => {
  const { queue, log, closeGate } = harness();
  queue.dispatch(sync({ hand: ["JD"], legal_moves: ["JD"], hand_counts: [1, 0], talon_count: 0 }));
  await queue.idle();
  log.length = 0;
  const hand = ["9D", "6D", "KH", "QS", "8C", "TD"];
  const events = [{ kind: "played", seat: 0, card: "JD" }, { kind: "round_scored", scores: [] },
    { kind: "round_started", number: 2, dealer: 0 }, dealt(hand, { first: true, pile: ["2D", "2S", "QC", "5H"] })];
  // The round's screen opens in after(): the gate is closed from then on.
  let open = () => {};
  const after = queue.hooks.after;
  queue.hooks.after = (step) => {
    after(step);
    if (step.events.some((e) => e.kind === "round_scored")) open = closeGate();
  };
  queue.dispatch(update(events, { hand, round_number: 2, pile: ["2D", "2S", "QC", "5H"], hand_counts: [6, 6] }));
  await tick();
  await tick();
  assert.deepEqual(log.filter((l) => l[0] === "motion").map((l) => l[1]), ["play", "round"]);
  assert.deepEqual(log.at(-1), ["after", "played,round_scored"]);
  assert.equal(queue.shown.view.round_number, 1); // the table at the round's end stays behind the screen
  open();
  await queue.idle();
  assert.deepEqual(log.filter((l) => l[0] === "motion").map((l) => l[1]), ["play", "round", "shuffle", "deal"]);
  assert.equal(queue.shown.view.round_number, 2);
});

test("this page's card flies at once, and the server's answer does not fly it again", async () => {
  const { queue, log } = harness();
  queue.dispatch(sync());
  await queue.idle();
  log.length = 0;
  queue.dispatch({ type: "sent", move: { type: "move", card: "TC", version: 10 } }, { from: null });
  // At once, in the same task: the card has left the hand and flies.
  assert.deepEqual(log, [["draw", 5, "", false], ["motion", "play"]]);
  assert.ok(!queue.shown.view.hand.includes("TC"));
  await queue.idle();
  assert.deepEqual(log.at(-1), ["draw", 6, "", false]); // it lies on the pile until the server answers
  log.length = 0;
  queue.dispatch(captureUpdate());
  await queue.idle();
  assert.deepEqual(log.filter((l) => l[0] === "motion").map((l) => l[1]), ["hold", "sweep"]);
});

test("a refused card goes back to the hand", async () => {
  const { queue } = harness();
  queue.dispatch(sync());
  await queue.idle();
  queue.dispatch({ type: "sent", move: { type: "move", card: "TC", version: 10 } });
  await queue.idle();
  queue.dispatch({ type: "error", code: "stale", message: "" });
  await queue.idle();
  assert.ok(queue.shown.view.hand.includes("TC"));
  assert.equal(queue.flown, null);
});

test("motion off: no frame is drawn, each says its sound, the state is drawn at once", async () => {
  const { queue, log } = harness({ still: true });
  queue.dispatch(sync());
  await queue.idle();
  log.length = 0;
  queue.dispatch(captureUpdate());
  await queue.idle();
  assert.deepEqual(log, [["told", "play"], ["told", "hold"], ["told", "sweep"], ["draw", 0, "", false],
    ["after", "played,captured"]]);
});
