// @ts-check
// The service worker (served as /sw.js, scope /): the page loads with no network, and updates cleanly.
//
// The server writes VERSION (a hash of the page's files) and SHELL (their URLs) below, so any change to the page is a
// new service worker. It caches every file of its version together when it installs, and serves only from that
// cache; it takes over from the old one only when the page asks ("skip-waiting", after the player chose to reload)
// or once no page of the old version is open. So a page never mixes old and new files.
//
// It also answers, from what offline.js stored: the offline pack (/offline/..., Cache Storage), an offline match's
// record (/api/matches/offline-.../record, IndexedDB), and the last lobby data (/api/meta, network first).

const VERSION = "dev";
const SHELL = ["/"];

const SHELL_CACHE = `xeri-shell-${VERSION}`;
const PACK_CACHE = "xeri-pack-";
const DATA_CACHE = "xeri-data";
const DB_NAME = "xeri-offline";
const STORE = "matches";

/** @typedef {{ waitUntil: (p: Promise<unknown>) => void }} Extendable */
/** @typedef {Extendable & { request: Request, respondWith: (r: Response | Promise<Response>) => void }} Fetching */
/** @typedef {Extendable & { data: unknown }} Told */
/**
 * The parts of ServiceWorkerGlobalScope used here (the checker's library is the page's, not a worker's).
 * @typedef {{ addEventListener: (type: string, listener: (ev: any) => void) => void, skipWaiting: () => Promise<void>,
 *   clients: { claim: () => Promise<void> } }} Scope
 */
const sw = /** @type {Scope} */ (/** @type {unknown} */ (self));

sw.addEventListener("install", (/** @type {Extendable} */ ev) => {
  // Every file anew from the server (revalidated), into this version's own cache; the data for an offline lobby.
  ev.waitUntil((async () => {
    const cache = await caches.open(SHELL_CACHE);
    await cache.addAll(SHELL.map((url) => new Request(url, { cache: "no-cache" })));
    try {
      const meta = await fetch("/api/meta", { cache: "no-cache" });
      if (meta.ok) await (await caches.open(DATA_CACHE)).put("/api/meta", meta);
    } catch {
      /* the lobby's data is cached on its next visit */
    }
  })());
});

sw.addEventListener("activate", (/** @type {Extendable} */ ev) => {
  ev.waitUntil((async () => {
    for (const key of await caches.keys()) {
      if (key.startsWith("xeri-shell-") && key !== SHELL_CACHE) await caches.delete(key);
    }
    await sw.clients.claim();
  })());
});

sw.addEventListener("message", (/** @type {Told} */ ev) => {
  const data = /** @type {{ type?: string } | null} */ (ev.data);
  if (data && data.type === "skip-waiting") void sw.skipWaiting();
});

/**
 * An offline match's record from IndexedDB, as the server would send it; 404 when this browser has none.
 * @param {string} id
 * @returns {Promise<Response>}
 */
function storedRecord(id) {
  return new Promise((resolve) => {
    const missing = () => resolve(new Response(JSON.stringify({ error: { code: "no_such_match",
      message: "there is no such match" } }), { status: 404, headers: { "Content-Type": "application/json" } }));
    const req = indexedDB.open(DB_NAME, 1);
    req.onupgradeneeded = () => req.result.createObjectStore(STORE, { keyPath: "id" });
    req.onerror = missing;
    req.onsuccess = () => {
      const db = req.result;
      const get = db.transaction(STORE, "readonly").objectStore(STORE).get(id);
      get.onerror = () => { db.close(); missing(); };
      get.onsuccess = () => {
        db.close();
        const entry = get.result;
        if (!entry || !entry.record) return missing();
        resolve(new Response(entry.record, { headers: { "Content-Type": "application/json",
          "Content-Disposition": `attachment; filename="xeri-${id}.json"` } }));
      };
    };
  });
}

/**
 * A file of the pack, from the newest pack cache; the network if no pack holds it.
 * @param {Request} request
 * @returns {Promise<Response>}
 */
async function packFile(request) {
  const names = (await caches.keys()).filter((k) => k.startsWith(PACK_CACHE));
  for (const name of names) {
    const hit = await (await caches.open(name)).match(request, { ignoreSearch: true });
    if (hit) return hit;
  }
  return fetch(request);
}

/**
 * The lobby's data: the network's, kept for the next time there is none.
 * @param {Request} request
 * @returns {Promise<Response>}
 */
async function networkFirst(request) {
  const cache = await caches.open(DATA_CACHE);
  try {
    const response = await fetch(request);
    if (response.ok) await cache.put("/api/meta", response.clone());
    return response;
  } catch (err) {
    const kept = await cache.match("/api/meta");
    if (kept) return kept;
    throw err;
  }
}

sw.addEventListener("fetch", (/** @type {Fetching} */ ev) => {
  const request = ev.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== location.origin) return;
  const path = url.pathname;
  if (SHELL.includes(path)) {
    // The page's files from this version's cache: all of one version, with or without a network.
    ev.respondWith(caches.open(SHELL_CACHE).then((c) => c.match(path)).then((hit) => hit || fetch(request)));
    return;
  }
  if (path.startsWith("/offline/")) {
    ev.respondWith(packFile(request));
    return;
  }
  const record = /^\/api\/matches\/(offline-[\w-]+)\/record$/.exec(path);
  if (record) {
    ev.respondWith(storedRecord(record[1]));
    return;
  }
  if (path === "/api/meta") ev.respondWith(networkFirst(request));
});
