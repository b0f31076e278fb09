/* The protocol of xeri serve, both ways: written by python scripts/protocol_schema.py --write from
 * docs/protocol.schema.json (itself from xeri.server.wire: protocol and messages). Do not edit. */

export type ClientMessage = Move | Hint | Sync | Ping | Ready | Rematch | Takeback | Say;
export type ServerMessage =
  | SyncMessage
  | UpdateMessage
  | TableMessage
  | HintMessage
  | RematchMessage
  | NoticeMessage
  | SaidMessage
  | PongMessage
  | ErrorMessage;
export type GameEvent =
  | PlayedEvent
  | CapturedEvent
  | XeriEvent
  | DealtEvent
  | RoundStartedEvent
  | RoundScoredEvent
  | MatchOverEvent
  | PileRedealtEvent
  | JackSlippedEvent
  | BottomExposedEvent
  | PileUnclaimedEvent
  | ThresholdRaisedEvent
  | CommitmentEvent
  | RevealEvent
  | AutoMoveEvent;

/**
 * xeri serve's HTTP and WebSocket protocol (docs/protocol.md), both ways. Written by python scripts/protocol_schema.py --write from xeri.server.wire: protocol and messages.
 */
export interface Protocol {
  /**
   * each HTTP request body a client sends, by route
   */
  requests?: {
    "POST /api/tables"?: CreateTable;
    "POST /api/tables/{id}/join"?: JoinTable;
    "POST /api/tables/{id}/leave"?: LeaveTable;
    "POST /api/verify (a record)"?: VerifyRecord;
    "POST /api/verify (a round)"?: VerifyRound;
    "POST /api/account/signup"?: SignUp;
    "POST /api/account/signin"?: SignIn;
    "POST /api/account/password"?: ChangePassword;
    "POST /api/account/delete"?: DeleteAccount;
    "POST /api/account/settings"?: AccountSettings;
    "POST /api/account/claim"?: ClaimSeats;
    "POST /api/account/leave"?: LeaveMine;
    "POST /api/pairing"?: Seek;
  };
  ClientMessage?: ClientMessage;
  ServerMessage?: ServerMessage;
  GameEvent?: GameEvent;
  /**
   * each HTTP answer the server sends, by route
   */
  answers?: {
    "GET /api/meta"?: ServerMeta;
    "GET /api/tables"?: TableList;
    "POST /api/tables"?: Created;
    "GET /api/tables/{id}"?: Table;
    "POST /api/tables/{id}/join"?: Seated;
    "POST /api/tables/{id}/leave"?: LeftTable;
    "GET /api/tables/{id}/fairness"?: Fairness;
    "GET /api/matches"?: MatchList;
    "GET /api/matches/{id}/replay"?: Replay;
    "GET /api/matches/{id}/review"?: ReviewProgress;
    "GET /api/players"?: PlayerList;
    "GET /api/players/{name}/stats"?: Stats;
    "POST /api/verify"?: Verdict;
    "GET /api/account"?: Account;
    "POST /api/account/signup"?: Account;
    "POST /api/account/signin"?: Account;
    "POST /api/account/signout"?: Account;
    "POST /api/account/password"?: Account;
    "POST /api/account/delete"?: Account;
    "POST /api/account/settings"?: Account;
    "POST /api/account/claim"?: Claimed;
    "POST /api/account/leave"?: LeftTable;
    "GET /api/account/tables"?: AccountTables;
    "GET /api/profiles/{name}"?: Profile;
    "GET /api/leaderboards/{format}"?: Leaderboard;
    "GET /api/pairing"?: PairingPools;
    "POST /api/pairing"?: SeekState;
    "GET /api/pairing/{seek_id}"?: SeekState;
    "DELETE /api/pairing/{seek_id}"?: SeekCancelled;
  };
}
/**
 * POST /api/tables: every field is optional.
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "CreateTable".
 */
export interface CreateTable {
  /**
   * a preset name
   */
  ruleset?: string;
  /**
   * rule options, each checked
   */
  options?: {
    [k: string]: unknown;
  } | null;
  /**
   * shorthand for options.players
   */
  players?: number | null;
  /**
   * shorthand: the match ends at this target score
   */
  target?: number | null;
  /**
   * one entry per seat: null (a human seat) or {"bot": LEVEL}
   */
  seats?: (SeatEntry | null)[] | null;
  /**
   * seconds per move; null: no timer
   */
  turn_timer?: number | null;
  /**
   * seconds an away player's seat waits for a bot; null: never
   */
  takeover_after?: number | null;
  /**
   * the bot that plays timed-out or abandoned seats
   */
  takeover_level?: string;
  /**
   * not listed; joined by the invite link
   */
  private?: boolean;
  /**
   * a rated table (signed in; classic, 2 players or 4 in partnerships): its end moves the accounts' ratings (docs/ratings.md)
   */
  rated?: boolean;
  title?: string;
  /**
   * also join a human seat under this name
   */
  name?: string | null;
  /**
   * with name: which human seat to take
   */
  seat?: number | null;
}
/**
 * A seat of a new table: {} or {"bot": null} is a human seat, {"bot": LEVEL} a server bot.
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "SeatEntry".
 */
export interface SeatEntry {
  /**
   * a bot level: easy, medium, hard, strong, master
   */
  bot?: string | null;
}
/**
 * POST /api/tables/{id}/join.
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "JoinTable".
 */
export interface JoinTable {
  name: string;
  /**
   * the first free human seat when left out
   */
  seat?: number | null;
  [k: string]: unknown;
}
/**
 * POST /api/tables/{id}/leave.
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "LeaveTable".
 */
export interface LeaveTable {
  /**
   * the seat's token, from create or join
   */
  token: string;
  [k: string]: unknown;
}
/**
 * POST /api/verify of a whole downloaded record.
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "VerifyRecord".
 */
export interface VerifyRecord {
  /**
   * the record, as GET /api/matches/{id}/record returns it
   */
  record: {
    [k: string]: unknown;
  };
  /**
   * the commitment the table showed before the first deal
   */
  match_commitment?: string | null;
  [k: string]: unknown;
}
/**
 * POST /api/verify of one revealed round.
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "VerifyRound".
 */
export interface VerifyRound {
  /**
   * a preset name or a ruleset object
   */
  ruleset?:
    | string
    | {
        [k: string]: unknown;
      };
  /**
   * the dealer's seat
   */
  dealer: number;
  /**
   * the round's seed: an integer, or its digits as text
   */
  seed: number | string;
  salt: string;
  /**
   * the commitment published before the deal
   */
  commitment: string;
  /**
   * the deal played, to check it follows from the seed
   */
  deal?: {
    [k: string]: unknown;
  } | null;
  round?: number | null;
  [k: string]: unknown;
}
/**
 * POST /api/account/signup: a new account, signed in at once.
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "SignUp".
 */
export interface SignUp {
  /**
   * the name as shown; unique (docs/accounts.md)
   */
  name: string;
  password: string;
}
/**
 * POST /api/account/signin.
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "SignIn".
 */
export interface SignIn {
  name: string;
  password: string;
}
/**
 * POST /api/account/password: the other sessions of the account end.
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "ChangePassword".
 */
export interface ChangePassword {
  /**
   * the current password
   */
  password: string;
  new_password: string;
}
/**
 * POST /api/account/delete: the matches stay, under an anonymous name.
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "DeleteAccount".
 */
export interface DeleteAccount {
  password: string;
}
/**
 * POST /api/account/settings.
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "AccountSettings".
 */
export interface AccountSettings {
  /**
   * left out of the leaderboards
   */
  hidden: boolean;
}
/**
 * POST /api/account/claim: a guest's seats of this browser, each proven by its token, into the account.
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "ClaimSeats".
 */
export interface ClaimSeats {
  /**
   * @maxItems 200
   */
  seats: ClaimedSeat[];
}
/**
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "ClaimedSeat".
 */
export interface ClaimedSeat {
  table_id: string;
  token: string;
}
/**
 * POST /api/account/leave: give up the account's seat at a table, with its session (no token).
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "LeaveMine".
 */
export interface LeaveMine {
  /**
   * a table where the account holds a seat (GET /api/account/tables)
   */
  table_id: string;
}
/**
 * POST /api/pairing: wait in a pool to be seated with people ("Play online").
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "Seek".
 */
export interface Seek {
  /**
   * xeri-2, xeri-4 (partnerships), pisti-2 or pisti-4
   */
  format: string;
  /**
   * a rated pool (signed in; xeri-2 and xeri-4 only)
   */
  rated?: boolean;
  /**
   * a guest's name at the table (signed in: the account's)
   */
  name?: string | null;
  /**
   * a guest's browser key: one seek per browser
   */
  key?: string | null;
}
/**
 * Play a card; a successful move is answered by the update every client receives.
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "Move".
 */
export interface Move {
  type: "move";
  /**
   * echoed in the reply (error, hint, pong)
   */
  ref?: string | number | null;
  /**
   * a card code such as "TD"
   */
  card: string;
  /**
   * the table's state version the move was chosen at
   */
  version: number;
  [k: string]: unknown;
}
/**
 * Ask for a suggestion.
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "Hint".
 */
export interface Hint {
  type: "hint";
  /**
   * echoed in the reply (error, hint, pong)
   */
  ref?: string | number | null;
  [k: string]: unknown;
}
/**
 * Ask for a fresh sync.
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "Sync".
 */
export interface Sync {
  type: "sync";
  /**
   * echoed in the reply (error, hint, pong)
   */
  ref?: string | number | null;
  [k: string]: unknown;
}
/**
 * Answered by a pong.
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "Ping".
 */
export interface Ping {
  type: "ping";
  /**
   * echoed in the reply (error, hint, pong)
   */
  ref?: string | number | null;
  [k: string]: unknown;
}
/**
 * This seat closed the round summary.
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "Ready".
 */
export interface Ready {
  type: "ready";
  /**
   * echoed in the reply (error, hint, pong)
   */
  ref?: string | number | null;
  /**
   * the round whose summary was closed (the page says which; not needed)
   */
  round?: number | null;
  [k: string]: unknown;
}
/**
 * Offer (or accept) a rematch, once the match is over.
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "Rematch".
 */
export interface Rematch {
  type: "rematch";
  /**
   * echoed in the reply (error, hint, pong)
   */
  ref?: string | number | null;
  [k: string]: unknown;
}
/**
 * Take back this seat's last card and the computer's cards after it (a casual game against the computer
 * only, docs/play.md#takebacks); answered by the sync every client receives.
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "Takeback".
 */
export interface Takeback {
  type: "takeback";
  /**
   * echoed in the reply (error, hint, pong)
   */
  ref?: string | number | null;
  /**
   * the table's state version the takeback was asked at
   */
  version: number;
  [k: string]: unknown;
}
/**
 * Table talk (server.table.talk): a preset ``phrase`` or, at a private table, free ``text``; exactly one.
 * Every connection at the table hears it as a ``said``; nothing of it is stored.
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "Say".
 */
export interface Say {
  type: "say";
  /**
   * echoed in the reply (error, hint, pong)
   */
  ref?: string | number | null;
  /**
   * a preset phrase or emote
   */
  phrase?:
    | (
        | "clap"
        | "good_luck"
        | "heart"
        | "hello"
        | "laugh"
        | "nice_one"
        | "oops"
        | "sorry"
        | "thanks"
        | "think"
        | "well_played"
        | "wow"
      )
    | null;
  /**
   * free text, at a private table only: 1..140 characters once its whitespace is collapsed, no control characters
   */
  text?: string | null;
  [k: string]: unknown;
}
/**
 * Everything the seat may know of the table now.
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "SyncMessage".
 */
export interface SyncMessage {
  type: "sync";
  table: Table;
  seat: number | null;
  version: number;
  view: View | null;
  events: (
    | PlayedEvent
    | CapturedEvent
    | XeriEvent
    | DealtEvent
    | RoundStartedEvent
    | RoundScoredEvent
    | MatchOverEvent
    | PileRedealtEvent
    | JackSlippedEvent
    | BottomExposedEvent
    | PileUnclaimedEvent
    | ThresholdRaisedEvent
    | CommitmentEvent
    | RevealEvent
    | AutoMoveEvent
  )[];
  history: Round[];
  fairness: SyncFairness;
  timer: Timer | null;
  pause: Pause | null;
  takeback?: boolean;
}
/**
 * docs/protocol.md's TABLE: public, the same for everyone.
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "Table".
 */
export interface Table {
  id: string;
  title: string;
  status: "closed" | "finished" | "playing" | "waiting";
  ruleset: Ruleset;
  players: number;
  seats: TableSeat[];
  free_seats: number[];
  turn_timer: number | null;
  takeover_after: number | null;
  takeover_level: string;
  private: boolean;
  version: number;
  created_at: string | null;
  finished_at: string | null;
  invite: string;
  scores: number[];
  winner: number | null;
  pause: Pause | null;
  rematch: RematchState | null;
  takebacks?: boolean;
  rated?: string | null;
  end?: string | null;
}
/**
 * A preset with every option (a TABLE's ``ruleset``).
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "Ruleset".
 */
export interface Ruleset {
  players: number;
  hand_size: number;
  pile_size: number;
  pile_face_down: number;
  initial_pile: "jack_under" | "keep" | "redeal" | "redeal_any_jack";
  jack_xeri_any: boolean;
  xeri_points: number;
  jack_xeri_points: number;
  scoring: "pisti" | "xeri";
  two_of_spades: boolean;
  most_cards_points: number;
  exposed_bottom: boolean;
  last_card_xeri: boolean;
  match_end: "rounds" | "target";
  rounds: number;
  target: number;
  tie_rule: "another_hand" | "higher" | "raise";
  name: string;
}
/**
 * One seat of a TABLE.
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "TableSeat".
 */
export interface TableSeat {
  seat: number;
  side: number;
  name: string | null;
  bot: string | null;
  human: boolean;
  taken: boolean;
  connected: boolean;
  away: boolean;
}
/**
 * The seats still reading a round's summary, and the seconds the next round waits for them at most.
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "Pause".
 */
export interface Pause {
  waiting: number[];
  remaining: number;
}
/**
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "RematchState".
 */
export interface RematchState {
  seats: number[];
  table_id: string | null;
}
/**
 * docs/protocol.md's VIEW: what one seat may see. A replay's STATE adds every hand (``hands``).
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "View".
 */
export interface View {
  seat: number | null;
  players: number;
  sides: number;
  dealer: number;
  turn: number | null;
  /**
   * Items: a card code such as "TD"
   */
  hand: string[];
  /**
   * Items: a card code such as "TD"
   */
  legal_moves: string[];
  pile: (string | null)[];
  top: string | null;
  hand_counts: number[];
  talon_count: number;
  captured_counts: number[];
  xeris: [string, boolean][][];
  points: number[];
  exposed: string | null;
  exposed_holder: number | null;
  last_capturer: number | null;
  played: [number, string][];
  /**
   * Items: a card code such as "TD"
   */
  gone: string[];
  over: boolean;
  match_over: boolean;
  winner: number | null;
  match_scores: number[];
  round_wins: number[];
  round_number: number;
  target: number | null;
  names: string[];
  hands?: string[][];
}
/**
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "PlayedEvent".
 */
export interface PlayedEvent {
  kind: "played";
  seat: number;
  /**
   * a card code such as "TD"
   */
  card: string;
}
/**
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "CapturedEvent".
 */
export interface CapturedEvent {
  kind: "captured";
  seat: number;
  /**
   * Items: a card code such as "TD"
   */
  cards: string[];
  hidden_count: number;
  leftover: boolean;
}
/**
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "XeriEvent".
 */
export interface XeriEvent {
  kind: "xeri";
  seat: number;
  /**
   * a card code such as "TD"
   */
  card: string;
  jack: boolean;
  points: number;
}
/**
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "DealtEvent".
 */
export interface DealtEvent {
  kind: "dealt";
  dealer: number;
  hands: (string[] | null)[];
  sizes: number[];
  pile: (string | null)[];
  talon: number;
  first: boolean;
  face_down: number[];
}
/**
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "RoundStartedEvent".
 */
export interface RoundStartedEvent {
  kind: "round_started";
  number: number;
  dealer: number;
}
/**
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "RoundScoredEvent".
 */
export interface RoundScoredEvent {
  kind: "round_scored";
  scores: Breakdown[];
}
/**
 * One side's score of a round.
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "Breakdown".
 */
export interface Breakdown {
  side: number;
  cards: number;
  xeris: number;
  jack_xeris: number;
  lines: ScoreLine[];
  total: number;
  /**
   * Items: a card code such as "TD"
   */
  captured: string[];
}
/**
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "ScoreLine".
 */
export interface ScoreLine {
  label: string;
  points: number;
  /**
   * Items: a card code such as "TD"
   */
  cards: string[];
}
/**
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "MatchOverEvent".
 */
export interface MatchOverEvent {
  kind: "match_over";
  winner: number;
  scores: number[];
  round_wins: number[];
}
/**
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "PileRedealtEvent".
 */
export interface PileRedealtEvent {
  kind: "pile_redealt";
  /**
   * Items: a card code such as "TD"
   */
  cards: string[];
  reason: string;
}
/**
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "JackSlippedEvent".
 */
export interface JackSlippedEvent {
  kind: "jack_slipped";
  /**
   * a card code such as "TD"
   */
  card: string;
}
/**
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "BottomExposedEvent".
 */
export interface BottomExposedEvent {
  kind: "bottom_exposed";
  /**
   * a card code such as "TD"
   */
  card: string;
}
/**
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "PileUnclaimedEvent".
 */
export interface PileUnclaimedEvent {
  kind: "pile_unclaimed";
  /**
   * Items: a card code such as "TD"
   */
  cards: string[];
}
/**
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "ThresholdRaisedEvent".
 */
export interface ThresholdRaisedEvent {
  kind: "threshold_raised";
  target: number;
}
/**
 * A round's commitment, published before its deal.
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "CommitmentEvent".
 */
export interface CommitmentEvent {
  kind: "commitment";
  round: number;
  commitment: string;
}
/**
 * A round's seed and salt, once the round is over.
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "RevealEvent".
 */
export interface RevealEvent {
  kind: "reveal";
  round: number;
  dealer: number;
  /**
   * a 64-bit seed, as its decimal digits
   */
  seed: string;
  salt: string;
  commitment: string;
}
/**
 * A bot played the next move for ``seat`` (``reason``: timer, away or left).
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "AutoMoveEvent".
 */
export interface AutoMoveEvent {
  kind: "auto_move";
  seat: number;
  reason: string;
}
/**
 * A finished round (ROUND): its breakdown, totals, and its revealed seed and salt.
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "Round".
 */
export interface Round {
  round: number;
  dealer: number;
  scores: Breakdown[];
  totals: number[];
  commitment: string;
  /**
   * a 64-bit seed, as its decimal digits
   */
  seed: string;
  salt: string;
}
/**
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "SyncFairness".
 */
export interface SyncFairness {
  match_commitment: string | null;
}
/**
 * The seconds before a bot plays for a human seat to move (its turn timer, or its player is away).
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "Timer".
 */
export interface Timer {
  seat: number;
  remaining: number;
  reason: string | null;
}
/**
 * The table after one move, as the seat may see it.
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "UpdateMessage".
 */
export interface UpdateMessage {
  type: "update";
  version: number;
  events: (
    | PlayedEvent
    | CapturedEvent
    | XeriEvent
    | DealtEvent
    | RoundStartedEvent
    | RoundScoredEvent
    | MatchOverEvent
    | PileRedealtEvent
    | JackSlippedEvent
    | BottomExposedEvent
    | PileUnclaimedEvent
    | ThresholdRaisedEvent
    | CommitmentEvent
    | RevealEvent
    | AutoMoveEvent
  )[];
  view: View;
  timer: Timer | null;
  pause: Pause | null;
  history?: Round[];
  takeback?: boolean;
  round_end?: View;
}
/**
 * The table changed (a seat taken, a player away or back, the match over, a rematch offered).
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "TableMessage".
 */
export interface TableMessage {
  type: "table";
  table: Table;
  timer: Timer | null;
}
/**
 * A suggested card and why: ``code`` and ``params`` let a client word it (xeri.bots.hint).
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "HintMessage".
 */
export interface HintMessage {
  type: "hint";
  /**
   * a card code such as "TD"
   */
  card: string;
  reason: string;
  code?: string;
  params?: {
    [k: string]: string | number;
  };
  ref?: string | number | null;
}
/**
 * The rematch's table, and for a player the token of the same seat there.
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "RematchMessage".
 */
export interface RematchMessage {
  type: "rematch";
  table_id: string;
  seat: number | null;
  token: string | null;
}
/**
 * A word about the computer's play, sent once each: the master plays by the counting rules while its rollouts
 * load (``master_warming``), then at full strength (``master_ready``); the same of the strong level where it
 * plays a master, at 3 players (``strong_warming``, ``strong_ready``). The page words it.
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "NoticeMessage".
 */
export interface NoticeMessage {
  type: "notice";
  notice: "master_ready" | "master_warming" | "strong_ready" | "strong_warming";
}
/**
 * Table talk from a seat (a client's ``say``, server.table.talk): a preset ``phrase`` (the page words it) or free
 * ``text`` (a private table's), to every connection at the table. Never stored.
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "SaidMessage".
 */
export interface SaidMessage {
  type: "said";
  seat: number;
  phrase?:
    | "clap"
    | "good_luck"
    | "heart"
    | "hello"
    | "laugh"
    | "nice_one"
    | "oops"
    | "sorry"
    | "thanks"
    | "think"
    | "well_played"
    | "wow";
  text?: string;
}
/**
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "PongMessage".
 */
export interface PongMessage {
  type: "pong";
  ref?: string | number | null;
}
/**
 * A refusal; nothing changed. ``retry``: the server's own trouble, try again; ``version``: the table's now.
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "ErrorMessage".
 */
export interface ErrorMessage {
  type: "error";
  code: string;
  message: string;
  ref?: string | number | null;
  version?: number;
  retry?: boolean;
}
/**
 * GET /api/meta.
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "ServerMeta".
 */
export interface ServerMeta {
  rulesets: Preset[];
  options: {
    [k: string]: OptionHelp;
  };
  levels: string[];
  version: string;
  limits: MetaLimits;
  offline: OfflineMeta | null;
  rated_targets?: number[] | null;
}
/**
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "Preset".
 */
export interface Preset {
  name: string;
  help: string;
  options: RuleOptions;
  point_items: PointItem[];
}
/**
 * Every rule option's value (a preset's ``options``); tests/server/wire/test_server_messages.py keeps the
 * fields equal to xeri.rules.OPTIONS.
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "RuleOptions".
 */
export interface RuleOptions {
  players: number;
  hand_size: number;
  pile_size: number;
  pile_face_down: number;
  initial_pile: "jack_under" | "keep" | "redeal" | "redeal_any_jack";
  jack_xeri_any: boolean;
  xeri_points: number;
  jack_xeri_points: number;
  scoring: "pisti" | "xeri";
  two_of_spades: boolean;
  most_cards_points: number;
  exposed_bottom: boolean;
  last_card_xeri: boolean;
  match_end: "rounds" | "target";
  rounds: number;
  target: number;
  tie_rule: "another_hand" | "higher" | "raise";
}
/**
 * A preset's point card (or group of cards).
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "PointItem".
 */
export interface PointItem {
  label: string;
  points: number;
  each: boolean;
}
/**
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "OptionHelp".
 */
export interface OptionHelp {
  help: string;
  choices: unknown[] | null;
}
/**
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "MetaLimits".
 */
export interface MetaLimits {
  turn_timer: number[];
  takeover_after: number[];
  name_length: number;
  message_bytes: number;
}
/**
 * The offline pack this server serves (server.http.offline_pack): the levels it plays, its size and its version.
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "OfflineMeta".
 */
export interface OfflineMeta {
  levels: string[];
  bytes: number;
  version: string;
}
/**
 * GET /api/tables.
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "TableList".
 */
export interface TableList {
  tables: Table[];
}
/**
 * POST /api/tables: with ``seat`` and ``token`` when a name was given.
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "Created".
 */
export interface Created {
  table_id: string;
  table: Table;
  invite: string;
  seat?: number;
  token?: string;
}
/**
 * POST /api/tables/{id}/join.
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "Seated".
 */
export interface Seated {
  table_id: string;
  seat: number;
  token: string;
  table: Table;
}
/**
 * POST /api/tables/{id}/leave.
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "LeftTable".
 */
export interface LeftTable {
  ok: boolean;
  table: Table;
}
/**
 * GET /api/tables/{id}/fairness.
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "Fairness".
 */
export interface Fairness {
  scheme: string;
  match_commitment: string | null;
  match_seed: string | null;
  match_salt: string | null;
  rounds: FairnessRound[];
}
/**
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "FairnessRound".
 */
export interface FairnessRound {
  round: number;
  dealer: number;
  commitment: string;
  revealed: boolean;
  seed: string | null;
  salt: string | null;
  ok: boolean | null;
  detail: string;
}
/**
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "MatchList".
 */
export interface MatchList {
  matches: MatchSummary[];
}
/**
 * A finished match in GET /api/matches.
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "MatchSummary".
 */
export interface MatchSummary {
  id: string;
  title: string;
  names: string[];
  ruleset: Ruleset;
  scores: number[] | null;
  winner: number | null;
  winners: string[];
  rounds: number | null;
  round_wins: number[] | null;
  bots: (string | null)[] | null;
  finished_at: string | null;
  end?: string | null;
}
/**
 * GET /api/matches/{id}/replay: every step of a finished match, every hand shown.
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "Replay".
 */
export interface Replay {
  id: string | null;
  names: string[];
  bots: (string | null)[];
  ruleset: Ruleset;
  steps: Step[];
  end?: string | null;
}
/**
 * One step of a replay: a deal or a move, with the whole table after it.
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "Step".
 */
export interface Step {
  round: number;
  seat: number | null;
  card: string | null;
  events: (
    | PlayedEvent
    | CapturedEvent
    | XeriEvent
    | DealtEvent
    | RoundStartedEvent
    | RoundScoredEvent
    | MatchOverEvent
    | PileRedealtEvent
    | JackSlippedEvent
    | BottomExposedEvent
    | PileUnclaimedEvent
    | ThresholdRaisedEvent
    | CommitmentEvent
    | RevealEvent
    | AutoMoveEvent
  )[];
  state: View;
  /**
   * Items: a card code such as "TD"
   */
  takeback?: string[];
}
/**
 * GET /api/matches/{id}/review: 202 while it is built, 200 with ``review`` once done.
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "ReviewProgress".
 */
export interface ReviewProgress {
  state: "done" | "running";
  done: number;
  total: number;
  review?: Review;
}
/**
 * ``xeri review --json``'s object.
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "Review".
 */
export interface Review {
  seat: number;
  name: string;
  side: number;
  evaluator: string;
  lost: number;
  moves_reviewed: number;
  costliest: MovePlace[];
  rounds: RoundReview[];
}
/**
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "MovePlace".
 */
export interface MovePlace {
  round: number;
  move: number;
}
/**
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "RoundReview".
 */
export interface RoundReview {
  number: number;
  lost: number;
  margin: number | null;
  grades: {
    [k: string]: number;
  };
  moves: ReviewedMove[];
}
/**
 * One reviewed move (``xeri review --json``).
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "ReviewedMove".
 */
export interface ReviewedMove {
  round: number;
  move: number;
  seat: number;
  /**
   * a card code such as "TD"
   */
  played: string;
  /**
   * a card code such as "TD"
   */
  best: string;
  values: {
    [k: string]: number;
  };
  lost: number;
  grade: string;
  forced: boolean;
  reason: string;
  played_effect: Effect;
  best_effect: Effect;
}
/**
 * What a card does to the pile, as the seat saw it (xeri.review).
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "Effect".
 */
export interface Effect {
  kind: string;
  cards: number;
  points: number;
  rank: string;
  unseen: number;
}
/**
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "PlayerList".
 */
export interface PlayerList {
  players: Stats[];
}
/**
 * One person's totals over public finished matches.
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "Stats".
 */
export interface Stats {
  name: string;
  games: number;
  wins: number;
  points: number;
  xeris: number;
  jack_xeris: number;
}
/**
 * POST /api/verify: a whole record (``finished``, ``scheme``, ``binds``) or one round (``deal``).
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "Verdict".
 */
export interface Verdict {
  ok: boolean;
  detail: string;
  rounds: VerdictRound[];
  finished?: boolean;
  scheme?: string;
  binds?: string;
  deal?: {
    [k: string]: unknown;
  } | null;
}
/**
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "VerdictRound".
 */
export interface VerdictRound {
  round: number | null;
  ok: boolean;
  detail: string;
}
/**
 * GET /api/account (who am I), and the answer of a sign-up, sign-in, sign-out or change.
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "Account".
 */
export interface Account {
  signed_in: boolean;
  name?: string | null;
  csrf?: string | null;
  hidden?: boolean;
}
/**
 * POST /api/account/claim: the seats now the account's (those already its own, or another's, are left out).
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "Claimed".
 */
export interface Claimed {
  claimed: AccountTable[];
}
/**
 * A table in play (or waiting) where the account holds a seat: it opens from any device.
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "AccountTable".
 */
export interface AccountTable {
  table_id: string;
  seat: number;
  status: string;
}
/**
 * GET /api/account/tables.
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "AccountTables".
 */
export interface AccountTables {
  tables: AccountTable[];
}
/**
 * GET /api/profiles/{name}: an account's public page.
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "Profile".
 */
export interface Profile {
  name: string;
  created_at: string;
  stats: Stats;
  matches: ProfileMatch[];
  ratings?: ProfileRating[];
  rating_history?: RatingPoint[];
}
/**
 * One of a profile's recent matches, with the player's seat (its replay and review).
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "ProfileMatch".
 */
export interface ProfileMatch {
  seat: number;
  match: MatchSummary;
}
/**
 * An account's rating in one rated format (docs/ratings.md): shown as whole points.
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "ProfileRating".
 */
export interface ProfileRating {
  format: string;
  rating: number;
  deviation: number;
  games: number;
  wins: number;
}
/**
 * An account's rating after one rated match (the profile's chart): its time and result, nothing else.
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "RatingPoint".
 */
export interface RatingPoint {
  format: string;
  at: string;
  rating: number;
  deviation: number;
  won: boolean;
}
/**
 * GET /api/leaderboards/{format}: the format's players with enough rated matches and a low enough
 * deviation, the highest first (the players who hide themselves left out).
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "Leaderboard".
 */
export interface Leaderboard {
  format: string;
  formats: string[];
  min_games: number;
  max_deviation: number;
  players: LeaderboardPlayer[];
}
/**
 * One line of a leaderboard: a name and its rating, nothing that is not on the player's profile.
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "LeaderboardPlayer".
 */
export interface LeaderboardPlayer {
  rank: number;
  name: string;
  rating: number;
  deviation: number;
  games: number;
  wins: number;
}
/**
 * GET /api/pairing: every pool and how many wait in it (the lobby shows it on the pools' buttons), the open
 * challenges (the oldest first, at most 20), the players online (people seated at a table with it open, and
 * seekers waiting) and the tables in play: across every process of a cluster.
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "PairingPools".
 */
export interface PairingPools {
  pools: PoolWaiting[];
  challenges: OpenChallenge[];
  online: number;
  playing: number;
}
/**
 * One pool of "Play online" and how many wait in it now.
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "PoolWaiting".
 */
export interface PoolWaiting {
  format: string;
  rated: boolean;
  waiting: number;
}
/**
 * One seek waiting in a pool, as the lobby lists it for anyone to accept (by seeking in the same pool). Never
 * its seek id (the seat's secret), nor the seeker's browser key or account: only what the seeker shows.
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "OpenChallenge".
 */
export interface OpenChallenge {
  format: string;
  rated: boolean;
  name: string;
  rating: number | null;
  waited: number;
}
/**
 * POST /api/pairing and GET /api/pairing/{seek_id}: waiting in a pool, or paired (the seat is this seeker's
 * alone: only the holder of the seek's secret id gets it).
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "SeekState".
 */
export interface SeekState {
  status: "paired" | "waiting";
  seek_id?: string | null;
  format?: string | null;
  rated?: boolean | null;
  players?: number | null;
  waited?: number | null;
  typical_wait?: number | null;
  table_id?: string | null;
  seat?: number | null;
  token?: string | null;
}
/**
 * DELETE /api/pairing/{seek_id}: ``cancelled`` is false when the seek was not waiting (paired, or gone).
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "SeekCancelled".
 */
export interface SeekCancelled {
  cancelled: boolean;
}
