// @ts-check
// Playing with no network: the service worker (sw.js) that keeps the page, the offline pack (Pyodide and the wheel
// of xeri's core and bots) downloaded when the player asks, and the offline engine's API, registered with api.js.
// The engine itself (offline-engine.js: the Web Worker, the OfflineSocket, the saved matches) loads only when an
// offline table is opened or listed: a first visit does not carry it.

import { ApiError } from "../net/http.js";
import { useOffline } from "../net/api.js";

/** @typedef {import("../net/types.js").TransportHandlers} TransportHandlers */
/** @typedef {import("../net/types.js").ClientMessage} ClientMessage */

/** localStorage: the installed pack ({ version, levels, bytes }). */
const PACK_KEY = "xeri.offlinePack";
/** The Cache Storage cache of a pack version (sw.js answers /offline/... from it). */
const PACK_CACHE = "xeri-pack-";
/** @typedef {{ version: string, levels: string[], bytes: number }} PackInfo */

// ---- the service worker: the page loads with no network, and a new version takes over only when asked ----

/**
 * Register sw.js once the page has loaded (never in the way of the first visit), and call `onUpdate` when a new
 * version of the page is ready: its files are cached together, and it takes over when the player reloads.
 * @param {(reload: () => void) => void} onUpdate
 */
export function registerServiceWorker(onUpdate) {
  if (!("serviceWorker" in navigator)) return;
  const container = navigator.serviceWorker;
  let reloading = false;
  container.addEventListener("controllerchange", () => {
    // Only when the player asked for the new version: a first install claims the page and changes nothing.
    if (!reloading) return;
    location.reload();
  });
  const start = async () => {
    let registration;
    try {
      registration = await container.register("/sw.js", { scope: "/" });
    } catch {
      return; // no service worker (a private window that refuses it): the page works online as before
    }
    // A browser that blocks service workers resolves the registration with nothing: the page works online as before.
    if (!registration) return;
    /** @param {ServiceWorker} waiting */
    const offer = (waiting) => {
      if (!container.controller) return;
      onUpdate(() => {
        reloading = true;
        waiting.postMessage({ type: "skip-waiting" });
      });
    };
    if (registration.waiting) offer(registration.waiting);
    registration.addEventListener("updatefound", () => {
      const next = registration.installing;
      if (!next) return;
      next.addEventListener("statechange", () => {
        if (next.state === "installed") offer(next);
      });
    });
  };
  if (document.readyState === "complete") void start();
  else window.addEventListener("load", () => void start(), { once: true });
}

// ---- the pack ----

/** @returns {PackInfo | null} the pack this browser holds, or null */
export function installedPack() {
  try {
    const info = JSON.parse(localStorage.getItem(PACK_KEY) || "null");
    return info && typeof info.version === "string" ? info : null;
  } catch {
    return null;
  }
}

/**
 * Download the offline pack into Cache Storage (its files, the manifest and the worker), then drop older packs.
 * @param {(done: number, total: number) => void} [onProgress] bytes so far and in all
 * @returns {Promise<PackInfo>}
 */
export async function installPack(onProgress) {
  const answer = await fetch("/offline/pack.json", { cache: "no-cache" });
  if (!answer.ok) throw new ApiError(answer.status, "no_offline_pack", "this server serves no offline pack");
  /** @type {{ version: string, levels: string[], bytes: number, files: { path: string, bytes: number }[] }} */
  const manifest = await answer.clone().json();
  const name = PACK_CACHE + manifest.version;
  const cache = await caches.open(name);
  let done = 0;
  if (onProgress) onProgress(done, manifest.bytes);
  for (const file of manifest.files) {
    const url = `/offline/${file.path}`;
    if (!(await cache.match(url))) {
      const response = await fetch(url, { cache: "no-cache" });
      if (!response.ok) throw new ApiError(response.status, "no_offline_pack", `${url}: HTTP ${response.status}`);
      await cache.put(url, response);
    }
    done += file.bytes;
    if (onProgress) onProgress(done, manifest.bytes);
  }
  const worker = await fetch("/offline/worker.js", { cache: "no-cache" });
  if (!worker.ok) throw new ApiError(worker.status, "no_offline_pack", "the offline worker is missing");
  await cache.put("/offline/worker.js", worker);
  await cache.put("/offline/pack.json", answer);
  for (const key of await caches.keys()) if (key.startsWith(PACK_CACHE) && key !== name) await caches.delete(key);
  const info = { version: manifest.version, levels: manifest.levels, bytes: manifest.bytes };
  localStorage.setItem(PACK_KEY, JSON.stringify(info));
  return info;
}

/** Download the pack when the player installs the app (the "or installs the app"), if the server has one. */
export function packOnInstall() {
  window.addEventListener("appinstalled", () => {
    if (!installedPack()) installPack().then(warmEngine, () => {});
  });
}

// ---- the engine, loaded when first needed ----

/** @returns {Promise<typeof import("./engine.js")>} */
const load = () => import("./engine.js").then((m) => {
  recordUrls = m.recordUrls;
  return m;
});

/**
 * Start the offline engine when the page is idle, if this browser holds the pack: "Play offline" then finds Python
 * loaded, or loading. Nothing for a browser without the pack (a first visit downloads nothing of it).
 */
export function warmEngine() {
  if (!installedPack()) return;
  const start = () => void load().then((m) => m.offlineEngine(), () => {});
  if ("requestIdleCallback" in window) window.requestIdleCallback(start, { timeout: 2000 });
  else setTimeout(start, 200);
}

/**
 * An offline table's Transport until the engine's module is there: nothing is sent before (the table keeps its
 * move, as with a socket not yet open), then the engine's OfflineSocket does the work.
 */
class LazySocket {
  /**
   * @param {string} tableId
   * @param {string | null} token
   * @param {TransportHandlers} handlers
   */
  constructor(tableId, token, handlers) {
    /** @type {import("../net/types.js").Transport | null} */
    this.inner = null;
    this.closed = false;
    load().then(
      (m) => {
        if (!this.closed) this.inner = new m.OfflineSocket(tableId, token, handlers);
      },
      () => handlers.onStatus("closed", 4004),
    );
  }

  /**
   * @param {ClientMessage} msg
   * @returns {boolean}
   */
  send(msg) {
    return this.inner ? this.inner.send(msg) : false;
  }

  /** @returns {ClientMessage | null} */
  retryLater() {
    return null;
  }

  close() {
    this.closed = true;
    if (this.inner) this.inner.close();
  }
}

/** @type {Map<string, string>} the records' blob: URLs the engine made, once it is loaded */
let recordUrls = new Map();

useOffline({
  open: (tableId, token, handlers) => new LazySocket(tableId, token, handlers),
  createTable: async (body) => (await load()).engineApi.createTable(body),
  table: async (id) => (await load()).engineApi.table(id),
  recordUrl: (id) => recordUrls.get(id) || null,
  // No pack, no offline match: History does not load the engine for nothing.
  matches: async (player) => (installedPack() ? (await load()).engineApi.matches(player) : []),
  replay: async (id) => (await load()).engineApi.replay(id),
  review: async (id, seat) => (await load()).engineApi.review(id, seat),
  verify: async (body) => (await load()).engineApi.verify(body),
});
