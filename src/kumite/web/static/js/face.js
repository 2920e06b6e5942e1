// What every face (a game's table.js, and generic.js for a game without one) shares with the
// pages that show it (table.js live, replay.js step by step): its styles, its board started
// afresh, the decision as a map of the board elements its choices target, the seats' names as
// the server made them, and the one context a page hands a face. Game ids never appear here.
//
// A face exports renderView(container, ctx), which draws the whole board from ctx (below);
// the page redraws it on every update (and ctx.rerender() redraws it at once, for a choice
// being assembled), keeping the keyboard focus and bringing the decision into sight. It may
// export seatAliases(view) (what its events call a seat besides "Player N") and
// chatRules(channel) (a fallback for the chat's rules).
import { clear, h } from "./api.js";

// -- styles and the board ------------------------------------------------------------------------

// A face's stylesheet, linked once: `id` names the <link>, `href` is the face's CSS.
export function ensureStyles(id, href) {
  if (document.getElementById(id)) return;
  document.head.append(h("link", { id, rel: "stylesheet", href }));
}

// A face's board, started afresh: its styles linked, the container emptied and given the face's
// class ({id, css, className}; each part optional).
export function startBoard(container, { id, css, className } = {}) {
  if (css) ensureStyles(`${id}-css`, css);
  clear(container);
  if (className) container.classList.add(className);
  return container;
}

// -- the decision ------------------------------------------------------------------------------

// A decision's choices as the server sends them (docs/protocol.md, "Choices"): each with its
// label, its verb and the element of the table it targets. Faces find what to click from the
// targets; no front end reads a choice string.

// A target as a key: {zone: "hand", card: "x"} -> "hand|x", {zone: "line", seat: 3, card: "x"}
// -> "line|3|x", {zone: "arena", index: 0} -> "arena|0", {zone: "kick"} -> "kick", {seat: 2}
// -> "seat|2", {role: "r"} -> "role|r"; null for no target.
export function targetKey(target) {
  if (!target) return null;
  if (target.role !== undefined) return `role|${target.role}`;
  if (target.zone === undefined) return `seat|${target.seat}`;
  return [target.zone, target.index, target.seat, target.card, ...(target.cards || [])]
    .filter((part) => part !== undefined && part !== null).join("|");
}

// The decision as a face reads it: `choices` in order ({id, label, verb, target}), `kind`, and
//   at(target)     the first choice targeting that element of the table (undefined: none);
//   label(choice)  what the server calls that choice;
//   whyNot(target) why that element cannot be chosen now (the game's own reason), if the
//                  server said;
//   aims(zone)     whether some choice targets a card of that zone;
//   placed(choice) whether that choice targets an element of the table (else: a button only).
// An empty map for no decision.
export function decisionMap(decision) {
  const byTarget = new Map();
  const labels = new Map();
  const why = new Map();
  const choices = !decision ? [] : decision.choices
    || decision.legal.map((id, i) => ({ id, label: (decision.labels || [])[i] || id, verb: null, target: null }));
  for (const c of choices) {
    labels.set(c.id, c.label);
    const key = targetKey(c.target);
    if (key && !byTarget.has(key)) byTarget.set(key, c.id);
  }
  for (const u of (decision && decision.unplayable) || []) why.set(targetKey(u.target), u.reason);
  const placed = new Set(byTarget.values());
  return {
    choices,
    kind: decision ? decision.kind : null,
    at: (target) => byTarget.get(targetKey(target)),
    label: (choice) => labels.get(choice),
    whyNot: (target) => why.get(targetKey(target)),
    aims: (zone) => choices.some((c) => c.target && c.target.zone === zone),
    placed: (choice) => placed.has(choice),
  };
}

// -- seats' names ----------------------------------------------------------------------------

// Every seat is called by the name the server made for it (one name per seat:
// kumite/server/naming.py) and marked by what it is to this page's seat, as the server marks
// it; no page or face makes a name.

// A seat's name alone ("Ana").
export function plainName(state, index) {
  const s = state && state.seats && state.seats[index];
  return s && s.name ? s.name : "";
}

// A seat's name with its mark ("Ana (you)", "Bo (rival)"), as naming.labelled writes it.
export function seatLabel(state, index) {
  const name = plainName(state, index);
  const mark = state && state.marks ? state.marks[index] : "";
  return mark ? `${name} (${mark})` : name;
}

// The rules' texts name a seat by its number ("Player 2"), and a game's view may call it in
// its own words (a face's seatAliases(view): [text, seat] pairs, "P1 Zorro"): each is shown
// by the seat's name as the server sends it.
export function withNames(text, seats, aliases = []) {
  if (!seats || !text) return text;
  let out = text;
  for (const [alias, seat] of [...aliases].sort((a, b) => b[0].length - a[0].length)) {
    if (alias && seats[seat]) out = out.split(alias).join(`\u0000${seat}\u0000`);
  }
  out = out.replace(/\bPlayer (\d+)\b/g, (whole, n) => {
    const s = seats[Number(n) - 1];
    return s && s.name ? `\u0000${Number(n) - 1}\u0000` : whole;
  });
  // NUL marks a seat's place: names refuse control characters, so no text holds one.
  // eslint-disable-next-line no-control-regex
  return out.replace(/\u0000(\d+)\u0000/g, (whole, n) => seats[Number(n)].name);
}

// What a face's view calls each seat besides "Player N" (its seatAliases), or nothing.
export function aliasesOf(face, view) {
  return face && face.seatAliases && view ? face.seatAliases(view) : [];
}

// An update's (or a replay step's) texts as the players read them, rewritten in place, once:
// the events, the decision's prompt and labels, and a replay step's labels (seat -> label),
// every seat in them by its name.
export function nameTexts(seats, aliases, { events = [], decision = null, labels = null } = {}) {
  const named = (text) => withNames(text, seats, aliases);
  for (const e of events) e.text = named(e.text);
  if (decision) {
    if (decision.prompt) decision.prompt = named(decision.prompt);
    if (decision.labels) decision.labels = decision.labels.map(named);
    for (const c of decision.choices || []) c.label = named(c.label);
  }
  if (labels) for (const seat of Object.keys(labels)) labels[seat] = named(labels[seat]);
}

// -- rule tags ---------------------------------------------------------------------------------

// The rule tag of an event: a small link to its clause on the game's rules page (tap, not
// hover), titled with the clause's plain name (the server's rule-names); the reference itself
// is for the address only, never shown.
export function ruleLink(game, names, ref) {
  if (!ref) return null;
  const name = (names && names[ref]) || "The rule";
  return h("a.rule", { href: `/rules/${game}#${encodeURIComponent(ref)}`, title: name,
    "aria-label": `Rule: ${name}`, target: "_blank", rel: "noopener" }, "§");
}

// -- the context a page hands a face ------------------------------------------------------------

// The one `ctx` of renderView (docs/protocol.md, "Game renderers"), for the live table and the
// replay alike:
//   state       the update's state (a replay: a spectator's, with no decision)
//   cards       the table's cards (/api/tables/{id}/cards); rules: the game's rule index
//   seat        this page's seat (null: watching)
//   choose      choose(choice) sends a choice (the replay: does nothing)
//   lastEvents  the newest step's events; history: every event so far, in order
//   selection   scratch the face keeps across redraws (a set-up being assembled)
//   latest      where the latest resolution goes beside the log (null: on the board)
//   rerender    redraw the board now
//   seatName    a seat's name with its mark; plainName: its name alone
//   ruleLink    an event's rule tag
//   h, clear    the DOM helpers of api.js
export function faceContext({
  state, cards, rules = {}, seat = null, choose = () => {}, lastEvents = [], history = [],
  selection = {}, latest = null, rerender = () => {}, game = "", ruleNames = {},
}) {
  return {
    state, cards, rules, seat, choose, lastEvents, history, selection, latest, rerender, h, clear,
    seatName: (index) => seatLabel(state, index),
    plainName: (index) => plainName(state, index),
    ruleLink: (ref) => ruleLink(game, ruleNames, ref),
  };
}
