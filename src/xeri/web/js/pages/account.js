// @ts-check
// Optional accounts (docs/accounts.md): the top bar's account button and its dialog (sign in, sign up, and once
// signed in: the profile, hiding from the leaderboards, a new password, deleting, signing out). Guests play as before.

import { api } from "../net/api.js";
import { ApiError, useAccount } from "../net/http.js";
import { seats } from "../net/seats.js";
import { modal } from "../lib/modal.js";
import { byId, h } from "../lib/dom.js";
import { errorText, t } from "../lib/i18n.js";

/** @type {import("../net/types.js").Account} */
let me = { signed_in: false };
/** @type {Set<() => void>} */
const listeners = new Set();

/** @returns {import("../net/types.js").Account} who is signed in on this page now */
export function account() {
  return me;
}

/**
 * Be told when the player signs in or out (the lobby's own tables, the current view).
 * @param {() => void} fn
 * @returns {() => void} stops telling
 */
export function onAccountChange(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

/** @param {import("../net/types.js").Account} next */
function setAccount(next) {
  me = next;
  useAccount(next);
  paintButton();
  for (const fn of [...listeners]) fn();
}

/** The top bar's button: the account's name, or "Sign in" (again after a change of language). */
export function paintButton() {
  const button = document.getElementById("account-btn");
  if (!button) return;
  button.textContent = me.signed_in && me.name ? me.name : t("sign_in");
  button.setAttribute("aria-label", me.signed_in && me.name ? t("account_of", { name: me.name }) : t("sign_in"));
  button.classList.toggle("signed-in", me.signed_in);
}

/** Ask the server who is signed in (the cookie is HttpOnly: the page cannot read it), then paint the button. */
export async function loadAccount() {
  const button = byId("account-btn", HTMLButtonElement);
  button.addEventListener("click", () => openAccountDialog());
  // No network, or a table played offline (its seats are this browser's): a guest, without a request that could
  // only fail.
  if (!navigator.onLine || location.hash.startsWith("#/t/offline-")) {
    setAccount({ signed_in: false });
    return;
  }
  try {
    setAccount(await api.account());
  } catch {
    setAccount({ signed_in: false }); // offline, or no server: a guest
  }
}

/**
 * Claim this browser's guest matches into the account: the server takes those whose token it can prove.
 * @returns {Promise<number>} how many became the account's
 */
async function claimGuestSeats() {
  const held = seats.all().map(([tableId, s]) => ({ table_id: tableId, token: s.token }));
  if (!held.length) return 0;
  try {
    const res = await api.claim(held.slice(-200));
    return res.claimed.length;
  } catch {
    return 0; // a claim is a courtesy: signing in worked anyway
  }
}

/**
 * A labelled input of the dialog.
 * @param {string} id
 * @param {string} label
 * @param {Record<string, unknown>} attrs
 * @returns {[HTMLElement, HTMLInputElement]}
 */
function field(id, label, attrs) {
  const input = /** @type {HTMLInputElement} */ (h(`input#${id}`, { required: true, ...attrs }));
  return [h("div.account-field", h("label", { for: id }, label), input), input];
}

/** @param {unknown} err */
function explain(err) {
  return err instanceof ApiError ? errorText(err.code, err.message) : String(err);
}

/** The dialog: sign in or sign up when signed out; the account's own choices when signed in. */
export function openAccountDialog() {
  if (me.signed_in) signedInDialog();
  else signInDialog();
}

function signInDialog() {
  const [nameRow, name] = field("account-name", t("account_name"),
    { autocomplete: "username", maxlength: 24, minlength: 2 });
  const [passRow, password] = field("account-password", t("password"),
    { type: "password", autocomplete: "current-password", maxlength: 256 });
  const error = h("p.error-text.account-error", { role: "alert" });
  const note = h("p.account-note", t("account_note"));
  /** @type {() => void} */
  let close = () => {};
  /** @param {"in" | "up"} how */
  const go = async (how) => {
    error.textContent = "";
    if (!name.value.trim() || !password.value) {
      error.textContent = t("account_fill");
      return;
    }
    try {
      const res = how === "in" ? await api.signIn(name.value, password.value) : await api.signUp(name.value,
        password.value);
      useAccount(res);
      const claimed = await claimGuestSeats();
      close();
      setAccount(res);
      const live = document.getElementById("live");
      if (live) live.textContent = claimed ? t("account_claimed", { n: claimed }) : t("signed_in_as", {
        name: res.name || "" });
    } catch (err) {
      error.textContent = explain(err);
      password.focus();
    }
  };
  const form = h(
    "form.account-form.sign-in-form",
    {
      onsubmit: (/** @type {Event} */ ev) => {
        ev.preventDefault();
        go("in");
      },
    },
    nameRow,
    passRow,
    error,
    h("div.account-buttons",
      h("button.primary.sign-in-btn", { type: "submit" }, t("sign_in")),
      h("button.sign-up-btn", { type: "button", onclick: () => go("up") }, t("sign_up"))),
    note,
  );
  close = modal(t("account"), form, [{ label: t("close") }], { id: "account-dialog" });
  name.focus();
}

function signedInDialog() {
  const who = me.name || "";
  const error = h("p.error-text.account-error", { role: "alert" });
  const done = h("p.account-done", { role: "status" });
  const hidden = /** @type {HTMLInputElement} */ (h("input#account-hidden", { type: "checkbox", checked: me.hidden }));
  hidden.addEventListener("change", async () => {
    try {
      setAccount(await api.setHidden(hidden.checked));
      done.textContent = t("saved");
    } catch (err) {
      error.textContent = explain(err);
    }
  });
  const [oldRow, oldPassword] = field("account-old", t("password"),
    { type: "password", autocomplete: "current-password", maxlength: 256 });
  const [newRow, newPassword] = field("account-new", t("new_password"),
    { type: "password", autocomplete: "new-password", maxlength: 256, minlength: 10 });
  const change = h(
    "form.account-form.password-form",
    {
      onsubmit: async (/** @type {Event} */ ev) => {
        ev.preventDefault();
        error.textContent = done.textContent = "";
        try {
          await api.changePassword(oldPassword.value, newPassword.value);
          oldPassword.value = newPassword.value = "";
          done.textContent = t("password_changed");
        } catch (err) {
          error.textContent = explain(err);
        }
      },
    },
    h("h3", t("change_password")),
    oldRow,
    newRow,
    h("button.change-password-btn", { type: "submit" }, t("change_password")),
  );
  const [delRow, delPassword] = field("account-delete-password", t("password"),
    { type: "password", autocomplete: "current-password", maxlength: 256 });
  /** @type {() => void} */
  let close = () => {};
  const remove = h(
    "form.account-form.delete-form",
    {
      onsubmit: async (/** @type {Event} */ ev) => {
        ev.preventDefault();
        error.textContent = "";
        try {
          const res = await api.deleteAccount(delPassword.value);
          close();
          setAccount(res);
        } catch (err) {
          error.textContent = explain(err);
        }
      },
    },
    h("h3", t("delete_account")),
    h("p.delete-note", t("delete_note")),
    delRow,
    h("button.danger.delete-account-btn", { type: "submit" }, t("delete_account")),
  );
  const signOut = async () => {
    try {
      setAccount(await api.signOut());
    } catch {
      setAccount({ signed_in: false });
    }
    close();
  };
  const body = h(
    "div.account-panel",
    h("p.account-who", t("signed_in_as", { name: who })),
    h("p", h("a.btn.profile-link", { href: `#/profile/${encodeURIComponent(who)}`, onclick: () => close() },
      t("profile"))),
    h("label.pref.account-hide", { for: "account-hidden" }, hidden, " ", t("hide_from_leaderboards")),
    done,
    error,
    change,
    remove,
  );
  close = modal(t("account"), body, [
    { label: t("sign_out"), primary: true, cls: "sign-out-btn", onClick: () => signOut() },
    { label: t("close") },
  ], { id: "account-dialog" });
}
