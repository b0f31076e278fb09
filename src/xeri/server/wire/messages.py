"""What the server sends, as schema models: each socket message and each HTTP answer the page reads.

The other half of server.wire.protocol (what clients send). The table's messages
are built as these Structs (server.table.views) and encoded by msgspec as they
are; an HTTP answer is checked against its model on its way out (``answer``).
``python scripts/protocol_schema.py --write`` writes the JSON Schema of both
directions (docs/protocol.schema.json) and the TypeScript declarations that
the page's modules import (src/xeri/web/js/protocol.d.ts); a test keeps both
equal to the models.

A 64-bit seed travels as a string of digits: JSON readers (a browser's) hold
integers exactly only up to 2**53.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

import msgspec
from msgspec import UNSET, Meta, Struct, UnsetType

#: a card code such as "TD"; null where a card is face down
Card = Annotated[str, Meta(description='a card code such as "TD"')]
Seed = Annotated[str, Meta(pattern=r"^[0-9]+$", description="a 64-bit seed, as its decimal digits")]


class Model(Struct, frozen=True, kw_only=True):
    """A message or answer of the server."""


# --- the parts of a table's messages ---------------------------------------------------------


class RuleOptions(Model, frozen=True):
    """Every rule option's value (a preset's ``options``); tests/server/wire/test_server_messages.py keeps the
    fields equal to xeri.rules.OPTIONS."""

    players: int
    hand_size: int
    pile_size: int
    pile_face_down: int
    initial_pile: Literal["redeal", "jack_under", "redeal_any_jack", "keep"]
    jack_xeri_any: bool
    xeri_points: int
    jack_xeri_points: int
    scoring: Literal["xeri", "pisti"]
    two_of_spades: bool
    most_cards_points: int
    exposed_bottom: bool
    last_card_xeri: bool
    match_end: Literal["rounds", "target"]
    rounds: int
    target: int
    tie_rule: Literal["raise", "another_hand", "higher"]


class Ruleset(RuleOptions, frozen=True):
    """A preset with every option (a TABLE's ``ruleset``)."""

    name: str


class TableSeat(Model, frozen=True):
    """One seat of a TABLE."""

    seat: int
    side: int
    name: str | None
    #: the level playing the seat now, null for a person
    bot: str | None
    #: the seat's configured kind
    human: bool
    taken: bool
    connected: bool
    away: bool


class Pause(Model, frozen=True):
    """The seats still reading a round's summary, and the seconds the next round waits for them at most."""

    waiting: list[int]
    remaining: float


class Timer(Model, frozen=True):
    """The seconds before a bot plays for a human seat to move (its turn timer, or its player is away)."""

    seat: int
    remaining: float
    reason: str | None


class RematchState(Model, frozen=True):
    seats: list[int]
    table_id: str | None


class Table(Model, frozen=True):
    """docs/protocol.md's TABLE: public, the same for everyone."""

    id: str
    title: str
    status: Literal["waiting", "playing", "finished", "closed"]
    ruleset: Ruleset
    players: int
    seats: list[TableSeat]
    free_seats: list[int]
    turn_timer: float | None
    takeover_after: float | None
    takeover_level: str
    private: bool
    version: int
    created_at: str | None
    finished_at: str | None
    invite: str
    scores: list[int]
    winner: int | None
    pause: Pause | None
    rematch: RematchState | None
    #: whether the table allows takebacks: a casual game of one person against the computer (docs/play.md)
    takebacks: bool = False
    #: the format the table is rated in, "classic-2p" or "classic-4p" (docs/ratings.md); null: a casual table
    rated: str | None = None
    #: how the match ended when not by its score: "forfeit" (a rated seat left, stayed away or ran out of time:
    #: docs/ratings.md), else null
    end: str | None = None


class View(Model, frozen=True):
    """docs/protocol.md's VIEW: what one seat may see. A replay's STATE adds every hand (``hands``)."""

    seat: int | None
    players: int
    sides: int
    dealer: int
    turn: int | None
    hand: list[Card]
    legal_moves: list[Card]
    #: bottom first; null is face down
    pile: list[Card | None]
    top: Card | None
    hand_counts: list[int]
    talon_count: int
    captured_counts: list[int]
    #: per side: [card, jack on jack]
    xeris: list[list[tuple[Card, bool]]]
    points: list[int]
    exposed: Card | None
    exposed_holder: int | None
    last_capturer: int | None
    played: list[tuple[int, Card]]
    gone: list[Card]
    over: bool
    match_over: bool
    winner: int | None
    match_scores: list[int]
    round_wins: list[int]
    round_number: int
    target: int | None
    names: list[str]
    #: a replay's every hand
    hands: list[list[Card]] | UnsetType = UNSET


class ScoreLine(Model, frozen=True):
    label: str
    points: int
    cards: list[Card]


class Breakdown(Model, frozen=True):
    """One side's score of a round."""

    side: int
    cards: int
    xeris: int
    jack_xeris: int
    lines: list[ScoreLine]
    total: int
    #: every card the side took, by rank then suit: sent only once the round is over (the round's end screen)
    captured: list[Card]


class Round(Model, frozen=True):
    """A finished round (ROUND): its breakdown, totals, and its revealed seed and salt."""

    round: int
    dealer: int
    scores: list[Breakdown]
    totals: list[int]
    commitment: str
    seed: Seed
    salt: str


# --- events: docs/reference/protocol-messages.md's EVENT, told apart by ``kind`` ------------------------------------


class Event(Model, frozen=True, tag_field="kind"):
    """One thing that happened at the table, as the receiving seat may know it."""


class PlayedEvent(Event, frozen=True, tag="played"):
    seat: int
    card: Card


class CapturedEvent(Event, frozen=True, tag="captured"):
    seat: int
    cards: list[Card]
    hidden_count: int
    leftover: bool


class XeriEvent(Event, frozen=True, tag="xeri"):
    seat: int
    card: Card
    jack: bool
    points: int


class DealtEvent(Event, frozen=True, tag="dealt"):
    dealer: int
    #: null for each hand the seat may not see
    hands: list[list[Card] | None]
    sizes: list[int]
    #: null for each card dealt face down
    pile: list[Card | None]
    talon: int
    first: bool
    face_down: list[int]


class RoundStartedEvent(Event, frozen=True, tag="round_started"):
    number: int
    dealer: int


class RoundScoredEvent(Event, frozen=True, tag="round_scored"):
    scores: list[Breakdown]


class MatchOverEvent(Event, frozen=True, tag="match_over"):
    winner: int
    scores: list[int]
    round_wins: list[int]


class PileRedealtEvent(Event, frozen=True, tag="pile_redealt"):
    cards: list[Card]
    reason: str


class JackSlippedEvent(Event, frozen=True, tag="jack_slipped"):
    card: Card


class BottomExposedEvent(Event, frozen=True, tag="bottom_exposed"):
    card: Card


class PileUnclaimedEvent(Event, frozen=True, tag="pile_unclaimed"):
    cards: list[Card]


class ThresholdRaisedEvent(Event, frozen=True, tag="threshold_raised"):
    target: int


class CommitmentEvent(Event, frozen=True, tag="commitment"):
    """A round's commitment, published before its deal."""

    round: int
    commitment: str


class RevealEvent(Event, frozen=True, tag="reveal"):
    """A round's seed and salt, once the round is over."""

    round: int
    dealer: int
    seed: Seed
    salt: str
    commitment: str


class AutoMoveEvent(Event, frozen=True, tag="auto_move"):
    """A bot played the next move for ``seat`` (``reason``: timer, away or left)."""

    seat: int
    reason: str


GameEvent = (PlayedEvent | CapturedEvent | XeriEvent | DealtEvent | RoundStartedEvent | RoundScoredEvent
             | MatchOverEvent | PileRedealtEvent | JackSlippedEvent | BottomExposedEvent | PileUnclaimedEvent
             | ThresholdRaisedEvent | CommitmentEvent | RevealEvent | AutoMoveEvent)


# --- socket messages ---------------------------------------------------------------------


class Message(Model, frozen=True, tag_field="type"):
    """A message on a table's socket."""


class SyncFairness(Model, frozen=True):
    #: shown from the start, before the first deal (null while seats are free)
    match_commitment: str | None


class SyncMessage(Message, frozen=True, tag="sync"):
    """Everything the seat may know of the table now."""

    table: Table
    seat: int | None
    version: int
    view: View | None
    #: the current round's events since its start (or since the last round's score)
    events: list[GameEvent]
    #: every finished round
    history: list[Round]
    fairness: SyncFairness
    timer: Timer | None
    pause: Pause | None
    #: whether this seat may take back its last card now (the page shows its Take back button)
    takeback: bool = False


class UpdateMessage(Message, frozen=True, tag="update"):
    """The table after one move, as the seat may see it."""

    version: int
    events: list[GameEvent]
    view: View
    timer: Timer | None
    pause: Pause | None
    #: after a round's score, every finished round
    history: list[Round] | UnsetType = UNSET
    #: whether this seat may take back its last card now (the page shows its Take back button)
    takeback: bool = False
    #: when this move scored a round and dealt the next: the seat's view of the round as it ended, which the page
    #: draws behind the round's summary (``view`` is the next round's)
    round_end: View | UnsetType = UNSET


class TableMessage(Message, frozen=True, tag="table"):
    """The table changed (a seat taken, a player away or back, the match over, a rematch offered)."""

    table: Table
    timer: Timer | None


class HintMessage(Message, frozen=True, tag="hint"):
    """A suggested card and why: ``code`` and ``params`` let a client word it (xeri.bots.hint)."""

    card: Card
    reason: str
    code: str | UnsetType = UNSET
    params: dict[str, str | int] | UnsetType = UNSET
    ref: str | int | None = None


class RematchMessage(Message, frozen=True, tag="rematch"):
    """The rematch's table, and for a player the token of the same seat there."""

    table_id: str
    seat: int | None
    token: str | None


#: The words about the computer's play (``NoticeMessage``).
Notice = Literal["master_warming", "master_ready", "strong_warming", "strong_ready"]


class NoticeMessage(Message, frozen=True, tag="notice"):
    """A word about the computer's play, sent once each: the master plays by the counting rules while its rollouts
    load (``master_warming``), then at full strength (``master_ready``); the same of the strong level where it
    plays a master, at 3 players (``strong_warming``, ``strong_ready``). The page words it."""

    notice: Notice


#: table talk's preset phrases and emotes, by id: what a ``say`` may name (server.table.talk); the page words them
Phrase = Literal["hello", "good_luck", "well_played", "thanks", "oops", "nice_one", "sorry", "wow",
                 "clap", "laugh", "think", "heart"]


class SaidMessage(Message, frozen=True, tag="said"):
    """Table talk from a seat (a client's ``say``, server.table.talk): a preset ``phrase`` (the page words it) or free
    ``text`` (a private table's), to every connection at the table. Never stored."""

    seat: int
    phrase: Phrase | UnsetType = UNSET
    text: str | UnsetType = UNSET


class PongMessage(Message, frozen=True, tag="pong"):
    ref: str | int | None = None


class ErrorMessage(Message, frozen=True, tag="error", forbid_unknown_fields=False):
    """A refusal; nothing changed. ``retry``: the server's own trouble, try again; ``version``: the table's now."""

    code: str
    message: str
    ref: str | int | None = None
    version: int | UnsetType = UNSET
    retry: bool | UnsetType = UNSET


ServerMessage = (SyncMessage | UpdateMessage | TableMessage | HintMessage | RematchMessage | NoticeMessage | SaidMessage
                 | PongMessage | ErrorMessage)


# --- HTTP answers ----------------------------------------------------------------------------


class PointItem(Model, frozen=True):
    """A preset's point card (or group of cards)."""

    label: str
    points: int
    each: bool


class Preset(Model, frozen=True):
    name: str
    help: str
    options: RuleOptions
    point_items: list[PointItem]


class OptionHelp(Model, frozen=True):
    help: str
    choices: list[Any] | None


class MetaLimits(Model, frozen=True):
    turn_timer: list[float]
    takeover_after: list[float]
    name_length: int
    message_bytes: int


class OfflineMeta(Model, frozen=True):
    """The offline pack this server serves (server.http.offline_pack): the levels it plays, its size and its version."""

    levels: list[str]
    bytes: int
    version: str


class ServerMeta(Model, frozen=True):
    """GET /api/meta."""

    rulesets: list[Preset]
    options: dict[str, OptionHelp]
    levels: list[str]
    version: str
    limits: MetaLimits
    #: null when this server serves no offline pack
    offline: OfflineMeta | None
    #: the target scores a rated match may be played to; null: any match end (server.rated.policy)
    rated_targets: list[int] | None = None


class TableList(Model, frozen=True):
    """GET /api/tables."""

    tables: list[Table]


class Created(Model, frozen=True):
    """POST /api/tables: with ``seat`` and ``token`` when a name was given."""

    table_id: str
    table: Table
    invite: str
    seat: int | UnsetType = UNSET
    token: str | UnsetType = UNSET


class Seated(Model, frozen=True):
    """POST /api/tables/{id}/join."""

    table_id: str
    seat: int
    token: str
    table: Table


class LeftTable(Model, frozen=True):
    """POST /api/tables/{id}/leave."""

    ok: bool
    table: Table


class MatchSummary(Model, frozen=True):
    """A finished match in GET /api/matches."""

    id: str
    title: str
    names: list[str]
    ruleset: Ruleset
    scores: list[int] | None
    winner: int | None
    winners: list[str]
    rounds: int | None
    round_wins: list[int] | None
    bots: list[str | None] | None
    finished_at: str | None
    #: "forfeit" when a rated seat forfeited the match (docs/ratings.md), else null: it ended by its score
    end: str | None = None


class MatchList(Model, frozen=True):
    matches: list[MatchSummary]


class Stats(Model, frozen=True):
    """One person's totals over public finished matches."""

    name: str
    games: int
    wins: int
    points: int
    xeris: int
    jack_xeris: int


class PlayerList(Model, frozen=True):
    players: list[Stats]


class FairnessRound(Model, frozen=True):
    round: int
    dealer: int
    commitment: str
    revealed: bool
    seed: Seed | None
    salt: str | None
    ok: bool | None
    detail: str


class Fairness(Model, frozen=True):
    """GET /api/tables/{id}/fairness."""

    scheme: str
    match_commitment: str | None
    match_seed: Seed | None
    match_salt: str | None
    rounds: list[FairnessRound]


class VerdictRound(Model, frozen=True):
    round: int | None
    ok: bool
    detail: str


class Verdict(Model, frozen=True):
    """POST /api/verify: a whole record (``finished``, ``scheme``, ``binds``) or one round (``deal``)."""

    ok: bool
    detail: str
    rounds: list[VerdictRound]
    finished: bool | UnsetType = UNSET
    scheme: str | UnsetType = UNSET
    #: what the match commitment binds (the scheme's)
    binds: str | UnsetType = UNSET
    deal: dict[str, Any] | UnsetType | None = UNSET


class Step(Model, frozen=True):
    """One step of a replay: a deal or a move, with the whole table after it."""

    round: int
    seat: int | None
    card: Card | None
    events: list[GameEvent]
    state: View
    #: a takeback's step (``card`` null): the cards ``seat`` took back, its own first (docs/record-format.md)
    takeback: list[Card] | UnsetType = UNSET


class Replay(Model, frozen=True):
    """GET /api/matches/{id}/replay: every step of a finished match, every hand shown."""

    id: str | None
    names: list[str]
    bots: list[str | None]
    ruleset: Ruleset
    steps: list[Step]
    #: "forfeit" when a rated seat forfeited the match (the steps stop there: docs/ratings.md), else null
    end: str | None = None


class Effect(Model, frozen=True):
    """What a card does to the pile, as the seat saw it (xeri.review)."""

    kind: str
    cards: int
    points: int
    rank: str
    unseen: int


class ReviewedMove(Model, frozen=True):
    """One reviewed move (``xeri review --json``)."""

    round: int
    #: 1-based within the round
    move: int
    seat: int
    played: Card
    best: Card
    #: each card's expected points
    values: dict[str, float]
    lost: float
    grade: str
    forced: bool
    reason: str
    played_effect: Effect
    best_effect: Effect


class MovePlace(Model, frozen=True):
    round: int
    move: int


class RoundReview(Model, frozen=True):
    number: int
    lost: float
    margin: float | None
    grades: dict[str, int]
    moves: list[ReviewedMove]


class Review(Model, frozen=True):
    """``xeri review --json``'s object."""

    seat: int
    name: str
    side: int
    evaluator: str
    lost: float
    moves_reviewed: int
    costliest: list[MovePlace]
    rounds: list[RoundReview]


class ReviewProgress(Model, frozen=True):
    """GET /api/matches/{id}/review: 202 while it is built, 200 with ``review`` once done."""

    state: Literal["running", "done"]
    done: int
    total: int
    review: Review | UnsetType = UNSET


# --- accounts (server.accounts.service, docs/accounts.md) ------------------------------------------


class Account(Model, frozen=True):
    """GET /api/account (who am I), and the answer of a sign-up, sign-in, sign-out or change."""

    signed_in: bool
    name: str | None = None
    #: the token every POST made with the session cookie sends as X-CSRF-Token
    csrf: str | None = None
    hidden: bool = False


class AccountTable(Model, frozen=True):
    """A table in play (or waiting) where the account holds a seat: it opens from any device."""

    table_id: str
    seat: int
    status: str


class AccountTables(Model, frozen=True):
    """GET /api/account/tables."""

    tables: list[AccountTable]


class Claimed(Model, frozen=True):
    """POST /api/account/claim: the seats now the account's (those already its own, or another's, are left out)."""

    claimed: list[AccountTable]


class ProfileMatch(Model, frozen=True):
    """One of a profile's recent matches, with the player's seat (its replay and review)."""

    seat: int
    match: MatchSummary


class ProfileRating(Model, frozen=True):
    """An account's rating in one rated format (docs/ratings.md): shown as whole points."""

    format: str
    rating: int
    deviation: int
    games: int
    wins: int


class RatingPoint(Model, frozen=True):
    """An account's rating after one rated match (the profile's chart): its time and result, nothing else."""

    format: str
    at: str
    rating: int
    deviation: int
    won: bool


class Profile(Model, frozen=True):
    """GET /api/profiles/{name}: an account's public page."""

    name: str
    created_at: str
    stats: Stats
    matches: list[ProfileMatch]
    #: the ratings per rated format, and the rating after each of its latest rated matches (oldest first)
    ratings: list[ProfileRating] = []
    rating_history: list[RatingPoint] = []


class LeaderboardPlayer(Model, frozen=True):
    """One line of a leaderboard: a name and its rating, nothing that is not on the player's profile."""

    rank: int
    name: str
    rating: int
    deviation: int
    games: int
    wins: int


class Leaderboard(Model, frozen=True):
    """GET /api/leaderboards/{format}: the format's players with enough rated matches and a low enough
    deviation, the highest first (the players who hide themselves left out)."""

    format: str
    formats: list[str]
    min_games: int
    max_deviation: int
    players: list[LeaderboardPlayer]


class SeekState(Model, frozen=True):
    """POST /api/pairing and GET /api/pairing/{seek_id}: waiting in a pool, or paired (the seat is this seeker's
    alone: only the holder of the seek's secret id gets it)."""

    status: Literal["waiting", "paired"]
    seek_id: str | None = None
    format: str | None = None
    rated: bool | None = None
    #: waiting: the players in the pool, this seeker's wait so far, and the median of the pool's recent waits
    players: int | None = None
    waited: float | None = None
    typical_wait: float | None = None
    #: paired: the table, and this seeker's seat and its secret token
    table_id: str | None = None
    seat: int | None = None
    token: str | None = None


class PoolWaiting(Model, frozen=True):
    """One pool of "Play online" and how many wait in it now."""

    format: str
    rated: bool
    waiting: int


class OpenChallenge(Model, frozen=True):
    """One seek waiting in a pool, as the lobby lists it for anyone to accept (by seeking in the same pool). Never
    its seek id (the seat's secret), nor the seeker's browser key or account: only what the seeker shows."""

    format: str
    rated: bool
    #: the name the seeker plays under
    name: str
    #: a rated seek's rating, rounded (a casual one shows none)
    rating: int | None
    #: seconds waited so far
    waited: float


class PairingPools(Model, frozen=True):
    """GET /api/pairing: every pool and how many wait in it (the lobby shows it on the pools' buttons), the open
    challenges (the oldest first, at most 20), the players online (people seated at a table with it open, and
    seekers waiting) and the tables in play: across every process of a cluster."""

    pools: list[PoolWaiting]
    challenges: list[OpenChallenge]
    online: int
    playing: int


class SeekCancelled(Model, frozen=True):
    """DELETE /api/pairing/{seek_id}: ``cancelled`` is false when the seek was not waiting (paired, or gone)."""

    cancelled: bool


#: every HTTP answer the page reads, by its route (the schema's ``answers``)
ANSWERS: dict[str, type[Model]] = {
    "GET /api/meta": ServerMeta,
    "GET /api/tables": TableList,
    "POST /api/tables": Created,
    "GET /api/tables/{id}": Table,
    "POST /api/tables/{id}/join": Seated,
    "POST /api/tables/{id}/leave": LeftTable,
    "GET /api/tables/{id}/fairness": Fairness,
    "GET /api/matches": MatchList,
    "GET /api/matches/{id}/replay": Replay,
    "GET /api/matches/{id}/review": ReviewProgress,
    "GET /api/players": PlayerList,
    "GET /api/players/{name}/stats": Stats,
    "POST /api/verify": Verdict,
    "GET /api/account": Account,
    "POST /api/account/signup": Account,
    "POST /api/account/signin": Account,
    "POST /api/account/signout": Account,
    "POST /api/account/password": Account,
    "POST /api/account/delete": Account,
    "POST /api/account/settings": Account,
    "POST /api/account/claim": Claimed,
    "POST /api/account/leave": LeftTable,
    "GET /api/account/tables": AccountTables,
    "GET /api/profiles/{name}": Profile,
    "GET /api/leaderboards/{format}": Leaderboard,
    "GET /api/pairing": PairingPools,
    "POST /api/pairing": SeekState,
    "GET /api/pairing/{seek_id}": SeekState,
    "DELETE /api/pairing/{seek_id}": SeekCancelled,
}


def answer(model: type[Model], data: Any) -> bytes:
    """An HTTP answer checked against its model and encoded: what does not fit is the server's bug (a 500)."""
    return _ENCODER.encode(data if isinstance(data, model) else msgspec.convert(data, model))


_ENCODER = msgspec.json.Encoder()
