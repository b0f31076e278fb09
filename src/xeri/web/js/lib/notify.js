// @ts-check
// A word to a player who is elsewhere (issue 41): while the tab is hidden, its title says that it is their turn or
// that they were paired, and the system's notification says it too where the player allowed it in Settings
// (prefs "notify", which asks the browser's permission when turned on). The sound is the caller's.

import { t } from "./i18n.js";
import { prefs } from "./prefs.js";

/** The page's own title while a word shows in it; "" while none does. */
let kept = "";

/**
 * Say `key`'s words to a player whose tab is hidden; nothing when they are looking.
 * @param {string} key an i18n key: "notify_turn", "notify_paired"
 */
export function notify(key) {
  if (!document.hidden) return;
  const text = t(key);
  if (!kept) kept = document.title;
  document.title = `● ${text} · ${kept}`;
  if (prefs.get("notify") && "Notification" in window && Notification.permission === "granted") {
    try {
      new Notification(text, { tag: "xeri", icon: "/static/icon.svg", lang: document.documentElement.lang });
    } catch {
      // a browser that allows notifications only from a service worker: the title and the sound say it
    }
  }
}

document.addEventListener("visibilitychange", () => {
  if (!document.hidden && kept) {
    document.title = kept;
    kept = "";
  }
});

/**
 * The Settings' switch turned on: ask the browser once; a refusal turns the switch back off.
 * @returns {Promise<boolean>} whether notifications may show
 */
export async function allowNotifications() {
  if (!("Notification" in window)) return false;
  if (Notification.permission === "default") return (await Notification.requestPermission()) === "granted";
  return Notification.permission === "granted";
}
