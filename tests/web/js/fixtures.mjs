// Views and messages for the node unit tests of the table's reducer and draw queue (issue 39): a 2-player round,
// this page at seat 0, the same as tests/support/table_script.py's scripted socket.

/** @returns {any} */
export function view(kw = {}) {
  return {
    seat: 0, players: 2, sides: 2, dealer: 1, turn: 0,
    hand: ["3D", "7S", "9H", "TC"], legal_moves: ["3D", "7S", "9H", "TC"],
    pile: ["2C", "8H", "KD", "5S", "TH"], top: "TH", hand_counts: [4, 4], talon_count: 30,
    captured_counts: [8, 4], xeris: [[], []], points: [1, 1], exposed: null, exposed_holder: null,
    last_capturer: null, played: [], gone: [], over: false, match_over: false, winner: null,
    match_scores: [0, 0], round_wins: [0, 0], round_number: 1, target: null, names: ["Maria", "Bot"],
    ...kw,
  };
}

export function table() {
  return {
    id: "t1", title: "", status: "playing", players: 2, free_seats: [], turn_timer: null, private: false,
    version: 10, ruleset: { name: "classic", match_end: "rounds", players: 2, rounds: 5, target: null },
    seats: [0, 1].map((s) => ({ seat: s, side: s, name: s ? null : "Maria", bot: s ? "medium" : null,
      human: !s, taken: true, connected: true, away: false })),
  };
}

export function sync(kw = {}, events = []) {
  return { type: "sync", table: table(), seat: 0, version: 10, view: view(kw), events, history: [],
    fairness: { match_commitment: "ab" }, timer: null, pause: null };
}

export const CAPTURE = [
  { kind: "played", seat: 0, card: "TC" },
  { kind: "captured", seat: 0, cards: ["2C", "8H", "KD", "5S", "TH", "TC"], hidden_count: 0, leftover: false },
];

export function update(events, kw = {}, version = 11, extra = {}) {
  return { type: "update", version, events, view: view(kw), timer: null, pause: null, ...extra };
}

export function captureUpdate() {
  return update(CAPTURE, { hand: ["3D", "7S", "9H"], legal_moves: [], turn: 1, pile: [], top: null,
    hand_counts: [3, 4], captured_counts: [14, 4], points: [3, 1] });
}

export function dealt(hand, { first = false, pile = [], dealer = 1 } = {}) {
  return { kind: "dealt", dealer, hands: [hand, null], sizes: [hand.length, hand.length], pile, talon: 10, first,
    face_down: [] };
}

/** Every object reachable from `x` frozen: a reducer that changes its input throws. */
export function deepFreeze(x) {
  if (x && typeof x === "object" && !Object.isFrozen(x)) {
    Object.freeze(x);
    for (const v of Object.values(x)) deepFreeze(v);
  }
  return x;
}
