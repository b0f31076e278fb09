// @ts-check
// The frames of a server's update: what the board shows while each of its motions plays, so that the table moves
// in a real table's order (issue 39). A capture: the card flies while the pile is still drawn, lands on it, a beat,
// then the pile sweeps into the taker's stack and the counts change when it arrives. A deal: the talon shuffled,
// the pile laid, the hands dealt hidden until their cards land. Pure, like the reducer (state.js) that calls it:
// views in, views out; the storyboard (storyboard.js) plays each frame's motion and the queue (queue.js) draws.

/** @typedef {import("../net/types.js").View} View */
/** @typedef {import("../net/types.js").GameEvent} GameEvent */

/**
 * One motion of the storyboard, played over its frame's view.
 * - play: `card` flies from `seat` to the top of the pile (the pile is drawn without it until it lands);
 * - hold: the card lies on the pile a short beat before the sweep; `glow` when the capture is a xeri;
 * - sweep: the pile's `count` cards fly into `side`'s stack (drawn with its old count until they arrive);
 * - xeri: the celebration, and `points` flying to the side's score;
 * - shuffle: the talon is shuffled at a round's first deal;
 * - deal: the pile's cards (`pile`, at a round's start; `slipped` jacks laid last and slipped under) and then the
 *   hands, round the table from the dealer's left; everything dealt is drawn hidden until its card lands;
 * - round: the round is over (its sound; a celebration still up is cleared).
 * @typedef {{ kind: "play", seat: number, card: string, takes: boolean }
 *   | { kind: "hold", glow: boolean }
 *   | { kind: "sweep", seat: number, side: number, count: number, leftover: boolean }
 *   | { kind: "xeri", seat: number, side: number, card: string, jack: boolean, points: number }
 *   | { kind: "shuffle" }
 *   | { kind: "deal", dealer: number, sizes: number[], pile: number, slipped: number, faceDown: number[] }
 *   | { kind: "round" }} Motion
 */

/**
 * A frame: the view drawn while `motion` plays; `dealing` draws the dealt cards hidden (the pile's too when
 * `pile`), each shown as its card lands.
 * @typedef {{ view: View, motion: Motion, dealing: null | { pile: boolean } }} Frame
 */

/**
 * @param {number[]} list
 * @param {number} i
 * @param {number} by
 * @returns {number[]}
 */
function bump(list, i, by) {
  const out = [...list];
  out[i] = Math.max(0, (out[i] || 0) + by);
  return out;
}

/**
 * A fresh round's table before anything is dealt: every card in the talon.
 * @param {View} view
 * @param {{ number: number, dealer: number }} round
 * @returns {View}
 */
function freshRound(view, round) {
  const zeros = Array.from({ length: view.players }, () => 0);
  const sides = Array.from({ length: view.sides }, () => 0);
  return {
    ...view, dealer: round.dealer, round_number: round.number, turn: null, hand: [], legal_moves: [], pile: [],
    top: null, hand_counts: zeros, talon_count: 52, captured_counts: sides, xeris: sides.map(() => []),
    points: sides, exposed: null, over: false, match_over: false, winner: null,
  };
}

/**
 * The frames of an update's `events`, from the view before it (`prev`) to the view after (`next`). Events that
 * move nothing give no frame; what they change shows with the next frame or the final draw.
 * @param {View | null} prev the view shown before the update (null: the first sync)
 * @param {GameEvent[]} events
 * @param {View} next
 * @returns {Frame[]}
 */
export function framesOf(prev, events, next) {
  /** @type {Frame[]} */
  const frames = [];
  let v = prev || next;
  const me = next.seat;
  const sides = next.sides || 1;
  let slipped = 0;
  events.forEach((ev, i) => {
    switch (ev.kind) {
      case "played": {
        const following = events[i + 1];
        const takes = Boolean(following && following.kind === "captured" && !following.leftover &&
          following.seat === ev.seat);
        const flying = {
          ...v,
          hand: ev.seat === me ? v.hand.filter((c) => c !== ev.card) : v.hand,
          legal_moves: [],
          hand_counts: bump(v.hand_counts || [], ev.seat, -1),
          // The seat that plays keeps the turn while its card flies: nobody else's turn shows before it lands.
          turn: ev.seat,
        };
        frames.push({ view: flying, motion: { kind: "play", seat: ev.seat, card: ev.card, takes }, dealing: null });
        v = { ...flying, pile: [...(v.pile || []), ev.card], top: ev.card };
        break;
      }
      case "captured": {
        const side = ev.seat % sides;
        const count = (v.pile || []).length || ev.cards.length + (ev.hidden_count || 0);
        if (!ev.leftover) {
          const xeri = events.slice(i + 1).some((e) => e.kind === "xeri" && e.seat === ev.seat);
          frames.push({ view: v, motion: { kind: "hold", glow: xeri }, dealing: null });
        }
        const swept = { ...v, pile: [], top: null };
        frames.push({
          view: swept, motion: { kind: "sweep", seat: ev.seat, side, count, leftover: ev.leftover }, dealing: null,
        });
        const taken = ev.cards.length + (ev.hidden_count || 0);
        v = { ...swept, captured_counts: bump(v.captured_counts || [], side, taken) };
        break;
      }
      case "xeri": {
        const side = ev.seat % sides;
        const xeris = (v.xeris || []).map((x, s) => (s === side ? [...x, /** @type {[string, boolean]} */ (
          [ev.card, ev.jack])] : x));
        v = { ...v, xeris };
        frames.push({
          view: v, motion: { kind: "xeri", seat: ev.seat, side, card: ev.card, jack: ev.jack, points: ev.points },
          dealing: null,
        });
        break;
      }
      case "round_started":
        v = freshRound(next, ev);
        slipped = 0;
        break;
      case "jack_slipped":
        slipped += 1;
        break;
      case "dealt": {
        const sizes = ev.sizes || [];
        const dealt = sizes.reduce((a, b) => a + b, 0);
        const pile = ev.pile || [];
        const before = {
          ...v, turn: null, legal_moves: [], hand: [], hand_counts: (v.hand_counts || []).map(() => 0),
          pile: pile.length ? [] : v.pile, top: pile.length ? null : v.top,
          talon_count: (ev.talon || 0) + dealt + pile.length,
        };
        if (ev.first) frames.push({ view: before, motion: { kind: "shuffle" }, dealing: null });
        const mine = me != null ? ev.hands[me] : null;
        const after = {
          ...before, hand: mine || (me != null ? next.hand : []), hand_counts: sizes,
          pile: pile.length ? pile : before.pile, top: pile.length ? pile[pile.length - 1] : before.top,
          talon_count: ev.talon,
        };
        frames.push({
          view: after,
          motion: {
            kind: "deal", dealer: ev.dealer, sizes, pile: pile.length, slipped: Math.min(slipped, pile.length),
            faceDown: ev.face_down || [],
          },
          dealing: { pile: pile.length > 0 },
        });
        v = after;
        slipped = 0;
        break;
      }
      case "round_scored": {
        const points = Array.from({ length: sides }, () => 0);
        for (const s of ev.scores || []) points[s.side] = s.total;
        v = { ...v, over: true, turn: null, legal_moves: [], points };
        frames.push({ view: v, motion: { kind: "round" }, dealing: null });
        break;
      }
      default:
        break;
    }
  });
  return frames;
}

/**
 * The table at a round's end, for an update that ends a round and starts the next: what stays drawn behind the
 * round's screen until it is closed (the next round's deal waits). `prev` is the view before the update.
 * @param {View | null} prev
 * @param {GameEvent[]} events the update's events up to the round's end
 * @param {View} next the view after the whole update (its match scores already count the round)
 * @returns {View}
 */
export function roundEndView(prev, events, next) {
  const frames = framesOf(prev, events, next);
  const last = frames.length ? frames[frames.length - 1].view : prev || next;
  return {
    ...last, over: true, turn: null, legal_moves: [], hand: [], pile: [], top: null,
    match_scores: next.match_scores, round_wins: next.round_wins, talon_count: 0,
  };
}

/**
 * Where an update that ends a round and deals the next splits: the index of its first event after the round's end
 * (the next round's `round_started`), or -1 when it does not start a new round.
 * @param {GameEvent[]} events
 * @returns {number}
 */
export function roundSplit(events) {
  const scored = events.findIndex((e) => e.kind === "round_scored");
  if (scored < 0) return -1;
  return events.findIndex((e, i) => i > scored && e.kind === "round_started");
}

/**
 * Whether a first sync's events are a round's opening (dealt, and this page's seat has not played since; a
 * spectator: nobody has): its deal is then shown, and the cards the others led before the page connected (a
 * computer leads at once, often before a slow page's socket opens) after it.
 * @param {GameEvent[]} events
 * @param {number | null} [seat] this page's seat
 * @returns {boolean}
 */
export function isOpening(events, seat = null) {
  const start = events.map((e) => e.kind).lastIndexOf("round_started");
  return start >= 0 && events.slice(start).some((e) => e.kind === "dealt") &&
    !events.slice(start).some((e) => e.kind === "played" && (seat == null || e.seat === seat));
}
