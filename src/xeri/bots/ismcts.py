"""Information-set Monte Carlo tree search (single-observer ISMCTS, Cowling et al. 2012).

Each iteration samples the hidden cards afresh (``Determinizer.sample``), walks
one shared tree whose edges are cards, restricted to the cards the sampled
hands hold (UCB over *availability* counts), adds one node, finishes the
round with a cheap capture-first playout in the lean simulator, and backs up
each side's point margin. Budgets: ``iterations`` and/or ``seconds``.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence

from ..cards import Card
from ..engine import SeatView
from ..events import Event
from ..scoring import margin
from .determinize import Determinizer
from .playouts import offered_playout
from .sim import JACK, SimState

#: Margins are divided by this before UCB, so exploration ``c`` is in sensible units.
REWARD_SCALE = 20.0

#: Playouts take a pile with a Jack when the pile and the Jack are worth this many points.
JACK_MIN = 2


class Node:
    """A tree node: the card ``mover`` played to get here, and its statistics."""

    __slots__ = ("avail", "children", "mover", "total", "visits")

    def __init__(self, mover: int) -> None:
        self.mover = mover
        self.visits = 0
        self.total = 0.0
        self.avail = 1
        self.children: dict[int, Node] = {}


def policy_move(st: SimState, rnd: Callable[[], float], smart: bool = True) -> int:
    """The playout policy's card for the seat to move; it reads only what that seat would know.

    Capture by rank when possible; take a pile worth 2+ points with a Jack;
    otherwise discard (``smart``) a non-Jack of the rank whose copies the seat
    can best account for (shown, or in its own hand), so the fewest are left
    to match it, the fewer points the better; or (not ``smart``) a random card.
    """
    pile = st.pile
    return policy_card(st.hands[st.turn], pile[-1] % 13 if pile else -1, st.pile_val, st.seen, st.rules.values,
                       rnd, smart)


def policy_card(
    hand: Sequence[int],
    top: int,
    pile_val: int,
    seen: Sequence[int],
    values: Sequence[int],
    rnd: Callable[[], float],
    smart: bool = True,
) -> int:
    """``policy_move`` on the parts of a position, for searches that keep no ``SimState`` (``endgame``).

    ``top`` is the top card's rank (-1: an empty pile), ``pile_val`` the pile's points, ``seen`` the cards shown
    per rank. ``rnd`` is called once, only for a discard from two or more cards: where the scan starts, so ties
    go to the first card scanned (``lambda: 0.0``: the hand's order).
    """
    h = hand
    jack = -1
    if top >= 0:
        for c in h:
            r = c % 13
            if r == top:
                return c
            if r == JACK:
                jack = c
        if jack >= 0 and pile_val + values[jack] >= JACK_MIN and len(h) > 1:
            return jack
    m = len(h)
    if m == 1:
        return h[0]
    start = int(rnd() * m)
    if smart:
        best = -1000
        choice = -1
        for i in range(start, start + m):
            c = h[i % m]
            r = c % 13
            if r != JACK:
                # Copies of this rank the seat can account for (shown, or in its own hand), then fewer points.
                k = seen[r] * 8 - values[c]
                for d in h:
                    if d % 13 == r:
                        k += 8
                if k > best:
                    best = k
                    choice = c
        if choice >= 0:
            return choice
    return h[start]


def search_budget(iterations: int | None, seconds: float | None) -> tuple[int | None, float | None]:
    """Check a search's ``iterations=``/``seconds=`` budget; 1,000 iterations when neither is given."""
    if iterations is None and seconds is None:
        iterations = 1000
    if iterations is not None and (not isinstance(iterations, int) or iterations < 1):
        raise ValueError("iterations must be a positive integer")
    if seconds is not None and not (isinstance(seconds, (int, float)) and seconds > 0):
        raise ValueError("seconds must be a positive number")
    return iterations, None if seconds is None else float(seconds)


Playout = Callable[[SimState, Callable[[], float], bool], None]
ROLLOUTS = ("smart", "fast", "compiled")


def rollout_playout(rollout: str) -> tuple[Playout, bool]:
    """The playout function and policy flag for a ``rollout=`` parameter.

    ``compiled`` finishes rounds in the numba simulator (``xeri.fast``, the
    ``fast`` extra): more iterations per second than the Python playout (docs/reference/bots-measurements.md has
    the figures).
    """
    if rollout not in ROLLOUTS:
        raise ValueError(f"rollout must be one of {', '.join(ROLLOUTS)}")
    if rollout == "compiled":
        # Offered by xeri.fast through an entry point: the bots never import the layer above them.
        return offered_playout(rollout), True
    return playout, rollout == "smart"


def playout(st: SimState, rnd: Callable[[], float], smart: bool = True) -> None:
    """Finish the round with every seat following ``policy_move`` (its body ``policy_card``, one call a move)."""
    hands, seen, values, play = st.hands, st.seen, st.rules.values, st.play
    while st.turn >= 0:
        pile = st.pile
        play(policy_card(hands[st.turn], pile[-1] % 13 if pile else -1, st.pile_val, seen, values, rnd, smart))


def rewards(st: SimState) -> list[float]:
    """Per side: its points minus the mean of the other sides', scaled."""
    pts = st.pts
    return [margin(pts, side) / REWARD_SCALE for side in range(len(pts))]


class SearchStats:
    """What the last search did: for benchmarks and reports."""

    __slots__ = ("cpu_seconds", "iterations", "seconds")

    def __init__(self) -> None:
        self.iterations = 0
        self.seconds = 0.0
        self.cpu_seconds = 0.0  # this process's CPU time: the one-core speed on a shared machine


def search(
    sample: Callable[[random.Random], SimState],
    legal: Sequence[int],
    rng: random.Random,
    iterations: int | None,
    seconds: float | None,
    c: float,
    stats: SearchStats | None = None,
    smart: bool = True,
    policy_side: int = -1,
    play_out: Playout | None = None,
) -> int:
    """Run ISMCTS from the root information set and return the most visited legal card.

    With ``policy_side`` >= 0, only that side's moves are searched in the tree; the
    other sides play the playout policy there too (an open-loop tree over our own
    moves), so the tree cannot teach opponents the cards we really hold.
    """
    start = time.perf_counter()
    cpu = time.process_time()
    deadline = None if seconds is None else start + seconds
    limit = iterations if iterations is not None else 1 << 62
    root = Node(-1)
    sides = 0
    rnd = rng.random
    log = math.log
    sqrt = math.sqrt
    done = 0
    while done < limit:
        st = sample(rng)
        if not sides:
            sides = st.rules.sides
        node = root
        path = [root]
        while st.turn >= 0:
            if policy_side >= 0 and st.turn % sides != policy_side:
                st.play(policy_move(st, rnd, smart))
                continue
            hand = st.hands[st.turn]
            children = node.children
            untried = None
            best = None
            best_score = -1e300
            for card in hand:
                child = children.get(card)
                if child is None:
                    if untried is None:
                        untried = [card]
                    else:
                        untried.append(card)
                    continue
                child.avail += 1
                if untried is None:
                    v = child.visits
                    score = child.total / v + c * sqrt(log(child.avail) / v)
                    if score > best_score:
                        best_score = score
                        best = card
            if untried is not None:
                card = untried[int(rnd() * len(untried))]
                child = Node(st.turn)
                children[card] = child
                st.play(card)
                path.append(child)
                break
            assert best is not None
            node = children[best]
            st.play(best)
            path.append(node)
        if st.turn >= 0:
            (play_out or playout)(st, rnd, smart)
        reward = rewards(st)
        for n in path:
            n.visits += 1
            if n.mover >= 0:
                n.total += reward[n.mover % sides]
        done += 1
        if deadline is not None and not done & 15 and time.perf_counter() >= deadline:
            break
    if stats is not None:
        stats.iterations = done
        stats.seconds = time.perf_counter() - start
        stats.cpu_seconds = time.process_time() - cpu
    kids = root.children
    return max(legal, key=lambda card: (kids[card].visits, kids[card].total) if card in kids else (-1, 0.0))


class IsmctsBot:
    """ISMCTS over the seat's information set. Stops at ``iterations`` or ``seconds``, whichever is first."""

    name = "ismcts"

    def __init__(
        self,
        seed: int | None = None,
        iterations: int | None = None,
        seconds: float | None = None,
        c: float = 0.7,
        rollout: str = "smart",
        opponents: str = "tree",
    ) -> None:
        iterations, seconds = search_budget(iterations, seconds)
        if not isinstance(c, (int, float)) or c < 0:
            raise ValueError("c must be a non-negative number")
        self.iterations, self.seconds = iterations, seconds
        self.play_out, self.smart = rollout_playout(rollout)
        if opponents not in ("tree", "policy"):
            raise ValueError("opponents must be tree or policy")
        self.opponents = opponents
        self.c = float(c)
        self._rng = random.Random(seed)
        self.stats = SearchStats()

    def choose(self, view: SeatView, history: Sequence[Event]) -> Card:
        legal = view.legal_moves
        if len(legal) == 1:
            return legal[0]
        det = Determinizer(view, history)
        best = search(
            det.sample, [c.index for c in legal], self._rng, self.iterations, self.seconds, self.c, self.stats,
            self.smart, view.seat % view.ruleset.sides if self.opponents == "policy" and view.seat is not None else -1,
            self.play_out,
        )
        return Card.from_index(best)


class PlayoutBot:
    """The playout policy as a bot: how strong the search's model of everyone's play is on its own."""

    name = "playout"

    def __init__(self, seed: int | None = None, rollout: str = "smart") -> None:
        if rollout not in ("smart", "fast"):
            raise ValueError("rollout must be smart or fast")
        self.smart = rollout == "smart"
        self._rng = random.Random(seed)

    def choose(self, view: SeatView, history: Sequence[Event]) -> Card:
        legal = view.legal_moves
        if len(legal) == 1:
            return legal[0]
        st = Determinizer(view, history).sample(self._rng)
        return Card.from_index(policy_move(st, self._rng.random, self.smart))
