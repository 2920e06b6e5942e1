// Rivales: Capítulo 1 – Justicia at the web table, 1vs1 and 2vs2: the fighter cards (life bar
// with the life marker, ultra icon and K.O., victory symbols, passive, maximum combo), the
// zones with each team's line of played cards (energy flipped, spent energy moved down, the
// combo chain), your hand, each clash's resolution, and every pending decision as something
// to click. Elements that make a choice carry `data-choice`; the decision panel lists every
// legal choice with the label the server sent (built from this seat's view only).
import { h, mark, provenanceTitle } from "/static/js/api.js";
import { decisionMap, startBoard } from "/static/js/face.js";

const FACE = { id: "rivales", css: "/static/games/rivales/rivales.css", className: "rv" };

const TYPES = {
  basic: { icon: "◆", name: "basic (light-blue diamond)" },
  unique: { icon: "●", name: "unique (orange circle)" },
  ultra: { icon: "⬢", name: "ultra (pink hexagon)" },
};
const TEAM_NAMES = ["Team A", "Team B"];

// What another seat is doing, by decision kind (never what it may choose).
const DOING = {
  fighter: "is choosing a fighter",
  marker: "is choosing a life marker",
  zones: "is calling the team's zones",
  "zone-order": "chooses which zone is resolved first",
  play: "is playing a card face down",
  persona: "calls out HANSEL or GRETEL",
  boost: "decides whether to boost",
  guard: "defends: decides a Guard boost",
  dodge: "chooses the card to leave face up",
  "flip-own-down": "may flip a card face down",
  "exchange-with-basic": "may exchange the card with a basic card",
  "flip-energy-up": "chooses how many energy cards to flip face up",
};

// Your own decision, in words.
const YOURS = {
  fighter: "choose your fighter",
  marker: "choose your life marker",
  zones: "call your team's zones",
  "zone-order": "which zone is resolved first?",
  play: "play a card face down",
  persona: "HANSEL or GRETEL",
  boost: "boost before the reveal?",
  guard: "boost your Guard?",
  dodge: "leave a card face up (dodge)",
  "flip-own-down": "flip a card face down?",
  "exchange-with-basic": "exchange with a basic card?",
  "flip-energy-up": "flip energy face up",
};

const HINTS = {
  fighter: "Pick a fighter card below (its deck is listed under it).",
  marker: "Click the card of your hand that covers your life bar: it is hidden from your rivals, and the other 4 are your hand.",
  zones: "Click a zone (or a button): you play there, your partner in the other. Talk it over in the team chat first.",
  "zone-order": "Your team chooses the order of the zones: click the zone boosted and resolved first (the other follows). The first zone's winner is the most recent clash winner when the second is resolved.",
  play: "Click a card of your hand to play it face down. Both sides play at the same time.",
  persona: "Choose out loud, before the boosts: HANSEL (+1 Guard) or GRETEL (+1 Damage).",
  boost: "Before the reveal: spend energy (flipped cards, moved down once spent) to boost your card. The most recent clash winner decides first.",
  guard: "You are the defender: exhaust energy for +1 Guard each.",
  dodge: "Click the card of your hand you leave face up: it is your card of the next clash, played first.",
  "flip-own-down": "Click a face-up card of your line to flip it face down (it becomes energy), or flip nothing.",
  "exchange-with-basic": "Click one of your face-up basic cards in this line to exchange it with the card you played, or keep it.",
  "flip-energy-up": "Choose how many of your energy cards are flipped face up.",
};

// Events shown in the clash resolution panel, and how to style them.
const CLASH_EVENTS = new Set([
  "CardPlayed", "PersonaChosen", "BoostChosen", "CardRevealed", "EffectApplied", "RequirementUnmet",
  "ComboFormed", "SpeedCompared", "GuardBoosted", "AttackResolved", "DamageTaken", "CardFlipped",
  "UltraIconUncovered", "KnockedOut", "HandShown", "DodgeCardLeft", "NoBasicNextClash", "ZoneOrderChosen",
  "RoundEnded", "FightEnded",
]);

export function chatRules(channel) {
  // The server sends each seat its channel's rules; this is only a fallback.
  return channel === "table"
    ? "Table talk between the two fighters: bluffing is part of the duel."
    : "Team talk (2vs2): talk about what is on the table; never show or name the cards in your hand.";
}

// -- who is who --------------------------------------------------------------------------------

function teamOf(view, seat) {
  return view.players[seat] ? view.players[seat].team : 0;
}

function myTeam(ctx) {
  const view = ctx.state.view;
  return ctx.seat === null || ctx.seat === undefined ? null : teamOf(view, ctx.seat);
}

function relation(ctx, seat) {
  if (seat === ctx.seat) return "you";
  const mine = myTeam(ctx);
  if (mine === null) return "";
  return teamOf(ctx.state.view, seat) === mine ? "partner" : "rival";
}

// A seat with its fighter, where the board speaks of fighters ("Ana · Zorro"): the server's
// name, never the game's own "P1 Zorro".
function named(ctx, seat) {
  const p = ctx.state.view.players[seat];
  const name = ctx.plainName(seat);
  return p && p.fighter_name ? `${name} · ${p.fighter_name}` : name;
}

// A side of a clash, short: its fighter and what it is to you ("Zorro (rival)"); a
// spectator, to whom no side is "you", reads the seat's name too.
function sideName(ctx, seat) {
  const p = ctx.state.view.players[seat];
  const rel = relation(ctx, seat);
  return rel && p && p.fighter_name ? `${p.fighter_name} (${rel})` : named(ctx, seat);
}

// The game's own words for each seat ("P1 Zorro" in its events), shown as the seat's name.
export function seatAliases(view) {
  return (view.players || []).map((p, seat) => [p.who, seat]).filter(([text]) => text);
}

function teamLabel(ctx, t) {
  const view = ctx.state.view;
  if (view.mode === "2v2") return TEAM_NAMES[t] + (myTeam(ctx) === t ? " (your team)" : "");
  return ctx.seatName(view.teams[t][0]);
}

// -- choices -------------------------------------------------------------------------------

// The choice that targets an element of the table (the server names each choice's target:
// a card of the hand, a card in a zone's line, a zone, a fighter), or none.
function pickAttrs(ctx, map, target) {
  const choice = map.at(target);
  if (!choice) return { choice: null };
  return { choice, label: map.label(choice), onclick: () => ctx.choose(choice) };
}

// -- cards ---------------------------------------------------------------------------------

function provMark(obj, field) {
  const m = mark(obj, field);
  return m ? h("span.mark", { title: provenanceTitle(obj, field) }, m) : null;
}

// Card text with its requirements (red text on the printed cards) in red.
const RED = /(Requirement:[^.]*\.|\b(?:HANSEL|GRETEL)\b|\bWhile [^,]*,|\bif you have [^,]*,|\bIf the [^,]*,)/g;

function richText(text) {
  if (!text) return [];
  const out = [];
  let last = 0;
  for (const found of text.matchAll(RED)) {
    if (found.index > last) out.push(text.slice(last, found.index));
    out.push(h("span.req", { title: "requirement: the effect acts only if it is met" }, found[0]));
    last = found.index + found[0].length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

// "×1": copies of a card in a fighter's deck (rv.components.deck: one of each card).
function copiesNote(f, id) {
  const n = f.cards.filter((c) => c === id).length || 1;
  return h("span.rv-copies", { title: `${n} ${n === 1 ? "copy" : "copies"} in the deck` }, `×${n}`);
}

function hoverText(c) {
  const lines = [`${c.name} — ${TYPES[c.type].name}`,
    `Speed ${c.speed} · Damage ${c.damage}${c.guard ? ` · Guard ${c.guard}` : ""}${c.link ? " · link ∞" : ""}`];
  if (c.text) lines.push(c.text);
  if (c.requirements && c.requirements.length) lines.push(`Requires: ${c.requirements.join("; ")}`);
  for (const field of ["name", "type", "speed", "damage", "guard", "link", "text"]) {
    const prov = c.provenance && c.provenance[field];
    if (prov && !prov.from.startsWith("rulebook")) lines.push(provenanceTitle(c, field));
  }
  return lines.join("\n");
}

function stat(name, short, value, c, field) {
  return h(`span.rv-stat.${field}`, { title: `${name} ${value}` }, h("b", {}, short), ` ${value}`, provMark(c, field));
}

// A word this long does not fit a small tile, a face-down card or a phone's hand at their
// size: the name is set smaller there instead (names break between words only, never inside one).
const LONG_WORD = /\S{11,}/u;

// One card as a tile; a button when clicking it makes a choice. `why`: why it may not be
// chosen now (the server's reason).
function cardTile(ctx, id, { choice, label, onclick, small = false, note, why, extraClass = "" } = {}) {
  const c = ctx.cards.cards[id];
  const tag = choice ? "button" : "div";
  if (!c) return h(`${tag}.rv-card`, {}, id);
  const classes = ["rv-card", `t-${c.type}`, small ? "small" : "", choice ? "pick" : "", extraClass]
    .filter(Boolean).join(".");
  return h(`${tag}.${classes}`, {
    type: choice ? "button" : undefined,
    dataset: choice ? { card: id, choice } : { card: id },
    title: [label, why, hoverText(c)].filter(Boolean).join("\n\n"),
    "aria-label": label || c.name,
    onclick,
  },
    h("div.rv-card-top", {},
      h("span.rv-type", { title: TYPES[c.type].name }, TYPES[c.type].icon),
      h(LONG_WORD.test(c.name) ? "span.rv-name.long" : "span.rv-name", { lang: "es" }, c.name, provMark(c, "name"))),
    h("div.rv-stats", {},
      stat("Speed", "SPD", c.speed, c, "speed"),
      stat("Damage", "DMG", c.damage, c, "damage"),
      c.guard ? stat("Guard", "GRD", c.guard, c, "guard") : null,
      c.link ? h("span.rv-link", { title: "link: in combo next to another face-up link card" }, "∞", provMark(c, "link")) : null),
    small ? null : h("div.rv-text", {}, ...richText(c.text), provMark(c, "text")),
    label && choice ? h("span.sr", {}, label) : null,
    why ? h("div.rv-why", {}, why) : null,
    note ? h("div.rv-note", {}, note) : null);
}

// -- fighter cards -------------------------------------------------------------------------

// The life bar: the marker (♥) covers what is left; cells it has uncovered show the Damage
// taken, the ultra icon (⬢) and, at the end, K.O.
function lifeBar(p) {
  const bar = h(`div.rv-life${p.ko ? ".ko" : ""}`, {
    role: "meter", "aria-label": "life", "aria-valuenow": p.life, "aria-valuemax": p.life_max,
    title: `Life ${p.life}/${p.life_max}: the life marker has moved ${p.damage_taken} space${p.damage_taken === 1 ? "" : "s"}; `
      + `the ultra icon is uncovered after ${p.ultra_at} Damage, K.O. after ${p.life_max}.`,
  });
  for (let i = 1; i <= p.life_max; i++) {
    const uncovered = i <= p.damage_taken;
    const classes = ["cell", uncovered ? "hit" : "covered", i === p.ultra_at ? "ultra" : "",
      i === p.life_max ? "end" : "", i === p.damage_taken + 1 ? "marker" : ""].filter(Boolean).join(".");
    const icon = i === p.life_max ? "K.O." : i === p.ultra_at ? "⬢" : "";
    bar.append(h(`span.${classes}`, {}, i === p.damage_taken + 1 ? "♥" : icon));
  }
  return bar;
}

function victory(ctx, won) {
  const need = (ctx.cards.rules && ctx.cards.rules.rounds_to_win) || 2;
  const box = h("span.rv-victory", { title: `rounds won: ${won} (${need} win the fight)` });
  for (let i = 0; i < Math.max(need, won); i++) box.append(h(`i${i < won ? ".won" : ""}`, {}, "★"));
  return box;
}

function comboText(f) {
  const steps = f.combo.map((step, i) => {
    const parts = [["Speed", step.speed], ["Damage", step.damage], ["Guard", step.guard]]
      .filter(([, v]) => v).map(([k, v]) => `+${v} ${k}`);
    return `${i + 1}${["st", "nd", "rd"][i] || "th"} link ${parts.join(", ") || "no bonus"}`;
  });
  return `${steps.join(" · ")} — maximum combo: ${f.max_combo} link${f.max_combo === 1 ? "" : "s"}`;
}

function fighterPanel(ctx, p) {
  const view = ctx.state.view;
  const rel = relation(ctx, p.seat);
  const panel = h(`section.rv-fighter${rel ? `.${rel}` : ""}${p.ko ? ".is-ko" : ""}`, {
    id: `rv-fighter-${p.seat}`, dataset: { seat: p.seat, team: p.team },
  });
  const f = p.fighter && ctx.cards.fighters[p.fighter];
  const head = h("h3", {}, ctx.seatName(p.seat), p.fighter_name ? h("span.dim", {}, ` · ${p.fighter_name}`) : null);
  panel.append(head);
  if (!f) {
    panel.append(h("p.dim", {}, "Choosing a fighter…"));
    return panel;
  }
  if (view.mode === "2v2" && p.zone !== null && p.zone !== undefined) head.append(h("span.chip.zone", {}, `Zone ${p.zone + 1}`));
  if (p.ko) head.append(h("span.chip.bad", {}, "K.O."));
  head.append(victory(ctx, p.rounds_won));
  // a fighter hit in this update shakes once (no motion under prefers-reduced-motion)
  const hit = (ctx.lastEvents || []).some((e) => e.type === "DamageTaken" && e.seat === p.seat && e.amount > 0);
  panel.append(h(`div.rv-lifeline${hit ? ".took-hit" : ""}`, {}, lifeBar(p),
    h("span.rv-lifenum", { title: "life left" }, `♥ ${p.life}/${p.life_max}`, provMark(f, "life"))));
  const facts = h("div.rv-facts", {},
    h("span.badge", { title: "cards in hand" }, `${p.hand_size} in hand`),
    h("span.badge", { title: "cards in the deck (order hidden)" }, `${p.deck_size} in deck`),
    h("span.badge", { title: "the ultra card" }, p.ultra === "aside" ? "ultra aside, face up"
      : p.ultra === "due" ? "ultra icon uncovered: the ultra comes to hand next clash"
        : p.ultra === "taken" ? "ultra taken into hand" : "ultra —"));
  const bonus = Object.entries(p.next_card_bonus || {}).filter(([, v]) => v);
  if (bonus.length) facts.append(h("span.badge.warn", {}, "next card " + bonus.map(([k, v]) => `+${v} ${k}`).join(", ")));
  if (p.no_basic) facts.append(h("span.badge.bad", {}, "may not play basic cards this clash"));
  if (p.shown_to && p.shown_to.length) {
    facts.append(h("span.badge", {}, `showed their hand to ${p.shown_to.map((s) => ctx.seatName(s)).join(", ")}`));
  }
  panel.append(facts);
  panel.append(h("div.rv-passive", { title: provenanceTitle(f, "passive") },
    h("strong", {}, f.passive_name, provMark(f, "passive_name"), ": "), ...richText(f.passive), provMark(f, "passive")));
  panel.append(h("div.rv-combo", { title: provenanceTitle(f, "combo") }, "∞ ", comboText(f), provMark(f, "combo")));
  const extras = h("div.rv-extras");
  if (p.ultra === "aside" || p.ultra === "due") {
    const ultra = f.cards[f.cards.length - 1];
    extras.append(h("div.rv-aside", {}, h("div.dim", {}, "Ultra, set aside face up"), cardTile(ctx, ultra, { small: true })));
  }
  if (p.ready) extras.append(h("div.rv-aside", {}, h("div.dim", {}, "Left face up by a dodge: its next card"), cardTile(ctx, p.ready, { small: true })));
  if (p.marker) extras.append(h("div.rv-aside", { id: "rv-marker" }, h("div.dim", {}, "Your life marker (hidden from the others)"), cardTile(ctx, p.marker, { small: true })));
  else if (p.marker_placed && rel !== "you") extras.append(h("div.rv-aside", {}, h("div.dim", {}, "Life marker"), h("div.rv-back", {}, "♥ face down")));
  if (p.known_hand && p.known_hand.length) {
    extras.append(h("div.rv-aside.rv-known", {},
      h("div.dim", {}, view.mode === "2v2" ? "Hand shown to you (Lluvia de Sombreros) — keep it from your partner" : "Hand shown to you (Lluvia de Sombreros)"),
      h("div.rv-row", {}, p.known_hand.map((id) => cardTile(ctx, id, { small: true })))));
  }
  if (extras.children.length) panel.append(extras);
  return panel;
}

// -- the zones and the lines of cards ----------------------------------------------------------

// Decisions about your own line of cards in your zone.
const LINE_DECISIONS = new Set(["play", "persona", "boost", "guard", "dodge", "flip-own-down",
  "exchange-with-basic", "flip-energy-up"]);

// The zone this seat fights in (the only zone in 1vs1), or null before the zones are called.
function myZone(ctx) {
  const view = ctx.state.view;
  if (ctx.seat === null || ctx.seat === undefined) return null;
  const fight = view.fights.find((f) => f.seats.includes(ctx.seat));
  if (fight) return fight.zone;
  const p = view.players[ctx.seat];
  if (p && p.zone !== null && p.zone !== undefined) return p.zone;
  return view.zones.length === 1 ? view.zones[0].zone : null;
}

function slotTile(ctx, slot, { inChain, active, map, zone }) {
  const view = ctx.state.view;
  const owner = view.mode === "2v2" ? h("span.rv-owner", { title: ctx.seatName(slot.owner) }, (ctx.state.marks || [])[slot.owner] || ctx.plainName(slot.owner)) : null;
  const attrs = slot.card ? pickAttrs(ctx, map, { zone: "line", seat: slot.owner, card: slot.card }) : { choice: null };
  const cls = [`side-${slot.side}`, inChain ? "in-chain" : "", active ? "active" : ""].filter(Boolean).join(".");
  if (slot.side === "up") {
    return h(`div.rv-slot.${cls}`, { dataset: { zone } }, owner,
      cardTile(ctx, slot.card, { ...attrs, small: true }));
  }
  const c = slot.card && ctx.cards.cards[slot.card];
  const title = {
    down: "flipped face down: 1 energy",
    exhausted: "energy spent: moved down (exhausted)",
    hidden: slot.card ? "your card, played face down (not yet revealed)" : "played face down, not yet revealed",
  }[slot.side];
  const tag = attrs.choice ? "button" : "div";
  return h(`div.rv-slot.${cls}`, { dataset: { zone } }, owner,
    h(`${tag}.rv-back.${slot.side}${attrs.choice ? ".pick" : ""}`, {
      type: attrs.choice ? "button" : undefined,
      dataset: attrs.choice ? { choice: attrs.choice, card: slot.card } : { card: slot.card || "" },
      title: `${c ? c.name + " — " : ""}${title}${attrs.label ? "\n" + attrs.label : ""}`,
      "aria-label": attrs.label || title,
      onclick: attrs.onclick,
    },
      h("span.rv-side", {}, slot.side === "hidden" ? "?" : slot.side === "down" ? "⚡ energy" : "spent"),
      c ? h(LONG_WORD.test(c.name) ? "span.rv-backname.long" : "span.rv-backname", { lang: "es" }, c.name, provMark(c, "name")) : null));
}

function lineRow(ctx, zone, t, map) {
  const line = zone.lines[t];
  const chain = zone.chain[t];
  const start = chain.links ? line.length - 1 - chain.links : -1;
  const view = ctx.state.view;
  // Your line in your zone is what a play, a boost or a guard is about: marked for the page to
  // keep in sight with the decision.
  const about = myTeam(ctx) === t && zone.zone === myZone(ctx) && LINE_DECISIONS.has(ctx.state.decision && ctx.state.decision.kind);
  const row = h(`div.rv-line${myTeam(ctx) === t ? ".mine" : ""}`, { dataset: about ? { team: t, decisionArea: "your zone line" } : { team: t } });
  const info = h("div.rv-linehead", {}, h("strong", {}, teamLabel(ctx, t)),
    h("span.badge.energy", { title: "energy: cards flipped face down, not yet spent" }, `⚡ ${zone.energy[t]} energy`),
    zone.exhausted[t] ? h("span.badge", { title: "energy spent (moved down)" }, `${zone.exhausted[t]} exhausted`) : null,
    chain.links ? h("span.badge.chain", { title: "combo chain of adjacent face-up link cards" },
      `∞ combo: ${chain.links} link${chain.links === 1 ? "" : "s"}`
      + (view.mode === "2v2" ? ` (${named(ctx, chain.starter)}'s chain)` : "")) : null);
  row.append(info);
  const slots = h("div.rv-slots");
  if (!line.length) slots.append(h("span.dim", {}, "no card played yet this round"));
  line.forEach((slot, i) => {
    slots.append(slotTile(ctx, slot, { inChain: start >= 0 && i >= start, active: i === line.length - 1, map, zone: zone.zone }));
  });
  row.append(slots);
  return row;
}

// The clash in a zone as it stands: personas, boosts, Speed / Damage / Guard, who attacks.
function versus(ctx, fight) {
  if (!fight) return null;
  const box = h("div.rv-versus", { dataset: { zone: fight.zone } });
  const side = (t) => {
    const seat = fight.seats[t];
    const parts = [h("strong", { title: ctx.seatName(seat) }, sideName(ctx, seat))];
    if (fight.persona[t]) parts.push(h("span.chip", {}, fight.persona[t].toUpperCase()));
    if (fight.boost[t]) parts.push(h("span.chip", { title: "energy spent on a boost before the reveal" }, `boost ${fight.boost[t]} energy`));
    if (fight.dodge[t]) parts.push(h("span.chip", {}, "dodges"));
    if (fight.stats) {
      const [speed, damage, guard] = fight.stats[t];
      const role = fight.attacker === null ? "" : fight.attacker === seat ? "attacker" : "defender";
      const g = guard + (role === "defender" ? fight.guard_boost : 0);
      parts.push(h("span.rv-num", {}, `Speed ${speed}`), h("span.rv-num", {}, `Damage ${damage}`),
        h("span.rv-num", {}, `Guard ${g}${role === "defender" && fight.guard_boost ? ` (+${fight.guard_boost})` : ""}`));
      if (role) parts.push(h(`span.chip.${role}`, {}, role === "attacker" ? "⚔ attacker" : "defender"));
    }
    return h(`div.rv-vs-side${fight.attacker === seat ? ".attacking" : ""}`, {}, ...parts);
  };
  box.append(side(1 - (myTeam(ctx) ?? 0)), h("span.vs", {}, "vs"), side(myTeam(ctx) ?? 0));
  return box;
}

function zoneBox(ctx, zone, map) {
  const view = ctx.state.view;
  const fight = view.fights.find((f) => f.zone === zone.zone);
  const mine = myTeam(ctx);
  const top = mine === null ? 1 : 1 - mine;
  const two = view.mode === "2v2";
  const box = h(`section.rv-zone${fight && ctx.seat !== null && fight.seats.includes(ctx.seat) ? ".my-zone" : ""}`,
    { id: `rv-zone-${zone.zone}`, dataset: { zone: zone.zone } });
  const pick = pickAttrs(ctx, map, { zone: "arena", index: zone.zone });
  if (two || pick.choice) {
    const names = fight ? fight.seats.map((s) => named(ctx, s)).join(" vs ") : "zones not chosen yet";
    const rank = view.zone_order ? view.zone_order.indexOf(zone.zone) : -1;
    box.append(h("div.rv-zonehead", {}, h("h3", {}, `Zone ${zone.zone + 1}`), h("span.dim", {}, names),
      rank >= 0 ? h("span.chip.rv-order", { title: "the order chosen for this clash's boosts and resolution" }, rank === 0 ? "resolved first" : "resolved second") : null,
      pick.choice ? h("button.primary", { type: "button", dataset: { choice: pick.choice }, onclick: pick.onclick }, pick.label) : null));
  }
  box.append(...[lineRow(ctx, zone, top, map), versus(ctx, fight), lineRow(ctx, zone, 1 - top, map)].filter(Boolean));
  return box;
}

// -- the clash resolution -------------------------------------------------------------------

// The events of the latest clash that has been revealed (from this seat's event history).
function latestClash(history) {
  let group = null;
  let shown = null;
  for (const e of history) {
    if (e.type === "ClashStarted" || e.type === "RoundStarted") {
      if (group && group.revealed) shown = group;
      group = { round: e.round, clash: e.type === "ClashStarted" ? e.clash : 0, events: [], revealed: false };
      continue;
    }
    if (!group) continue;
    if (CLASH_EVENTS.has(e.type)) group.events.push(e);
    if (e.type === "CardRevealed" || e.type === "SpeedCompared") group.revealed = true;
  }
  return group && group.revealed ? group : shown;
}

function summary(ctx, e, events) {
  // One zone's outcome: Speed, attacker/defender (or exchange), Guard and Damage.
  const [a, b] = e.seats.map((s) => named(ctx, s));
  const box = h("div.rv-sum", { dataset: { seats: e.seats.join(",") } });
  const reveal = (seat) => events.find((x) => x.type === "CardRevealed" && x.seat === seat);
  const line = h("div.rv-sum-speed", {},
    h("span", {}, `${a}${reveal(e.seats[0]) ? ` (${reveal(e.seats[0]).name})` : ""}`), " ", h("b", {}, `Speed ${e.speeds[0]}`),
    h("span.vs", {}, " vs "),
    h("span", {}, `${b}${reveal(e.seats[1]) ? ` (${reveal(e.seats[1]).name})` : ""}`), " ", h("b", {}, `Speed ${e.speeds[1]}`));
  box.append(line);
  if (e.attacker === null) {
    box.append(h("div.rv-sum-out.exchange", {}, "Exchange: equal Speed and type — both cards flip, 1 Damage each ignoring Guard"));
    return box;
  }
  const att = [a, b][e.seats.indexOf(e.attacker)];
  const def = [a, b][1 - e.seats.indexOf(e.attacker)];
  box.append(h("div.rv-sum-role", {}, `⚔ ${att} attacks${e.how ? ` (${e.how})` : ""}; ${def} defends`));
  const attack = events.find((x) => x.type === "AttackResolved" && x.attacker === e.attacker);
  if (attack) {
    const text = attack.dodged ? `${def} dodges: no Damage`
      : attack.dealt ? `Damage ${attack.damage} − Guard ${attack.guard} = ${attack.dealt} Damage to ${def}; their card is flipped`
        : `Damage ${attack.damage} against Guard ${attack.guard}: no Damage, both cards stay face up`;
    box.append(h(`div.rv-sum-out${attack.dealt ? ".hit" : ""}`, {}, text));
  }
  return box;
}

function clashPanel(ctx) {
  const group = latestClash(ctx.history || ctx.lastEvents || []);
  if (!group) return null;
  const title = group.clash ? `Round ${group.round} · clash ${group.clash}: resolution` : `Round ${group.round}`;
  const box = h("section.panel.rv-clash", { id: "rv-clash" }, h("h2", {}, title));
  for (const e of group.events.filter((x) => x.type === "SpeedCompared")) box.append(summary(ctx, e, group.events));
  box.append(h("details.rv-steps", { open: !ctx.latest || undefined }, h("summary", {}, "Step by step, with the rules"),
    h("ol", {}, group.events.map((e) => h(`li.ev-${e.type}`, {}, e.text,
      ctx.ruleLink ? ctx.ruleLink(e.rule) : null)))));
  return box;
}

// -- header, decision, hand -------------------------------------------------------------------

function header(ctx) {
  const view = ctx.state.view;
  let what;
  if (view.phase === "fighter") what = "Choosing fighters";
  else if (view.phase === "over") what = "The fight is over";
  else if (view.final) what = `FINAL ROUND — the first to cause Damage wins · clash ${view.clash || "—"}`;
  else what = view.clash ? `Round ${view.round} · clash ${view.clash} of ${view.clashes_per_round}` : `Round ${view.round} · set-up`;
  const score = h("span.rv-score", {},
    ...[0, 1].flatMap((t) => [h("span", {}, teamLabel(ctx, t), " ", victory(ctx, view.rounds_won[t])), t === 0 ? " – " : null]));
  return h("div.rv-head", { id: "rv-head" },
    h("span.badge.mode", {}, view.mode === "2v2" ? "2vs2" : "1vs1"),
    h("strong.rv-when", {}, what), score);
}

function turnLine(ctx) {
  const view = ctx.state.view;
  const box = h("div.rv-turn", { id: "rv-turn" });
  if (view.phase === "over") return box;
  for (const d of view.pending) {
    if (d.seat === ctx.seat) {
      box.append(h("span.rv-you", {}, ctx.state.decision ? `Your decision: ${YOURS[d.kind] || d.kind}` : "Chosen — waiting for the others"));
    } else {
      box.append(h("span.rv-wait", { dataset: { seat: d.seat, kind: d.kind } }, `${ctx.seatName(d.seat)} ${DOING[d.kind] || "is deciding"}…`));
    }
  }
  if (view.pending.some((d) => d.kind === "boost") && view.last_winner !== null && view.last_winner !== undefined) {
    box.append(h("span.dim", {}, ` Boost order: ${teamLabel(ctx, view.last_winner)} won the most recent clash and decides first.`));
  }
  if (view.mode === "2v2" && ctx.seat !== null && ctx.seat !== undefined) {
    const partner = view.teams[myTeam(ctx)].find((s) => s !== ctx.seat);
    const s = ctx.state.seats && ctx.state.seats[partner];
    if (s && s.kind === "bot") box.append(h("span.dim.rv-botnote", {}, " Your partner is a bot: it reads no messages and shares no hand information."));
  }
  return box;
}

function fighterChoice(ctx, map) {
  const grid = h("div.rv-fighters-pick", { id: "rv-fighter-pick", dataset: { decisionArea: "fighters" } });
  for (const [id, f] of Object.entries(ctx.cards.fighters)) {
    const pick = pickAttrs(ctx, map, { role: id });
    const own = f.cards.filter((c) => !ctx.cards.basics.includes(c));
    grid.append(h("div.rv-fighter-choice", { dataset: { fighter: id } },
      pick.choice ? h("button.primary", { type: "button", dataset: { choice: pick.choice }, onclick: pick.onclick, title: pick.label, "aria-label": pick.label }, `Fight as ${f.name}`)
        : h("button", { type: "button", disabled: true, title: "your partner's fighter" }, f.name),
      h("div.rv-facts", {}, h("span.badge", {}, `♥ life ${f.life}`, provMark(f, "life")),
        h("span.badge", {}, `⬢ ultra after ${f.ultra_at} Damage`, provMark(f, "ultra_at"))),
      h("div.rv-passive", {}, h("strong", {}, f.passive_name, ": "), ...richText(f.passive), provMark(f, "passive")),
      h("div.rv-combo", {}, "∞ ", comboText(f), provMark(f, "combo")),
      h("details", {}, h("summary", {}, `Unique and ultra cards (the deck: ${f.cards.length} cards, one of each)`),
        // on a phone the passive and the combo fold in here, with the cards
        h("div.rv-passive.rv-folded", {}, h("strong", {}, f.passive_name, ": "), ...richText(f.passive)),
        h("div.rv-combo.rv-folded", {}, "∞ ", comboText(f)),
        h("div.rv-row", {}, own.map((c) => cardTile(ctx, c, { small: false, note: copiesNote(f, c) }))))));
  }
  return grid;
}

function decisionPanel(ctx, map) {
  const decision = ctx.state.decision;
  const panel = h("section.panel.decision.rv-decision", { id: "rv-decision", dataset: { kind: decision.kind, decisionControls: "" } },
    h("h2", {}, decision.prompt));
  if (HINTS[decision.kind]) panel.append(h("p.hint", {}, HINTS[decision.kind]));
  if (decision.kind === "fighter") panel.append(fighterChoice(ctx, map));
  // Cards and fighters are clicked where they lie; the full list stays one click away.
  // A choice made by clicking a zone is offered there only (once, not twice).
  if (decision.kind === "zone-order") return panel;
  const many = decision.kind === "fighter" || map.choices.every((c) => map.placed(c.id));
  const buttons = h("div.rv-choices", { id: "rv-choices" }, map.choices.map(({ id: choice, label }) => h("button", {
    type: "button", dataset: { choice }, title: choice, onclick: () => ctx.choose(choice),
  }, label)));
  panel.append(many ? h("details.rv-all", {}, h("summary", {}, `All ${map.choices.length} choices`), buttons) : buttons);
  return panel;
}

function handArea(ctx, me, map) {
  const kind = ctx.state.decision && ctx.state.decision.kind;
  const about = kind === "marker" || kind === "dodge" || (kind === "play" && myZone(ctx) === null);
  const box = h("section.panel.rv-hand-box", { id: "rv-hand-box", dataset: about ? { decisionArea: "your hand" } : {} },
    h("h2", {}, `Your hand (${me.hand.length})`, me.no_basic ? h("span.chip.bad", {}, "no basic cards this clash") : null,
      // your own life beside your hand: on screen while the table scrolls above
      me.fighter ? h("span.rv-mylife", { title: "your life" }, `♥ ${me.life}/${me.life_max}`) : null,
      me.fighter ? victory(ctx, me.rounds_won) : null));
  const row = h("div.rv-row.rv-hand", { id: "rv-hand" });
  if (!me.hand.length) row.append(h("span.dim", {}, "empty"));
  const f = me.fighter && ctx.cards.fighters[me.fighter];
  for (const id of me.hand) {
    const attrs = pickAttrs(ctx, map, { zone: "hand", card: id });
    const why = map.whyNot({ zone: "hand", card: id });
    row.append(cardTile(ctx, id, { ...attrs, why, note: f ? copiesNote(f, id) : undefined }));
  }
  box.append(row);
  return box;
}

function resultPanel(ctx) {
  const view = ctx.state.view;
  const o = view.outcome;
  const names = (t) => teamLabel(ctx, t);
  const winner = o.winning_team;
  const text = o.draw ? "Draw" : `${names(winner)} ${view.mode === "2v2" ? "win" : "wins"} the fight`;
  return h("section.panel.rv-result", { id: "rv-result" }, h("h2", {}, text),
    h("p", {}, `${o.reason} — rounds won ${view.rounds_won.join("–")}`),
    h("table", {}, h("tbody", {}, view.players.map((p) => h(`tr${o.winners.includes(p.seat) ? ".win" : ""}`, {},
      h("td", {}, ctx.seatName(p.seat)), h("td", {}, `♥ ${p.life}/${p.life_max}`), h("td", {}, `${p.rounds_won} round${p.rounds_won === 1 ? "" : "s"}`))))));
}

function teamRow(ctx, t) {
  const view = ctx.state.view;
  return h(`div.rv-team${myTeam(ctx) === t ? ".mine" : ""}`, { dataset: { team: t } },
    view.teams[t].map((s) => fighterPanel(ctx, view.players[s])));
}

export function renderView(container, ctx) {
  startBoard(container, FACE);
  const { state } = ctx;
  const view = state.view;
  const map = decisionMap(state.decision);
  container.append(header(ctx), turnLine(ctx));
  if (view.outcome) container.append(resultPanel(ctx));
  const mine = myTeam(ctx);
  const top = mine === null ? 1 : 1 - mine;
  const me = ctx.seat === null || ctx.seat === undefined ? null : view.players[ctx.seat];
  if (view.phase !== "fighter") {
    container.append(teamRow(ctx, top));
    const calling = state.decision && (state.decision.kind === "zones" || state.decision.kind === "zone-order");
    const arena = h("div.rv-arena", { id: "rv-arena", dataset: calling ? { decisionArea: "zones" } : {} },
      view.zones.map((z) => zoneBox(ctx, z, map)));
    container.append(arena, teamRow(ctx, 1 - top));
  } else {
    container.append(h("div.rv-team", {}, view.players.map((p) => fighterPanel(ctx, p))));
  }
  // The latest clash goes beside the log when the page has room for it there.
  const clash = clashPanel(ctx);
  if (clash) (ctx.latest || container).append(clash);
  container.append(h("p.legend", {}, "◆ basic · ● unique · ⬢ ultra · ∞ link · ⚡ immediate effect · ",
    h("span.req", {}, "red: requirement"), " · ", Object.values(ctx.cards.legend || {}).join(" · ")));
  // The decision and the hand: always on screen (docked at the bottom).
  const dock = h("div.dock", { id: "dock" });
  // Choosing a fighter is all there is to do then: first on the page, not in the dock.
  if (state.decision && state.decision.kind === "fighter") container.insertBefore(decisionPanel(ctx, map), container.children[2]);
  else if (state.decision) dock.append(decisionPanel(ctx, map));
  if (me && me.hand && (me.hand.length || view.phase !== "fighter")) dock.append(handArea(ctx, me, map));
  if (dock.children.length) container.append(dock);
}
