// Small helpers shared by the pages: JSON fetches and DOM building, and this browser's player.

const PLAYER = "kumite.player";

// This browser's player ({id, name, key}) or null. The key is a secret: it is sent only to
// this server, in a header (never in an address), and shown nowhere.
export function player() {
  try {
    const stored = JSON.parse(window.localStorage.getItem(PLAYER) || "null");
    return stored && typeof stored.key === "string" ? stored : null;
  } catch {
    return null;
  }
}

export function keepPlayer(made) {
  window.localStorage.setItem(PLAYER, JSON.stringify({ id: made.id, name: made.name, key: made.key }));
}

export function forgetPlayer() {
  window.localStorage.removeItem(PLAYER);
}

export async function api(path, options = {}) {
  const me = player();
  const headers = { "content-type": "application/json" };
  if (me) headers["X-Kumite-Player"] = me.key;
  const response = await fetch(path, {
    headers,
    ...options,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await response.text();
  const data = text ? JSON.parse(text) : null;
  if (!response.ok) {
    const detail = data && data.detail;
    const message = typeof detail === "string" ? detail
      : Array.isArray(detail) ? detail.map((d) => d.msg).join("; ") : response.statusText;
    throw new Error(message);
  }
  return data;
}

// h("div.card.small", {title: "x"}, child, "text") -> element
export function h(tag, attrs = {}, ...children) {
  const [name, ...classes] = tag.split(".");
  const el = document.createElement(name || "div");
  if (classes.length) el.className = classes.join(" ");
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on")) el.addEventListener(key.slice(2), value);
    else if (key === "dataset") Object.assign(el.dataset, value);
    else if (value === true) el.setAttribute(key, "");
    else el.setAttribute(key, value);
  }
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

export function clear(el) {
  while (el.firstChild) el.removeChild(el.firstChild);
  return el;
}

export const MARKS = { estimate: "*", reconstructed: "†" };

// The provenance mark of one card value: "" for rulebook/source values.
export function mark(card, field) {
  const prov = card.provenance && card.provenance[field];
  if (!prov) return "";
  const label = prov.from.split(":")[0];
  return MARKS[label] || "";
}

export function provenanceTitle(card, field) {
  const prov = card.provenance && card.provenance[field];
  if (!prov) return undefined;
  return `${field}: ${prov.from}${prov.note ? " — " + prov.note : ""}`;
}
