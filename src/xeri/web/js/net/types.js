// @ts-check
// The names the page's modules import the server's messages by (declared once, in protocol.d.ts, which
// scripts/protocol_schema.py writes from the server's own models: docs/protocol.schema.json), and the transport's
// shapes. Types only: nothing here runs.


/**
 * docs/protocol.md's TABLE; `offline`: played in this browser by the offline engine (offline.js).
 * @typedef {import("../protocol.js").Table & { offline?: boolean }} Table
 */
/** @typedef {import("../protocol.js").TableSeat} Seat one seat of a TABLE */
/** @typedef {import("../protocol.js").Ruleset} Ruleset a preset with every option (TABLE's `ruleset`) */
/** @typedef {NonNullable<import("../protocol.js").CreateTable["options"]>} RuleOptions rule options to ask for */
/**
 * POST /api/tables; `offline`: play it in this browser, with no network (the offline engine).
 * @typedef {import("../protocol.js").CreateTable & { offline?: boolean }} NewTable
 */
/** @typedef {import("../protocol.js").Pause} Pause the seats still reading a round's summary */
/** @typedef {import("../protocol.js").Timer} Timer the seconds before a bot plays */
/** @typedef {import("../protocol.js").View} View docs/protocol.md's VIEW; a replay's STATE adds `hands` */
/** @typedef {import("../protocol.js").Breakdown} Breakdown one side's score of a round */
/** @typedef {import("../protocol.js").Round} Round a finished round (ROUND) */
/** @typedef {import("../protocol.js").GameEvent} GameEvent an EVENT, told apart by `kind`
 * (docs/reference/protocol-messages.md) */
/** @typedef {import("../protocol.js").PlayedEvent} PlayedEvent */
/** @typedef {Omit<import("../protocol.js").HintMessage, "type" | "ref">} Hint a card and why (`code`, `params`) */
/** @typedef {import("../protocol.js").ServerMessage} ServerMessage every message on a table's socket */
/** @typedef {import("../protocol.js").ClientMessage} ClientMessage what the page sends on it */
/** @typedef {import("../protocol.js").Seated} Seated a join's answer */
/** @typedef {import("../protocol.js").SeekState} SeekState "Play online": waiting, or paired with a seat */
/** @typedef {import("../protocol.js").ServerMeta} Meta GET /api/meta */
/** @typedef {import("../protocol.js").OfflineMeta} OfflineMeta the server's offline pack */
/** @typedef {import("../protocol.js").MatchSummary} MatchSummary a finished match in GET /api/matches */
/** @typedef {import("../protocol.js").Step} Step */
/** @typedef {import("../protocol.js").Replay} Replay */
/** @typedef {import("../protocol.js").Stats} Stats */
/** @typedef {import("../protocol.js").Effect} Effect */
/** @typedef {import("../protocol.js").ReviewedMove} ReviewedMove one reviewed move (`xeri review --json`) */
/** @typedef {import("../protocol.js").Review} Review `xeri review --json`'s object */
/** @typedef {import("../protocol.js").ReviewProgress} ReviewProgress */
/** @typedef {import("../protocol.js").Fairness} Fairness GET /api/tables/{id}/fairness */
/** @typedef {import("../protocol.js").Verdict} Verdict POST /api/verify */
/** @typedef {import("../protocol.js").Account} Account GET /api/account: who is signed in (docs/accounts.md) */
/** @typedef {import("../protocol.js").AccountTables} AccountTables the account's open tables */
/** @typedef {import("../protocol.js").Claimed} Claimed the seats a claim made the account's */
/** @typedef {import("../protocol.js").Profile} Profile GET /api/profiles/{name} */
/** @typedef {import("../protocol.js").RatingPoint} RatingPoint a profile's rating after one rated match */
/** @typedef {import("../protocol.js").Leaderboard} Leaderboard GET /api/leaderboards/{format} */

/**
 * What a table's socket hands its owner: every server message, and the connection's state ("lost" with the move
 * sent on it that was never answered).
 * @typedef {{ onMessage: (msg: ServerMessage) => void,
 *   onStatus: (status: "open" | "lost" | "closed", detail: string | number,
 *     unanswered?: ClientMessage | null) => void }} TransportHandlers
 */
/**
 * A table's connection: the WebSocket (TableSocket) or the offline engine (offline-engine.js's OfflineSocket). The
 * table view uses only this, so it cannot tell the two apart.
 * @typedef {{ send: (msg: ClientMessage) => boolean, retryLater: () => ClientMessage | null, close: () => void }}
 *   Transport
 */
/**
 * The offline engine's side of the API (offline.js registers it with useOffline, offline-engine.js answers): the calls
 * of offline tables, answered by the same Python as the server's, in a Web Worker.
 * @typedef {object} OfflineApi
 * @property {(tableId: string, token: string | null, handlers: TransportHandlers) => Transport} open
 * @property {(body: NewTable) => Promise<Seated>} createTable
 * @property {(id: string) => Promise<Table>} table
 * @property {(player?: string | null) => Promise<MatchSummary[]>} matches finished offline matches, newest first
 * @property {(id: string) => string | null} recordUrl the finished record's blob: URL, once this page has it
 * @property {(id: string) => Promise<Replay>} replay
 * @property {(id: string, seat: number) => Promise<ReviewProgress>} review
 * @property {(body: Record<string, unknown>) => Promise<Verdict>} verify
 */


/** @typedef {{ seat: number, token: string, at?: number }} SavedSeat a seat token kept in this browser */

export {};
