// @ts-check
// HTTP calls to `xeri serve` (docs/protocol.md): one request with the session's CSRF token, its errors as ApiError.

/** @typedef {import("./types.js").Account} Account */

/**
 * The signed-in session's CSRF token (account.js sets it): every POST sends it, as docs/accounts.md asks of a
 * request that carries the session cookie; null for a guest.
 * @type {string | null}
 */
let csrfToken = null;
/** Whether a session is signed in: a table's socket then asks for the account's seat (`?account=1`). */
let signedIn = false;

/** @returns {boolean} */
export function isSignedIn() {
  return signedIn;
}

/**
 * @param {Account} account
 */
export function useAccount(account) {
  csrfToken = account.signed_in ? account.csrf || null : null;
  signedIn = account.signed_in;
}

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
 * One call of the HTTP API; its answer is the JSON the server documents for that path (docs/protocol.md).
 * @template T
 * @param {string} method
 * @param {string} path
 * @param {unknown} [body]
 * @returns {Promise<T>}
 */
export async function request(method, path, body) {
  /** @type {Record<string, string>} */
  const headers = { Accept: "application/json" };
  /** @type {RequestInit} */
  const init = { method, headers };
  if (body !== undefined) {
    headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  if (method !== "GET" && csrfToken) headers["X-CSRF-Token"] = csrfToken;
  let response;
  try {
    response = await fetch(path, init);
  } catch (err) {
    throw new ApiError(0, "network", String(err instanceof Error && err.message ? err.message : err));
  }
  /** @type {unknown} */
  let data = null;
  try {
    data = JSON.parse(await response.text());
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

