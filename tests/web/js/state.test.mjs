// The table's reducer (src/xeri/web/js/table/state.js) and the frames it hands the draw queue (frames.js), run by
// node's own test runner: `node --test tests/web/js/` (tests/web/test_web_node_units.py runs it in the suite).
import assert from "node:assert/strict";
import { test } from "node:test";

import { initialState, myTurn, reduce } from "../../../src/xeri/web/js/table/state.js";
import { captureUpdate, deepFreeze, dealt, sync, update, view } from "./fixtures.mjs";

const synced = () => reduce(initialState(), sync(), 0).state;
const kinds = (step) => (step.frames || []).map((f) => f.motion.kind);

test("a capture: the card flies over the pile still drawn, lands on it, a beat, then the sweep", () => {
  const step = reduce(synced(), captureUpdate(), 1);
  assert.deepEqual(kinds(step), ["play", "hold", "sweep"]);
  const [play, hold, sweep] = step.frames;
  assert.deepEqual(play.view.pile, ["2C", "8H", "KD", "5S", "TH"]); // the pile stays while the card flies
  assert.ok(!play.view.hand.includes("TC"));                        // the card has left the hand
  assert.deepEqual(hold.view.pile, ["2C", "8H", "KD", "5S", "TH", "TC"]); // landed on top of it
  assert.deepEqual(sweep.view.pile, []);
  assert.deepEqual(sweep.view.captured_counts, [8, 4]); // the counts change when the cards arrive
  assert.deepEqual(step.state.view.captured_counts, [14, 4]);
  assert.equal(sweep.motion.count, 6);
  assert.equal(play.motion.takes, true);
});

test("a xeri: the card glows on the pile, is swept, then the celebration", () => {
  const events = [
    { kind: "played", seat: 1, card: "TC" },
    { kind: "captured", seat: 1, cards: ["TH", "TC"], hidden_count: 0, leftover: false },
    { kind: "xeri", seat: 1, card: "TC", jack: false, points: 10 },
  ];
  const step = reduce(reduce(initialState(), sync({ pile: ["TH"], top: "TH", turn: 1 }), 0).state,
    update(events, { pile: [], top: null, xeris: [[], [["TC", false]]] }), 1);
  assert.deepEqual(kinds(step), ["play", "hold", "sweep", "xeri"]);
  assert.equal(step.frames[1].motion.glow, true);
  assert.equal(step.frames[3].motion.points, 10);
  assert.deepEqual(step.frames[2].view.xeris, [[], []]); // the xeri is laid on the stack with its celebration
  assert.deepEqual(step.frames[3].view.xeris, [[], [["TC", false]]]);
});

test("the opponent's card: it is nobody's turn on this page until it has landed", () => {
  const before = reduce(initialState(), sync({ turn: 1, legal_moves: [] }), 0).state;
  const step = reduce(before, update([{ kind: "played", seat: 1, card: "4D" }], { pile: ["4D"], turn: 0 }), 1);
  assert.deepEqual(kinds(step), ["play"]);
  const flying = { ...step.state, view: step.frames[0].view };
  assert.equal(myTurn(flying), false);
  assert.equal(myTurn(step.state), true);
});

test("a new hand mid-round is hidden until dealt: no frame shows it face up", () => {
  const before = reduce(initialState(), sync({ hand: [], legal_moves: [], turn: 1, hand_counts: [0, 1] }), 0).state;
  const hand = ["2D", "5C", "9S", "KH"];
  const step = reduce(before, update([{ kind: "played", seat: 1, card: "AC" }, dealt(hand)],
    { hand, legal_moves: hand, hand_counts: [4, 4], turn: 0, pile: ["2C", "8H", "KD", "5S", "TH", "AC"] }), 1);
  assert.deepEqual(kinds(step), ["play", "deal"]);
  assert.deepEqual(step.frames[0].view.hand, []); // while the last card of the old hands flies
  const deal = step.frames[1];
  assert.deepEqual(deal.view.hand, hand);
  assert.deepEqual(deal.dealing, { pile: false }); // drawn hidden, each card shown as its back lands
  assert.equal(deal.motion.pile, 0);
  assert.deepEqual(deal.motion.sizes, [4, 4]);
  for (const f of step.frames) if (f.view.hand.length) assert.ok(f.dealing, f.motion.kind);
});

test("a round's end and the next round's deal: two steps, the deal after the round's end", () => {
  const before = reduce(initialState(), sync({ hand: ["JD"], legal_moves: ["JD"], pile: ["AD"], top: "AD",
    hand_counts: [1, 0], talon_count: 0 }), 0).state;
  const hand = ["9D", "6D", "KH", "QS", "8C", "TD"];
  const round = { round: 1, scores: [{ side: 0, total: 9, cards: 30 }, { side: 1, total: 2, cards: 22 }] };
  const events = [
    { kind: "played", seat: 0, card: "JD" },
    { kind: "captured", seat: 0, cards: ["AD", "JD"], hidden_count: 0, leftover: false },
    { kind: "round_scored", scores: round.scores },
    { kind: "round_started", number: 2, dealer: 0 },
    { kind: "commitment", commitment: "cd" },
    dealt(hand, { first: true, pile: ["2D", "2S", "QC", "5H"], dealer: 0 }),
  ];
  const msg = update(events, { hand, legal_moves: [], turn: 1, dealer: 0, round_number: 2,
    pile: ["2D", "2S", "QC", "5H"], top: "5H", hand_counts: [6, 6], captured_counts: [0, 0], points: [0, 0],
    match_scores: [9, 2] }, 48, { history: [round] });
  const step = reduce(before, deepFreeze(msg), 1);
  const end = step.before;
  assert.ok(end, "the round's end is a step of its own");
  assert.deepEqual(end.events.map((e) => e.kind), ["played", "captured", "round_scored"]);
  assert.deepEqual(end.frames.map((f) => f.motion.kind), ["play", "hold", "sweep", "round"]);
  assert.equal(end.state.view.over, true);
  assert.equal(end.state.view.round_number, 1);
  assert.deepEqual(end.state.view.hand, []); // the next hand is not behind the round's screen
  assert.deepEqual(end.state.view.match_scores, [9, 2]);
  assert.equal(myTurn(end.state), false);
  assert.deepEqual(step.events.map((e) => e.kind), ["round_started", "commitment", "dealt"]);
  assert.deepEqual(kinds(step), ["shuffle", "deal"]);
  assert.deepEqual(step.frames[0].view.pile, []);   // the talon shuffled, nothing dealt yet
  assert.deepEqual(step.frames[0].view.hand, []);
  assert.equal(step.frames[0].view.talon_count, 10 + 12 + 4);
  assert.deepEqual(step.frames[1].dealing, { pile: true });
  assert.equal(step.state.view.round_number, 2);  // the latest state, for every decision, is the new round's
});

test("the server's own view of the round's end is used when it sends one", () => {
  const events = [{ kind: "round_scored", scores: [] }, { kind: "round_started", number: 2, dealer: 0 }];
  const end = view({ over: true, hand: [], pile: [], turn: null, captured_counts: [27, 25] });
  const step = reduce(synced(), update(events, { round_number: 2 }, 12, { round_end: end }), 1);
  assert.deepEqual(step.before.state.view.captured_counts, [27, 25]);
});

test("the first sync of a round's opening shows its deal; a resync or a sync mid-round does not", () => {
  const hand = ["9D", "6D", "KH", "QS", "8C", "TD"];
  const opening = [{ kind: "round_started", number: 1, dealer: 1 }, { kind: "commitment", commitment: "ab" },
    dealt(hand, { first: true, pile: ["2D", "2S", "QC", "5H"] })];
  const first = reduce(initialState(), sync({ hand }, opening), 0);
  assert.deepEqual(kinds(first), ["shuffle", "deal"]);
  assert.deepEqual(kinds(reduce(first.state, sync({ hand }, opening), 1)), []);
  const midRound = [...opening, { kind: "played", seat: 0, card: "9D" }];
  assert.deepEqual(kinds(reduce(initialState(), sync({ hand }, midRound), 0)), []);
  // The computer led before this page connected (seat 0 has not played yet): the deal, then its card.
  const led = [...opening, { kind: "played", seat: 1, card: "4C" }];
  assert.deepEqual(kinds(reduce(initialState(), sync({ hand }, led), 0)), ["shuffle", "deal", "play"]);
});

test("the reducer is pure: it changes neither the state nor the message", () => {
  const state = deepFreeze(synced());
  const msg = deepFreeze(captureUpdate());
  const a = reduce(state, msg, 5);
  const b = reduce(state, msg, 5);
  assert.deepEqual(a, b);
  assert.deepEqual(reduce(state, deepFreeze({ type: "sent", move: { type: "move", card: "TC", version: 10 } }), 5)
    .state.pending, true);
});

test("a card sent: nobody's turn on this page until the server answers", () => {
  const sent = reduce(synced(), { type: "sent", move: { type: "move", card: "TC", version: 10 } }, 1);
  assert.equal(sent.kind, "local");
  assert.equal(myTurn(sent.state), false);
  assert.equal(myTurn(reduce(sent.state, { type: "error", code: "stale", message: "" }, 2).state), true);
});

test("a rated match ended by a forfeit is over, won by the table's winner, and nobody's turn (issue 42)", () => {
  const msg = sync();
  msg.table = { ...msg.table, status: "finished", rated: "classic-2p", end: "forfeit", winner: 1 };
  const state = reduce(initialState(), msg, 0).state;
  assert.equal(state.view.match_over, true);
  assert.equal(state.view.winner, 1);
  assert.equal(state.view.turn, null);
  assert.equal(myTurn(state), false);
});
