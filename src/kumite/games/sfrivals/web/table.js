// Street Fighter Rivals at the web table: life gauges, the clash, your hand, set-up.
import { h, mark, provenanceTitle, MARKS } from "/static/js/api.js";
import { decisionMap, startBoard } from "/static/js/face.js";

const FACE = { id: "sfrivals", css: "/static/games/sfrivals/sfrivals.css", className: "sfr" };
// The decisions that play a card of the hand.
const PLAYS = new Set(["play", "play-first"]);

export function chatRules() {
  return "Table talk between the two players. Your hand and your cover card stay hidden.";
}

function card(cards, id, { small = false, onclick, disabled = false, selected = false, extra, why, choice } = {}) {
  const c = cards.cards[id];
  if (!c) return h("div.card.small", {}, id);
  const tag = onclick || disabled ? "button" : "div";  // a card that cannot be chosen now: greyed
  const classes = ["card", small ? "small" : "", selected ? "selected" : "", c.kind ? `k-${c.kind}` : ""]
    .filter(Boolean).join(".");
  const kind = c.kind === "ultra" ? h("div.kind.ultra", {}, "ULTRA COMBO")
    : c.kind === "super" ? h("div.kind.super", {}, "SUPER COMBO") : null;
  return h(`${tag}.${classes}`, {
    type: tag === "button" ? "button" : undefined, onclick, disabled, dataset: choice ? { card: id, choice } : { card: id },
    title: [c.name, c.aka, c.power, why, provenanceTitle(c, "damage")].filter(Boolean).join("\n"),
    "aria-label": why ? `${c.name} — ${why}` : undefined,
  },
    h("span.init", { title: "initiative" }, c.initiative),
    h("div.name", {}, c.name, mark(c, "name")),
    kind,
    small ? null : h("div.power", {}, c.power ? `${c.power}${mark(c, "text")}` : "No special power."),
    h("span.dmg", { title: provenanceTitle(c, "damage") }, c.damage, h("span.mark", {}, mark(c, "damage"))),
    why ? h("div.why", {}, why) : null,
    extra || null);
}

// The card values a player reads, each with its provenance mark ("text" is the power).
const SHOWN_FIELDS = ["name", "initiative", "damage", "text"];
// What each mark means (the same words as `kumite cards`).
const LEGEND = {
  [MARKS.estimate]: "* estimate — no public source gives this value; chosen by the pack's model",
  [MARKS.reconstructed]: "† reconstructed — written by kumite in the game's style; no source has it",
};

// "Hadouken ×2": a card type once, with its copies.
function named(c, copies) {
  return `${c.name}${mark(c, "name")}${copies > 1 ? ` ×${copies}` : ""}`;
}

// id -> copies, in first-seen order.
function counted(ids) {
  const out = new Map();
  for (const id of ids) out.set(id, (out.get(id) || 0) + 1);
  return out;
}

function deckOf(cards, charId) {
  return Object.values(cards.cards).filter((c) => c.character === charId);
}

// The legend of the marks the fighters' cards carry (nothing when no value is marked).
function legend(cards, players) {
  const marks = new Set();
  for (const p of players) {
    if (!p.character) continue;
    for (const c of deckOf(cards, p.character)) {
      for (const field of SHOWN_FIELDS) if (mark(c, field)) marks.add(mark(c, field));
    }
  }
  if (!marks.size) return null;
  return h("p.legend", { id: "legend" }, [...marks].map((m) => LEGEND[m]).join(" · "));
}

// A character's move list: one row per card type, copies as ×2, every value with its mark.
function moveList(cards, charId, title) {
  const rows = deckOf(cards, charId).map((c) => h("tr", { dataset: { card: c.id } },
    h("td", {}, named(c, c.copies),
      c.kind === "ultra" ? " (Ultra Combo)" : c.kind === "super" ? " (Super Combo)" : ""),
    h("td.num", {}, `${c.initiative}${mark(c, "initiative")}`),
    h("td.num", { title: provenanceTitle(c, "damage") }, `${c.damage}${mark(c, "damage")}`),
    h("td", {}, c.power ? `${c.power}${mark(c, "text")}` : "—")));
  return h("details.panel.move-list", { dataset: { character: charId } },
    h("summary", {}, title),
    h("table", {}, h("thead", {}, h("tr", {}, h("th", {}, "card"), h("th", {}, "init"),
      h("th", {}, "dmg"), h("th", {}, "power"))), h("tbody", {}, rows)));
}

// Cards of this player nobody else has seen yet: the deck minus the shown and played cards.
function unseenCards(cards, p) {
  if (!p.character || !p.shown) return [];
  const left = {};
  for (const c of Object.values(cards.cards)) if (c.character === p.character) left[c.id] = c.copies;
  for (const id of [p.shown, ...p.played, p.revealed].filter(Boolean)) left[id] -= 1;
  return Object.entries(left).flatMap(([id, n]) => Array(Math.max(0, n)).fill(id));
}

function gauge(life, max) {
  const el = h(`span.gauge${life <= max / 2 ? ".low" : ""}`, { title: `life ${life}/${max}`, role: "meter",
    "aria-valuenow": life, "aria-valuemax": max, "aria-label": "life" });
  for (let i = 0; i < max; i++) el.append(h(`i${i < life ? ".on" : ""}`));
  return el;
}

function badges(p) {
  const out = [];
  if (p.carry.initiative_next_round) out.push(h("span.badge.warn", {}, `+${p.carry.initiative_next_round} initiative this round`));
  if (p.carry.lasting_initiative || p.carry.lasting_damage) {
    out.push(h("span.badge.warn", {}, `Feng Shui: +${p.carry.lasting_initiative} init, +${p.carry.lasting_damage} dmg`));
  }
  if (p.must_reveal_first) out.push(h("span.badge.warn", {}, "reveals first"));
  return out;
}

function playerArea(ctx, p, isMe) {
  const { cards, seatName, state } = ctx;
  const view = state.view;
  // Your played row is what a play decision is about: marked, and kept in sight with it.
  const playing = isMe && state.decision && PLAYS.has(state.decision.kind);
  const area = h(`div.player`, { id: isMe ? "me" : `player-${p.seat}`, dataset: playing ? { decisionArea: "your played row" } : {} });
  // a player hit in this update shakes once (no motion under prefers-reduced-motion)
  const hit = (ctx.lastEvents || []).some((e) => e.type === "DamageDealt" && e.seat === p.seat);
  area.append(h(`h2${hit ? ".took-hit" : ""}`, {}, `${seatName(p.seat)} — ${p.character_name || "?"}`,
    gauge(p.life, view.life_max), h("span", { class: "life" }, `${p.life}/${view.life_max}`),
    h("span.dim", {}, `${p.hand_size} in hand`), ...badges(p)));
  const rows = h("div.cards");
  if (p.shown) rows.append(card(cards, p.shown, { small: true, extra: h("div.dim", {}, "set aside") }));
  if (isMe && p.cover) rows.append(card(cards, p.cover, { small: true, extra: h("div.dim", {}, "your hidden cover") }));
  for (const id of p.played) rows.append(card(cards, id, { small: true, extra: h("div.dim", {}, "played") }));
  area.append(rows);
  if (p.revealed) {
    area.append(h("p.waiting", {}, "Revealed first:"), card(cards, p.revealed));
  }
  const unseen = isMe ? [] : unseenCards(cards, p);
  if (unseen.length) {
    area.append(h("p.dim", {}, "Unseen (their hand and hidden cover): ",
      [...counted(unseen)].map(([id, n]) => named(cards.cards[id], n)).join(", ")));
  }
  return area;
}

// The cards of the last clash: revealed in its last step, and (a card revealed first, after
// Guard or "reveal first") in an earlier step of the same clash, found back in the history.
function clashCards(ctx) {
  const revealed = ctx.lastEvents.filter((e) => e.type === "CardRevealed");
  const history = ctx.history || [];
  // the history holds the last step's events themselves: look before the first of them
  const start = ctx.lastEvents.length ? history.indexOf(ctx.lastEvents[0]) : -1;
  const earlier = [];
  for (let i = start - 1; i >= 0; i--) {
    const e = history[i];
    if (e.type === "InitiativeCompared" || e.type === "DamageDealt") break;  // the clash before
    if (e.type === "CardRevealed" && ![...revealed, ...earlier].some((r) => r.seat === e.seat)) earlier.unshift(e);
  }
  return [...earlier, ...revealed].sort((a, b) => a.seat - b.seat);
}

function lastClash(ctx) {
  const revealed = clashCards(ctx);
  const compared = ctx.lastEvents.find((e) => e.type === "InitiativeCompared");
  if (!revealed.length || (!compared && !ctx.lastEvents.some((e) => e.type === "DamageDealt"))) return null;
  const box = h("div.panel", { id: "clash" }, h("h2", {}, "Last clash"));
  const row = h("div.clash");
  revealed.forEach((e, i) => {
    if (i) row.append(h("span.vs", {}, "VS"));
    row.append(h("div.reveal", {}, h("div.dim", {}, ctx.seatName(e.seat)), card(ctx.cards, e.card, { small: true })));
  });
  box.append(row);
  const steps = h("ol");
  for (const e of ctx.lastEvents) {
    if (e.type !== "CardRevealed") steps.append(h("li", {}, e.text));
  }
  box.append(steps);
  return box;
}

function characterChoice(ctx) {
  const { state, cards, choose } = ctx;
  const box = h("div.panel.decision", { id: "decision", dataset: { decisionControls: "", decisionArea: "characters" } },
    h("h2", {}, "Choose your character"));
  const grid = h("div.character-grid");
  for (const { id: choice, target } of decisionMap(state.decision).choices) {
    const id = target.role;
    const moves = deckOf(cards, id).map((c) => `${c.initiative} ${named(c, c.copies)}`).join("\n");
    grid.append(h("button", { type: "button", title: moves, dataset: { choice }, onclick: () => choose(choice) },
      cards.characters[id].name));
  }
  box.append(grid);
  return box;
}

function setupChoice(ctx) {
  const { state, cards, choose, selection } = ctx;
  const map = decisionMap(state.decision);
  // each set-up choice targets its two cards, the cover first
  const ids = [...new Set(map.choices.map((c) => c.target.cards[0]))];
  const box = h("div.panel.decision", { id: "decision", dataset: { decisionControls: "", decisionArea: "cards to keep" } },
    h("h2", {}, "Keep 8 of your 10 cards"),
    h("p", {}, "Click the card that covers your life gauge (hidden from your opponent), then the card you show them. You fight with the other eight."));
  const status = h("p.waiting", {},
    selection.cover ? `Cover: ${cards.cards[selection.cover].name}` : "Pick your cover card",
    selection.shown ? ` — show: ${cards.cards[selection.shown].name}` : "");
  const row = h("div.cards");
  for (const id of ids) {
    const copies = cards.cards[id].copies;
    row.append(card(cards, id, {
      selected: selection.cover === id || selection.shown === id,
      extra: copies > 1 ? h("div.dim", {}, `×${copies}`) : null,
      onclick: () => {
        if (!selection.cover || selection.shown) { selection.cover = id; selection.shown = null; }
        else selection.shown = id;
        ctx.rerender();
      },
    }));
  }
  const choice = selection.cover && selection.shown
    ? map.at({ zone: "hand", cards: [selection.cover, selection.shown] }) : null;
  box.append(status, row, h("div.row", {},
    h("button.primary", { type: "button", id: "confirm-setup", disabled: !choice,
      onclick: () => { choose(choice); selection.cover = selection.shown = null; } }, "Confirm set-up"),
    h("button", { type: "button", onclick: () => { selection.cover = selection.shown = null; ctx.rerender(); } }, "Reset")));
  return box;
}

function handArea(ctx, me) {
  const { state, cards, choose } = ctx;
  const decision = state.decision;
  const playing = decision && PLAYS.has(decision.kind);
  const map = decisionMap(playing ? decision : null);
  const box = h(`div.panel${playing ? ".decision" : ""}`, { id: "hand", dataset: playing ? { decisionControls: "" } : {} },
    h("h2", {}, playing ? (decision.kind === "play-first"
      ? "Play a card — it is shown to your opponent before they choose" : "Play a card face down")
      : "Your hand"));
  const row = h("div.cards");
  for (const [id, copies] of counted(me.hand || [])) {
    // a card to play, else why it may not be played now (the rules' own words, sent by the server)
    const target = { zone: "hand", card: id };
    const choice = map.at(target);
    const unplayable = playing && !choice;
    row.append(card(cards, id, {
      onclick: choice ? () => choose(choice) : undefined,
      choice,
      disabled: unplayable,
      why: unplayable ? map.whyNot(target) || "Not playable now" : undefined,
      extra: copies > 1 ? h("div.dim.copies", {}, `×${copies}`) : null,
    }));
  }
  box.append(row);
  if (state.submitted) box.append(h("p.waiting", {}, "Card played face down — waiting for your opponent."));
  return box;
}

export function renderView(container, ctx) {
  startBoard(container, FACE);
  const { state } = ctx;
  const view = state.view;
  const mySeat = ctx.seat;
  const players = view.players;
  const others = players.filter((p) => p.seat !== mySeat);
  const me = players.find((p) => p.seat === mySeat);
  container.append(h("div.dim", {}, view.phase === "play" ? `Round ${view.round} of ${view.rounds}`
    : view.phase === "over" ? "The fight is over" : view.phase === "setup" ? "Set-up" : "Choosing characters"));
  // Choosing a character or the cards to keep is all there is to do then: first on the page.
  const kind = state.decision && me ? state.decision.kind : null;
  if (kind === "character") container.append(characterChoice(ctx));
  else if (kind === "setup") container.append(setupChoice(ctx));
  for (const p of (me ? others : players.slice().reverse())) container.append(playerArea(ctx, p, false));
  // The latest clash goes beside the log when the page has room for it there.
  const clash = lastClash(ctx);
  if (clash) (ctx.latest || container).append(clash);
  // the matchup's two move lists (one in a mirror match): each player has the other's card
  const chars = [...new Set(players.map((p) => p.character).filter(Boolean))];
  for (const id of chars) {
    const whose = players.filter((p) => p.character === id).map((p) => ctx.seatName(p.seat)).join(" and ");
    container.append(moveList(ctx.cards, id, `${ctx.cards.characters[id].name}'s move list (${whose})`));
  }
  const key = legend(ctx.cards, players);
  if (key) container.append(key);
  if (me) {
    container.append(playerArea(ctx, me, true));
    // A card to play and the hand: always on screen (docked at the bottom).
    const dock = h("div.dock", { id: "dock" });
    if (kind !== "character" && kind !== "setup" && me.hand && me.hand.length) dock.append(handArea(ctx, me));
    if (!state.decision && state.submitted) dock.append(h("p.waiting", { id: "waiting" }, "Waiting for your opponent…"));
    if (dock.children.length) container.append(dock);
  }
}
