// @ts-check
// A tiny element builder, so views read as their structure.

/**
 * What h() appends: text, nodes, nested arrays; null, undefined and false are skipped.
 * @typedef {string | number | boolean | Node | null | undefined | Child[]} Child
 */

/**
 * h()'s attributes: `on<event>` handlers get that event's type; `dataset` fills data-*; `text` the text; other keys
 * set a property (when the element has it and the value is not a string) or an attribute.
 * @typedef {{ [K in keyof EventMap as `on${K}`]?: ((ev: EventMap[K]) => unknown) | null }
 *   & { dataset?: Record<string, string> } & Record<string, unknown>} Attrs
 */
/** @typedef {GlobalEventHandlersEventMap} EventMap */

/**
 * The element a tag name makes: "input" an HTMLInputElement, an unknown name an HTMLElement.
 * @template {string} T
 * @typedef {T extends keyof HTMLElementTagNameMap ? HTMLElementTagNameMap[T] : HTMLElement} TagElement
 */

/**
 * The element a spec makes: h("input.join-name#join-name") is an HTMLInputElement.
 * @template {string} S
 * @typedef {S extends `${infer T}.${string}` ? TagElement<T>
 *   : S extends `${infer T}#${string}` ? TagElement<T> : TagElement<S>} SpecElement
 */

/**
 * h("div.class#id", {attr: v, onclick: fn}, child, ...): children may be strings, nodes, arrays or null.
 * @template {string} S
 * @param {S} spec
 * @param {Attrs | Child} [attrs]
 * @param {...Child} children
 * @returns {SpecElement<S>}
 */
export function h(spec, attrs = {}, ...children) {
  const m = /^([a-z0-9-]+)?((?:[.#][\w-]+)*)$/i.exec(spec);
  const node = document.createElement((m && m[1]) || "div");
  if (m && m[2]) {
    for (const part of m[2].match(/[.#][\w-]+/g) || []) {
      if (part[0] === ".") node.classList.add(part.slice(1));
      else node.id = part.slice(1);
    }
  }
  if (attrs && (typeof attrs !== "object" || attrs instanceof Node || Array.isArray(attrs))) {
    children.unshift(attrs);
    attrs = {};
  }
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v == null || v === false) continue;
    if (k.startsWith("on") && typeof v === "function") node.addEventListener(k.slice(2), v);
    else if (k === "dataset") Object.assign(node.dataset, v);
    else if (k === "text") node.textContent = String(v);
    else if (k in node && typeof v !== "string") Reflect.set(node, k, v);
    else node.setAttribute(k, v === true ? "" : String(v));
  }
  append(node, children);
  return /** @type {SpecElement<S>} */ (node);
}

/**
 * @param {Node} node
 * @param {Child[]} children
 */
function append(node, children) {
  for (const child of children) {
    if (child == null || child === false) continue;
    if (Array.isArray(child)) append(node, child);
    else node.appendChild(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/**
 * An element of the page's shell (index.html): there, and of its kind, or a clear error.
 * @template {HTMLElement} E
 * @param {string} id
 * @param {{ new (): E, prototype: E }} kind the element's class, as HTMLSelectElement
 * @returns {E}
 */
export function byId(id, kind) {
  const node = document.getElementById(id);
  if (!(node instanceof kind)) throw new Error(`index.html has no element #${id} of the expected kind`);
  return node;
}

/**
 * Remove every child of a node.
 * @template {Node} N
 * @param {N} node
 * @returns {N}
 */
export function clear(node) {
  while (node.firstChild) node.removeChild(node.firstChild);
  return node;
}
