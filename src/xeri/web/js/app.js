// @ts-check
// The page's entry point: settings in the top bar and a hash router over the views.

import { loadAccount, onAccountChange, paintButton } from "./pages/account.js";
import { cardElement, loadFaces, RANKS } from "./lib/cards.js";
import { byId, clear, h } from "./lib/dom.js";
import { detectLanguage, setLanguage, t, translateTree } from "./lib/i18n.js";
import { mountLobby } from "./pages/lobby.js";
import { packOnInstall, registerServiceWorker } from "./offline/pack.js";
import { prefs } from "./lib/prefs.js";
import { allowNotifications } from "./lib/notify.js";

/** @typedef {() => void | Promise<void>} Unmount what a view returns: it stops the view's timers and sockets */

const view = byId("view", HTMLElement);
/** @type {Unmount | null} */
let unmount = null;

/**
 * @param {HTMLElement} container
 * @returns {Unmount}
 */
function mountGallery(container) {
  const grid = h("div.gallery");
  for (const suit of ["S", "H", "D", "C"])
    for (const rank of RANKS) grid.appendChild(cardElement(rank + suit, { fourColour: prefs.get("fourColour") }));
  grid.appendChild(cardElement(null));
  clear(container).appendChild(h("section.panel", h("h1", t("cards_gallery")), grid));
  return () => {};
}

let generation = 0;

/**
 * A view whose module loads when first opened (the first visit stays light). It mounts only if its route is still
 * the current one once the module is there: a hash changed meanwhile has mounted its own view, which a late module
 * must not overwrite. If the module cannot load (the network gone before the service worker holds it), a line that
 * says so, and a way back.
 * @template M
 * @param {Promise<M>} loading
 * @param {(m: M) => Unmount | Promise<Unmount>} mount
 * @param {() => boolean} current whether this route is still the latest
 * @returns {Promise<Unmount>}
 */
async function lazy(loading, mount, current) {
  let m;
  try {
    m = await loading;
  } catch {
    const back = h("a", { href: "#/" }, t("back_lobby"));
    if (current()) clear(view).appendChild(h("section.panel", h("p", t("error")), back));
    return () => {};
  }
  return current() ? mount(m) : () => {};
}

async function route() {
  const mine = ++generation;
  const current = () => mine === generation;
  if (unmount) {
    const fn = unmount;
    unmount = null;
    await fn();
  }
  const path = decodeURIComponent(location.hash.replace(/^#/, "")) || "/";
  const parts = path.split("/").filter(Boolean);
  for (const a of document.querySelectorAll(".nav a")) a.classList.remove("active");
  for (const a of document.querySelectorAll(".nav a")) a.removeAttribute("aria-current");
  /** @param {string} id */
  const nav = (id) => {
    const link = document.getElementById(id);
    if (!link) return;
    link.classList.add("active");
    link.setAttribute("aria-current", "page");
  };
  /** @type {Unmount | Promise<Unmount>} */
  let result;
  if (parts[0] === "t" && parts[1]) {
    // The table's modules and the faces' artwork, fetched when a table is first opened (the lobby's first visit
    // carries neither), together, so that no card is drawn twice.
    result = lazy(Promise.all([import("./table/controller.js"), loadFaces()]),
      ([m]) => m.mountTable(view, parts[1], { watch: parts[2] === "watch" }), current);
  } else if (parts[0] === "history") {
    nav("nav-history");
    result = lazy(import("./pages/history.js"), (m) => m.mountHistory(view, parts[1] || null), current);
  } else if (parts[0] === "replay" && parts[1]) {
    nav("nav-history");
    const seat = parts[2] === "review" && /^\d+$/.test(parts[3] || "") ? Number(parts[3]) : null;
    result = lazy(Promise.all([import("./pages/history.js"), loadFaces()]),
      ([m]) => m.mountReplay(view, parts[1], seat), current);
  } else if (parts[0] === "profile" && parts[1]) {
    result = lazy(import("./pages/profile.js"), (m) => m.mountProfile(view, parts[1]), current);
  } else if (parts[0] === "leaderboard") {
    result = lazy(import("./pages/leaderboard.js"), (m) => m.mountLeaderboard(view, parts[1] || "classic-2p"), current);
  } else if (parts[0] === "stats") {
    nav("nav-stats");
    result = lazy(import("./pages/history.js"), (m) => m.mountStats(view, parts[1] || null), current);
  } else if (parts[0] === "help") {
    nav("nav-help");
    result = lazy(import("./pages/help.js"), (m) => m.mountHelp(view), current);
  } else if (parts[0] === "cards") {
    result = lazy(loadFaces(), () => mountGallery(view), current);
  } else {
    nav("nav-lobby");
    result = mountLobby(view);
  }
  const cleanup = await result;
  if (mine !== generation) {
    if (cleanup) cleanup();
    return;
  }
  unmount = cleanup;
}

/** @param {string} lang */
function applyLanguage(lang) {
  setLanguage(lang);
  translateTree(document.body);
  paintButton();
  byId("pref-lang", HTMLSelectElement).value = lang;
}

/** The theme in force on <html data-theme>: the player's choice, else the system's (prefers-color-scheme). */
function applyTheme() {
  const chosen = prefs.get("theme");
  const light = window.matchMedia("(prefers-color-scheme: light)").matches;
  const theme = chosen === "light" || chosen === "dark" ? chosen : light ? "light" : "dark";
  document.documentElement.dataset.theme = theme;
  const meta = document.querySelector('meta[name="theme-color"]');
  if (meta) meta.setAttribute("content", theme === "light" ? "#dcebdc" : "#175338");
}

/** The card size on <html data-card-size>, which the stylesheet scales the cards by. */
function applyCardSize() {
  document.documentElement.dataset.cardSize = prefs.get("cardSize") || "medium";
}

/**
 * The Settings pop-up (a <details>): it closes on Esc (the focus back on its button), on a click or a focus
 * outside it, and on a change of page, so it never stays open over the view.
 */
function settingsMenu() {
  const menu = /** @type {HTMLDetailsElement} */ (document.querySelector(".prefs-menu"));
  const summary = /** @type {HTMLElement} */ (menu.querySelector("summary"));
  const close = () => {
    menu.open = false;
  };
  document.addEventListener("keydown", (ev) => {
    if (ev.key !== "Escape" || !menu.open) return;
    const inside = menu.contains(/** @type {Node} */ (document.activeElement));
    close();
    if (inside) summary.focus();
  });
  document.addEventListener("pointerdown", (ev) => {
    if (menu.open && !menu.contains(/** @type {Node} */ (ev.target))) close();
  });
  document.addEventListener("focusin", (ev) => {
    if (menu.open && !menu.contains(/** @type {Node} */ (ev.target))) close();
  });
  window.addEventListener("hashchange", close);
  /**
   * A <select> of the menu bound to its preference.
   * @template {"theme" | "motion" | "cardSize"} K
   * @param {string} id
   * @param {K} key
   */
  const bind = (id, key) => {
    const node = byId(id, HTMLSelectElement);
    node.value = String(prefs.get(key));
    node.addEventListener("change",
      () => prefs.set(key, /** @type {import("./lib/prefs.js").Prefs[K]} */ (node.value)));
  };
  bind("pref-theme", "theme");
  bind("pref-motion", "motion");
  // The system's reduced motion turns the animations off whatever the setting (prefs.motion()): the menu says so.
  const motionSelect = byId("pref-motion", HTMLSelectElement);
  const calm = window.matchMedia("(prefers-reduced-motion: reduce)");
  const showMotion = () => {
    motionSelect.disabled = calm.matches;
    motionSelect.value = calm.matches ? "off" : String(prefs.get("motion"));
    motionSelect.title = calm.matches ? t("motion_system") : "";
  };
  showMotion();
  calm.addEventListener("change", showMotion);
  bind("pref-size", "cardSize");
  // The faces: the figures' artwork is loaded before the choice is kept, so the cards are drawn once, with it.
  const faces = byId("pref-faces", HTMLSelectElement);
  faces.value = prefs.get("faces");
  faces.addEventListener("change", () => {
    const chosen = faces.value === "index" ? "index" : "figures";
    void loadFaces(chosen).then(() => prefs.set("faces", chosen));
  });
  const sound = byId("pref-sound", HTMLInputElement);
  sound.checked = Boolean(prefs.get("sound"));
  sound.addEventListener("change", () => prefs.set("sound", sound.checked));
  const notifications = byId("pref-notify", HTMLInputElement);
  notifications.checked = Boolean(prefs.get("notify"));
  notifications.addEventListener("change", async () => {
    const on = notifications.checked && (await allowNotifications());
    notifications.checked = on;
    prefs.set("notify", on);
  });
}

function start() {
  applyTheme();
  applyCardSize();
  window.matchMedia("(prefers-color-scheme: light)").addEventListener("change", applyTheme);
  applyLanguage(detectLanguage(prefs.get("lang"), navigator.languages || [navigator.language]));
  settingsMenu();
  const four = byId("pref-four", HTMLInputElement);
  four.checked = Boolean(prefs.get("fourColour"));
  four.addEventListener("change", () => prefs.set("fourColour", four.checked));
  const lang = byId("pref-lang", HTMLSelectElement);
  lang.addEventListener("change", () => {
    prefs.set("lang", lang.value);
    applyLanguage(lang.value);
    route();
  });
  prefs.onChange((key) => {
    if (key === "theme") applyTheme();
    if (key === "cardSize") applyCardSize();
    if ((key === "fourColour" || key === "faces") && !location.hash.startsWith("#/t/")) route();
  });
  // The skip link goes to the game: the hand at a table, else the view.
  byId("skip-link", HTMLAnchorElement).addEventListener("click", (ev) => {
    ev.preventDefault();
    /** @type {HTMLElement} */
    const target = view.querySelector(".hand .card-btn") || view.querySelector(".hand") || view;
    target.focus();
  });
  // Who is signed in, before the first view: a table's socket then asks for the account's seat. Routes follow the
  // hash only from then on: a hash changed while the account was asked for is the first route's, not a second
  // mount of the same view (a table's second socket).
  loadAccount().finally(() => {
    window.addEventListener("hashchange", route);
    route();
    onAccountChange(() => route());
  });
  // Installable and offline: the service worker keeps the page; a new version waits until the player reloads.
  registerServiceWorker((reload) => {
    if (document.querySelector(".update-banner")) return;
    document.body.appendChild(h("div.update-banner", { role: "status" }, h("span", t("update_ready")), " ",
      h("button.update-reload", { type: "button", onclick: reload }, t("update_reload"))));
  });
  packOnInstall();
}

start();
