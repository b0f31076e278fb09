// @ts-check
// HTTP and WebSocket access to `xeri serve` (docs/protocol.md), and the seat tokens kept for reconnection.
// The typedefs below are the server's messages as the page reads them; the other modules import them.

/**
 * Rule options (a preset's, or those a new table asks for).
 * @typedef {{ match_end?: string, players?: number, rounds?: number, target?: number | null }
 *   & Record<string, unknown>}
 *   RuleOptions
 */
/**
 * A preset with every option (TABLE's `ruleset`).
 * @typedef {{ name: string, match_end: string, players: number, rounds: number, target: number | null }
 *   & Record<string, unknown>} Ruleset
 */

/**
 * POST /api/tables.
 * @typedef {object} NewTable
 * @property {string} [ruleset]
 * @property {RuleOptions} [options]
 * @property {number} [players]
 * @property {number} [target]
 * @property {({ bot: string | null } | null)[]} [seats] null for a person's seat
 * @property {number | null} [turn_timer]
 * @property {boolean} [private]
 * @property {string | null} [name] also join, with this name
 * @property {number | null} [seat]
 */

/**
 * One seat of a TABLE.
 * @typedef {object} Seat
 * @property {number} seat
 * @property {number} side
 * @property {string | null} name
 * @property {string | null} bot the level playing the seat now, null for a person
 * @property {boolean} human the seat's configured kind
 * @property {boolean} taken
 * @property {boolean} connected
 * @property {boolean} away
 */

/** @typedef {{ waiting: number[], remaining: number }} Pause the seats still reading a round's summary */
/** @typedef {{ seat: number, remaining: number, reason: string }} Timer the seconds before a bot plays */

/**
 * docs/protocol.md's TABLE.
 * @typedef {object} Table
 * @property {string} id
 * @property {string | null} [title]
 * @property {"waiting" | "playing" | "finished" | "closed"} status
 * @property {Ruleset} ruleset
 * @property {number} players
 * @property {Seat[]} seats
 * @property {number[]} free_seats
 * @property {number | null} turn_timer
 * @property {boolean} private
 * @property {number} version
 * @property {string} [created_at]
 * @property {string} [invite]
 * @property {Pause | null} [pause]
 * @property {{ seats: number[], table_id: string | null } | null} [rematch]
 */

/**
 * docs/protocol.md's VIEW: what one seat may see. A replay's STATE adds every hand (`hands`).
 * @typedef {object} View
 * @property {number | null} seat
 * @property {number} players
 * @property {number} sides
 * @property {number} dealer
 * @property {number | null} turn
 * @property {string[]} hand
 * @property {string[]} legal_moves
 * @property {(string | null)[]} pile bottom first; null is face down
 * @property {string | null} top
 * @property {number[]} hand_counts
 * @property {number} talon_count
 * @property {number[]} captured_counts
 * @property {[string, boolean][][]} xeris per side: [card, jack on jack]
 * @property {number[]} points
 * @property {string | null} [exposed]
 * @property {string[]} [gone]
 * @property {boolean} over
 * @property {boolean} match_over
 * @property {number | null} [winner]
 * @property {number[]} match_scores
 * @property {number[]} [round_wins]
 * @property {number} round_number
 * @property {number | null} target
 * @property {string[]} names
 * @property {(string[] | null)[]} [hands] a replay's every hand
 */

/** @typedef {{ label: string, points: number, cards?: string[] }} ScoreLine */
/**
 * One side's score of a round.
 * @typedef {{ side: number, cards: number, xeris?: number, jack_xeris?: number, lines: ScoreLine[], total: number }}
 *   Breakdown
 */

/**
 * A finished round (ROUND).
 * @typedef {object} Round
 * @property {number} round
 * @property {number} [dealer]
 * @property {Breakdown[]} scores
 * @property {number[]} [totals]
 * @property {string} [commitment]
 * @property {number | string | null} [seed] a 64-bit seed, kept exact as a string by parseJSON
 * @property {string | null} [seed_text]
 * @property {string | null} [salt]
 */

/**
 * docs/protocol.md's EVENTs, told apart by `kind`.
 * @typedef {{ kind: "round_started", number: number, dealer: number }
 *   | { kind: "commitment", round: number, commitment: string }
 *   | { kind: "dealt", dealer: number, hands: (string[] | null)[], sizes: number[], pile: (string | null)[],
 *       talon: number, first: boolean }
 *   | { kind: "pile_redealt", cards: string[], reason: string }
 *   | { kind: "jack_slipped", card: string }
 *   | { kind: "bottom_exposed", card: string }
 *   | PlayedEvent
 *   | { kind: "captured", seat: number, cards: string[], hidden_count: number, leftover: boolean }
 *   | { kind: "xeri", seat: number, card: string, jack: boolean, points: number }
 *   | { kind: "pile_unclaimed", cards: string[] }
 *   | { kind: "round_scored", scores: Breakdown[] }
 *   | { kind: "reveal", round: number, dealer: number, seed: number | string, seed_text: string, salt: string,
 *       commitment: string }
 *   | { kind: "threshold_raised", target: number }
 *   | { kind: "match_over", winner: number, scores: number[], round_wins: number[] }
 *   | { kind: "auto_move", seat: number, reason: string }} GameEvent
 */
/** @typedef {{ kind: "played", seat: number, card: string }} PlayedEvent */

/**
 * A hint's card and its reason: `code` and `params` let the page word it (xeri.bots.hint).
 * @typedef {{ card: string, reason?: string, code?: string, params?: Record<string, string | number> }} Hint
 */

/**
 * Every message the server sends on a table's socket.
 * @typedef {{ type: "sync", table: Table, seat: number | null, version: number, view: View | null,
 *       events?: GameEvent[], history?: Round[], fairness?: { match_commitment?: string } | null,
 *       timer?: Timer | null, pause?: Pause | null }
 *   | { type: "update", version: number, events?: GameEvent[], view: View, history?: Round[],
 *       timer?: Timer | null, pause?: Pause | null }
 *   | { type: "table", table: Table, timer?: Timer | null, pause?: Pause | null }
 *   | ({ type: "hint" } & Hint)
 *   | { type: "rematch", table_id: string, seat: number, token: string | null }
 *   | { type: "notice", notice: "master_warming" | "master_ready" }
 *   | { type: "pong" }
 *   | { type: "error", code: string, message?: string, version?: number, retry?: boolean }} ServerMessage
 */

/**
 * What the page sends on a table's socket.
 * @typedef {{ type: "move", card: string, version: number | null } | { type: "hint" } | { type: "sync" }
 *   | { type: "ready", round: number } | { type: "rematch" }} ClientMessage
 */

/** @typedef {{ table_id: string, seat: number, token: string, table: Table }} Seated a join's answer */

/** @typedef {{ label: string, points: number, each: boolean }} PointItem a preset's point card (group) */
/**
 * GET /api/meta.
 * @typedef {{ rulesets: { name: string, help?: string, options: RuleOptions, point_items?: PointItem[] }[],
 *   levels: string[],
 *   limits?: Record<string, number[]> } & Record<string, unknown>} Meta
 */

/**
 * A finished match in GET /api/matches.
 * @typedef {{ id: string, title?: string | null, names: string[], ruleset: Ruleset, scores: number[],
 *   winner: number | null, winners?: string[], rounds?: number, round_wins?: number[],
 *   bots?: (string | null)[], finished_at?: string | null }} MatchSummary
 */

/** @typedef {{ round: number, seat: number | null, card: string | null, events: GameEvent[], state: View }} Step */
/** @typedef {{ id: string, names: string[], bots?: (string | null)[], ruleset: Ruleset, steps: Step[] }} Replay */

/** @typedef {{ name: string, games: number, wins: number, points: number, xeris: number, jack_xeris: number }} Stats */

/** @typedef {{ kind: string, cards: number, points: number, rank?: string | null, unseen: number }} Effect */
/**
 * One reviewed move (`xeri review --json`).
 * @typedef {object} ReviewedMove
 * @property {number} round
 * @property {number} move 1-based within the round
 * @property {string} played
 * @property {string} best
 * @property {Record<string, number>} values each card's expected points
 * @property {number} lost
 * @property {string} grade
 * @property {Effect} best_effect
 */
/**
 * `xeri review --json`'s object.
 * @typedef {{ lost: number, moves_reviewed: number, costliest: { round: number, move: number }[],
 *   rounds: { number: number, lost: number, margin: number | null, grades: Record<string, number>,
 *     moves: ReviewedMove[] }[] }} Review
 */
/** @typedef {{ state: "running", done: number, total: number } | { state: "done", done: number, total: number,
 *   review: Review }} ReviewProgress */

/**
 * GET /api/tables/{id}/fairness.
 * @typedef {{ match_commitment?: string, rounds: Record<string, unknown>[] } & Record<string, unknown>} Fairness
 */
/** @typedef {{ ok: boolean, detail?: string }} Verdict POST /api/verify */

export class ApiError extends Error {
  /**
   * @param {number} status the HTTP status, 0 when the network failed
   * @param {string} code
   * @param {string} [message]
   */
  constructor(status, code, message) {
    super(message || code || `HTTP ${status}`);
    this.status = status;
    this.code = code;
  }
}

/**
 * JSON.parse that keeps integers beyond 2^53 (the round seeds are 64-bit) exact, as strings of digits.
 * It uses the reviver's source text where the browser gives it, else quotes long digit runs first.
 */
/**
 * @param {string} text
 * @returns {unknown}
 */
export function parseJSON(text) {
  let sourceSeen = false;
  /**
   * @param {string} key
   * @param {unknown} v
   * @param {{ source?: unknown }} [context] the source text (a newer browser's third argument)
   */
  const reviver = function (key, v, context) {
    if (context && typeof context.source === "string") sourceSeen = true;
    if (
      typeof v === "number" &&
      Number.isInteger(v) &&
      !Number.isSafeInteger(v) &&
      context &&
      typeof context.source === "string"
    ) {
      return context.source;
    }
    return v;
  };
  const value = JSON.parse(text, reviver);
  if (sourceSeen || !/\d{16,}/.test(text)) return value;
  return JSON.parse(quoteBigIntegers(text));
}

/**
 * Quote every JSON integer too big to be exact (for browsers whose reviver gets no source text).
 * @param {string} text
 * @returns {string}
 */
export function quoteBigIntegers(text) {
  return text.replace(/([:,[]\s*)(-?\d{16,})(?=\s*[,}\]])/g, (all, before, digits) =>
    Number.isSafeInteger(Number(digits)) ? all : `${before}"${digits}"`);
}

/**
 * JSON.stringify that writes a seed kept as a string of digits back as a JSON integer.
 * @param {unknown} body
 * @returns {string}
 */
export function toJSON(body) {
  return JSON.stringify(body).replace(/"seed":"(-?\d+)"/g, '"seed":$1');
}

/**
 * One call of the HTTP API; its answer is the JSON the server documents for that path (docs/protocol.md).
 * @template T
 * @param {string} method
 * @param {string} path
 * @param {unknown} [body]
 * @returns {Promise<T>}
 */
async function request(method, path, body) {
  /** @type {Record<string, string>} */
  const headers = { Accept: "application/json" };
  /** @type {RequestInit} */
  const init = { method, headers };
  if (body !== undefined) {
    headers["Content-Type"] = "application/json";
    init.body = toJSON(body);
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch (err) {
    throw new ApiError(0, "network", String(err instanceof Error && err.message ? err.message : err));
  }
  /** @type {unknown} */
  let data = null;
  try {
    data = parseJSON(await response.text());
  } catch {
    // Not JSON (a proxy's error page): data stays null.
  }
  if (!response.ok) {
    const failure = /** @type {{ error?: { code?: string, message?: string } } | null} */ (data);
    const e = (failure && failure.error) || {};
    throw new ApiError(response.status, e.code || "http_error", e.message || `HTTP ${response.status}`);
  }
  return /** @type {T} */ (data);
}

/**
 * The saved seat token of table `id` as a query parameter (`?token=` or `&token=`), or "": a finished private
 * match opens only to its seats (docs/security.md), and a download link cannot carry a header.
 * @param {string} id
 * @param {"?" | "&"} sep
 * @returns {string}
 */
function seatQuery(id, sep) {
  const mine = seats.get(id);
  return mine ? `${sep}token=${encodeURIComponent(mine.token)}` : "";
}

export const api = {
  /** @type {() => Promise<Meta>} */
  meta: () => request("GET", "/api/meta"),
  /** @type {(status?: string) => Promise<{ tables: Table[] }>} */
  tables: (status = "all") => request("GET", `/api/tables?status=${encodeURIComponent(status)}`),
  /** @type {(id: string) => Promise<Table>} */
  table: (id) => request("GET", `/api/tables/${encodeURIComponent(id)}${seatQuery(id, "?")}`),
  // The page always gives a name, so the answer always carries the seat and its token.
  /** @type {(body: NewTable) => Promise<Seated>} */
  createTable: (body) => request("POST", "/api/tables", body),
  /** @type {(id: string, name: string, seat?: number | null) => Promise<Seated>} */
  join: (id, name, seat) =>
    request("POST", `/api/tables/${encodeURIComponent(id)}/join`, seat == null ? { name } : { name, seat }),
  /** @type {(id: string, token: string) => Promise<{ ok: boolean, table: Table }>} */
  leave: (id, token) => request("POST", `/api/tables/${encodeURIComponent(id)}/leave`, { token }),
  /** @type {(player?: string | null) => Promise<{ matches: MatchSummary[] }>} */
  matches: (player) => request("GET", `/api/matches?limit=100${player ? `&player=${encodeURIComponent(player)}` : ""}`),
  /** @type {(id: string) => Promise<Replay>} */
  replay: (id) => request("GET", `/api/matches/${encodeURIComponent(id)}/replay${seatQuery(id, "?")}`),
  /** @type {(id: string) => string} */
  recordUrl: (id) => `/api/matches/${encodeURIComponent(id)}/record${seatQuery(id, "?")}`,
  /** @type {(id: string, seat: number) => Promise<ReviewProgress>} */
  review: (id, seat) =>
    request("GET",
      `/api/matches/${encodeURIComponent(id)}/review?seat=${encodeURIComponent(seat)}${seatQuery(id, "&")}`),
  /** @type {() => Promise<{ players: Stats[] }>} */
  players: () => request("GET", "/api/players?limit=100"),
  /** @type {(name: string) => Promise<Stats>} */
  playerStats: (name) => request("GET", `/api/players/${encodeURIComponent(name)}/stats`),
  /** @type {(id: string) => Promise<Fairness>} */
  fairness: (id) => request("GET", `/api/tables/${encodeURIComponent(id)}/fairness${seatQuery(id, "?")}`),
  /** @type {(body: Record<string, unknown>) => Promise<Verdict>} */
  verify: (body) => request("POST", "/api/verify", body),
};

// ---- seat tokens: reloading the page must give the player their seat back ----

const TOKENS_KEY = "xeri.seats";

/** @typedef {{ seat: number, token: string, at?: number }} SavedSeat */

/** @returns {Record<string, SavedSeat>} */
function readSeats() {
  try {
    const data = JSON.parse(localStorage.getItem(TOKENS_KEY) || "{}");
    return data && typeof data === "object" ? data : {};
  } catch {
    return {};
  }
}

export const seats = {
  /**
   * @param {string} tableId
   * @returns {SavedSeat | null}
   */
  get(tableId) {
    const s = readSeats()[tableId];
    return s && typeof s.token === "string" ? s : null;
  },
  /**
   * @param {string} tableId
   * @param {number} seat
   * @param {string} token
   */
  set(tableId, seat, token) {
    const all = readSeats();
    all[tableId] = { seat, token, at: Date.now() };
    localStorage.setItem(TOKENS_KEY, JSON.stringify(all));
  },
  /** @param {string} tableId */
  drop(tableId) {
    const all = readSeats();
    delete all[tableId];
    localStorage.setItem(TOKENS_KEY, JSON.stringify(all));
  },
};

/** The first reconnect pause (ms), the longest, and how long a socket must live after its sync to count as good. */
export const RETRY_FIRST_MS = 300;
export const RETRY_MAX_MS = 10000;
export const STABLE_MS = 5000;

/**
 * The pause before try number `attempt` (0, 1, …): it doubles up to RETRY_MAX_MS, and is drawn between half of
 * that and all of it, so that pages cut off together (a server restarting) do not come back together.
 * @param {number} attempt
 * @param {() => number} [random]
 * @returns {number}
 */
export function retryDelay(attempt, random = Math.random) {
  const ceiling = Math.min(RETRY_MAX_MS, RETRY_FIRST_MS * 2 ** Math.min(attempt, 30));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

/**
 * One table's WebSocket that reconnects by itself. `onMessage(msg)` gets every
 * server message; `onStatus("open"|"lost"|"closed", detail, unanswered)` the connection's state, with, when it is
 * lost, the move sent on it that the server never answered (it may or may not have been stored).
 *
 * The pause between tries grows (retryDelay) and starts small again only once a socket has synced and then lived
 * STABLE_MS: a server that accepts the socket and then closes it at once (it refuses the seat) is not hammered.
 */
export class TableSocket {
  /**
   * @param {string} tableId
   * @param {string | null} token the seat's token; null to watch
   * @param {{ onMessage: (msg: ServerMessage) => void,
   *   onStatus: (status: "open" | "lost" | "closed", detail: string | number,
   *     unanswered?: ClientMessage | null) => void }} handlers
   */
  constructor(tableId, token, { onMessage, onStatus }) {
    this.tableId = tableId;
    this.token = token;
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    /** @type {WebSocket | null} */
    this.ws = null;
    this.closed = false;
    this.attempt = 0;
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this.timer = undefined;
    this.wasOpen = false;
    /** when the current socket got its first sync (performance.now()), 0 before */
    this.syncedAt = 0;
    /** @type {ClientMessage | null} the last move sent, until the server answers it */
    this.lastMove = null;
    /** retryable refusals in a row (the server could not store a move), for their pause */
    this.refusals = 0;
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this.resyncTimer = undefined;
    this.onOnline = () => this.reconnectNow();
    window.addEventListener("online", this.onOnline);
    this.connect();
  }

  url() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    // summary=1: this page shows each round's summary, and the next round waits until it is closed.
    const q = this.token ? `?token=${encodeURIComponent(this.token)}&summary=1` : "";
    return `${proto}//${location.host}/ws/tables/${encodeURIComponent(this.tableId)}${q}`;
  }

  connect() {
    if (this.closed) return;
    const ws = new WebSocket(this.url());
    this.ws = ws;
    this.syncedAt = 0;
    ws.onopen = () => {
      this.onStatus("open", this.wasOpen ? "reconnected" : "connected");
      this.wasOpen = true;
    };
    ws.onmessage = (ev) => {
      let msg;
      try {
        msg = /** @type {ServerMessage} */ (parseJSON(ev.data));
      } catch {
        return;
      }
      if (msg.type === "sync" && !this.syncedAt) this.syncedAt = performance.now();
      if (msg.type === "update") this.refusals = 0; // the server stores moves again
      if (msg.type === "sync" || msg.type === "update") this.lastMove = null;
      this.onMessage(msg);
    };
    ws.onclose = (ev) => {
      if (this.ws !== ws) return;
      this.ws = null;
      // A socket that synced and lived a while was a good one: the next pause starts small again.
      if (this.syncedAt && performance.now() - this.syncedAt >= STABLE_MS) this.attempt = 0;
      if (this.closed) return;
      // 4003 bad token, 4004 no such table: retrying cannot help.
      if (ev.code === 4003 || ev.code === 4004) {
        this.closed = true;
        this.onStatus("closed", ev.code);
        return;
      }
      // A move sent on this socket and never answered: the page sends it again after the resync if the table is
      // still at that move's version (it was not stored), and forgets it if the table moved on.
      const unanswered = this.lastMove;
      this.lastMove = null;
      this.onStatus("lost", ev.code, unanswered);
      this.schedule();
    };
    ws.onerror = () => {
      /* onclose follows and does the work */
    };
  }

  schedule() {
    clearTimeout(this.timer);
    const delay = retryDelay(this.attempt);
    this.attempt += 1;
    this.timer = setTimeout(() => this.connect(), delay);
  }

  /**
   * A retryable refusal of a move (the server could not store it, or its table is changing servers): ask for a
   * sync after a growing, jittered pause, and return the refused move, for the page to send again after that
   * sync if it is still legal at the sync's version (null if no move was waiting for an answer).
   * @returns {ClientMessage | null}
   */
  retryLater() {
    const move = this.lastMove;
    this.lastMove = null;
    clearTimeout(this.resyncTimer);
    const delay = retryDelay(this.refusals);
    this.refusals += 1;
    this.resyncTimer = setTimeout(() => this.send({ type: "sync" }), delay);
    return move;
  }

  reconnectNow() {
    if (this.closed || (this.ws && this.ws.readyState <= 1)) return;
    clearTimeout(this.timer);
    this.connect();
  }

  /**
   * Send a message if the socket is open; false when it is not (the caller keeps the move).
   * @param {ClientMessage} msg
   * @returns {boolean}
   */
  send(msg) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify(msg));
      if (msg.type === "move") this.lastMove = msg;
      return true;
    }
    return false;
  }

  close() {
    this.closed = true;
    clearTimeout(this.timer);
    clearTimeout(this.resyncTimer);
    window.removeEventListener("online", this.onOnline);
    if (this.ws) this.ws.close(1000);
    this.ws = null;
  }
}
