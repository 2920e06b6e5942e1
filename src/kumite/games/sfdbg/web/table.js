// The Street Fighter Deck-Building Game at the web table: your hand and Power, the Line-Up,
// the stacks and the face-up Stage, every player's public state, and every pending decision
// as something to click. Card tiles carry `data-choice` when clicking them makes a choice;
// the decision panel lists every legal choice with the label the server sent. What each
// choice targets (a card of a zone, a stack, the Stage, a foe) is the server's word too.
import { h, mark, provenanceTitle } from "/static/js/api.js";
import { decisionMap, startBoard } from "/static/js/face.js";

const FACE = { id: "sfdbg", css: "/static/games/sfdbg/sfdbg.css", className: "dbg" };

const TYPE_CLASS = {
  Starter: "starter", Hero: "hero", Villain: "villain", "Super Power": "power",
  Equipment: "equipment", Location: "location", Ultra: "ultra", "": "weakness",
};

// What the other players are doing, by decision kind (never what they may choose).
const DOING = {
  turn: "is taking a turn",
  defend: "decides whether to avoid the Attack",
  discard: "is choosing a card to discard",
  destroy: "is choosing a card to destroy",
  "destroy-trigger": "decides whether to destroy a card",
  bottom: "is choosing a card for the bottom of the main deck",
  under: "is choosing a card to put under a Super Hero",
  gain: "is choosing a card to gain",
  foe: "is choosing a foe",
  "return-to-hand": "decides whether to return a card to their hand",
  give: "is choosing a card to give",
  name: "is naming a type or cost",
  "hp-ultra": "decides where their Ultra goes",
};

// Events worth a second look: attacks, defenses, Counter-Attacks, Stage Bosses.
const FIGHT = new Set([
  "AttackMade", "AttackAvoided", "AttackNotAvoided", "StageChallenged", "StageDefeated",
  "WeaknessGained", "NoWeaknessLeft", "HeroRevealed", "Named", "PowerLost", "GameEnded",
]);

export function chatRules() {
  return "Table talk for everyone at the table. Hands and deck orders stay hidden.";
}

function hoverText(c) {
  const lines = [`${c.name}${c.aka ? ` (${c.aka})` : ""}`,
    `${c.type || "no type"} · cost ${c.cost} · ${c.vp_rule ? "variable" : c.vp} VP`, c.text];
  for (const field of ["name", "type", "cost", "vp", "text", "copies", "stage"]) {
    const prov = c.provenance && c.provenance[field];
    if (prov && !prov.from.startsWith("rulebook") && !prov.from.startsWith("source")) {
      lines.push(provenanceTitle(c, field));
    }
  }
  return lines.filter(Boolean).join("\n");
}

// A name with a word this long (Hyakuretsukyaku) is set smaller in a small tile, where the
// word would otherwise be broken in two.
const LONG_WORD = /\S{14,}/u;

// One card as a tile; a button when clicking it makes `choice`.
function tile(ctx, id, { choice, label, note, small = false, mini = false, count } = {}) {
  const c = ctx.cards.cards[id];
  const tag = choice ? "button" : "div";
  const kind = c ? TYPE_CLASS[c.type] || "power" : "weakness";
  const classes = ["dbg-card", `t-${kind}`, small || mini ? "small" : "", mini ? "mini" : "", choice ? "pick" : ""].filter(Boolean).join(".");
  if (!c) return h(`${tag}.${classes}`, { dataset: { card: id } }, id);
  const vp = c.vp_rule ? "★" : c.vp;
  if (mini) {  // one line: the name, the copies; the rest on hover and in the zoom
    return h(`${tag}.${classes}`, {
      type: choice ? "button" : undefined,
      dataset: choice ? { card: id, choice } : { card: id },
      title: (label ? `${label}\n\n` : "") + hoverText(c),
      "aria-label": `${label || c.name}${count > 1 ? ` (×${count})` : ""}`,
      onclick: choice ? () => ctx.choose(choice) : undefined,
    }, h("span.dbg-name", {}, c.name, h("span.mark", { title: provenanceTitle(c, "name") }, mark(c, "name"))),
    count > 1 ? h("span.dbg-count", {}, `×${count}`) : null);
  }
  return h(`${tag}.${classes}`, {
    type: choice ? "button" : undefined,
    dataset: choice ? { card: id, choice } : { card: id },
    title: (label ? `${label}\n\n` : "") + hoverText(c),
    "aria-label": label || c.name,
    onclick: choice ? () => ctx.choose(choice) : undefined,
  },
    h("div.dbg-top", {},
      h(LONG_WORD.test(c.name) ? "span.dbg-name.long" : "span.dbg-name", {}, c.name, h("span.mark", { title: provenanceTitle(c, "name") }, mark(c, "name"))),
      c.pile === "weakness" || c.pile === "starter" ? null
        : h("span.dbg-cost", { title: provenanceTitle(c, "cost") || "cost" }, c.cost,
          h("span.mark", {}, mark(c, "cost")))),
    h("div.dbg-type", { title: provenanceTitle(c, "type") }, c.type || "Weakness",
      h("span.mark", {}, c.type ? mark(c, "type") : ""),
      c.attack ? h("span.chip.atk", {}, "Attack") : null,
      c.defense ? h("span.chip.def", {}, "Defense") : null,
      c.stage ? h("span.chip.dbg-stage-no", { title: provenanceTitle(c, "stage") },
        `Stage ${c.stage}`, h("span.mark", {}, mark(c, "stage"))) : null),
    small ? null : h("div.dbg-text", { title: provenanceTitle(c, "text") }, c.text,
      h("span.mark", {}, mark(c, "text"))),
    h("div.dbg-foot", {},
      h("span.dbg-vp", { title: c.vp_rule ? "VP depend on your deck at the end of the game" : provenanceTitle(c, "vp") || "VP" },
        `${vp} VP`, h("span.mark", {}, mark(c, c.vp_rule ? "vp_rule" : "vp"))),
      count > 1 ? h("span.dbg-count", {}, `×${count}`) : null,
      note ? h("span.dbg-note", {}, note) : null));
}

// Tiles for a pile of card ids, identical copies grouped, each clickable by its key.
// A pile showing more different cards than this is drawn as one-line tiles (a long turn's
// cards in play stay a few lines high, the decision's other areas in sight with them).
const MANY = 4;

function pile(ctx, zone, ids, map, { small = false, group = true, empty = "—", compact = false } = {}) {
  const counts = new Map();
  for (const id of ids) counts.set(id, (counts.get(id) || 0) + 1);
  const order = group ? [...counts.keys()] : ids;
  const mini = compact && order.length > MANY;
  const row = h(`div.dbg-row${mini ? ".dbg-minis" : ""}`, { dataset: { zone } });
  if (!ids.length) row.append(h("span.dim", {}, empty));
  for (const id of order) {
    const choice = map.at({ zone, card: id });
    const count = group ? counts.get(id) : 1;
    row.append(tile(ctx, id, { choice, label: choice && map.label(choice), small, mini, count }));
  }
  return row;
}

function heroBox(ctx, p) {
  if (!p.hero) {
    return h("div.dbg-hero.facedown", {}, h("strong", {}, "Face-down Super Hero"),
      p.ultra_stack !== undefined ? h("div.dim", {}, `${p.ultra_stack} face-down Ultras`) : null);
  }
  const hero = ctx.cards.heroes[p.hero] || { name: p.hero_name, provenance: {} };
  return h("div.dbg-hero", { title: provenanceTitle(hero, "counter_attack") },
    h("strong", {}, p.hero_name),
    h("div.dbg-ca", {}, p.counter_attack,
      h("span.mark", {}, mark(hero, "counter_attack"))),
    p.counter_attack_used ? h("span.chip", {}, "has Counter-Attacked this turn") : null,
    p.cannot_avoid ? h("span.chip.atk", {}, "cannot avoid the next Attack") : null);
}

// A player an Attack of this update lands on (not avoided) shakes once.
function struck(ctx, seat) {
  return (ctx.lastEvents || []).some((e) => e.type === "AttackNotAvoided" && e.seat === seat);
}

function counts(p) {
  const t = p.tally;
  const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;
  return [
    h("span.badge", { title: "cards in hand" }, `${p.hand_size} in hand`),
    h("span.badge", { title: "cards in deck (order hidden)" }, `${p.deck_size} in deck`),
    h("span.badge", { title: "discard pile" }, `${p.discard.length} discarded`),
    t ? h("span.badge.warn.dbg-tally", {
      title: "What this player owns (every card gained or lost is announced): the VP it would "
        + "score now, Stages and Weaknesses held, and cards owned (the tie-breaks, in order)",
    }, `${t.vp} VP · ${plural(t.stages, "Stage")} · ${t.weaknesses} Weakness${t.weaknesses === 1 ? "" : "es"}`
      + ` · ${plural(t.cards, "card")}`) : null,
  ];
}

function playerPanel(ctx, p, map, isMe) {
  const view = ctx.state.view;
  const active = view.phase === "turn" && view.active === p.seat;
  const panel = h(`section.player.dbg-player${active ? ".active" : ""}${struck(ctx, p.seat) ? ".took-hit" : ""}`, { id: isMe ? "me" : `player-${p.seat}`, dataset: { seat: p.seat } });
  const foe = map.at({ seat: p.seat });
  panel.append(h("h2", {}, active ? h("span.dbg-turnmark", { title: "whose turn it is" }, "▶") : null,
    ctx.seatName(p.seat), ...counts(p),
    foe ? h("button.primary", { type: "button", dataset: { choice: foe }, onclick: () => ctx.choose(foe) },
      map.label(foe)) : null));
  // Your turn is about your Super Hero and what you have in play: marked for the page to keep
  // in sight with the decision (the in-play area shown even while empty).
  const turn = isMe && ctx.state.decision && ctx.state.decision.kind === "turn";
  const hero = heroBox(ctx, p);
  if (turn) hero.dataset.decisionArea = "your Super Hero";
  panel.append(hero);
  const zones = h("div.dbg-zones");
  if (p.in_play.length || turn) {
    const inPlay = zoneBox("In play this turn", pile(ctx, isMe ? "play" : "other-play", p.in_play, map, { small: true, compact: true, empty: "nothing yet" }));
    if (turn) inPlay.dataset.decisionArea = "in play";
    zones.append(inPlay);
  }
  if (p.locations.length) zones.append(zoneBox("Locations (Ongoing)", pile(ctx, isMe ? "play" : "other-loc", p.locations, map, { small: true })));
  if (p.under.length) zones.append(zoneBox("Under the Super Hero", pile(ctx, isMe ? "under" : "other-under", p.under, map, { small: true })));
  if (!isMe && p.known_in_hand.length) zones.append(zoneBox("Known in hand", pile(ctx, "known", p.known_in_hand, map, { small: true })));
  panel.append(zones);
  if (p.discard.length) panel.append(discardBox(ctx, p, map, isMe));
  return panel;
}

// Another player at a glance: one row (who, Super Hero, counts, VP), the cards in play when
// it is their turn, everything else one click away.
function opponentRow(ctx, p, map) {
  const view = ctx.state.view;
  const active = view.phase === "turn" && view.active === p.seat;
  const foe = map.at({ seat: p.seat });
  const row = h(`section.dbg-opp${active ? ".active" : ""}${struck(ctx, p.seat) ? ".took-hit" : ""}`, { id: `player-${p.seat}`, dataset: { seat: p.seat } });
  row.append(h("div.dbg-opp-line", {},
    active ? h("span.dbg-turnmark", { title: "whose turn it is" }, "▶") : null,
    h("strong", {}, ctx.seatName(p.seat)),
    h("span.dbg-opp-hero", { title: p.counter_attack || "" }, p.hero_name || "face-down Super Hero"),
    ...counts(p),
    foe ? h("button.primary", { type: "button", dataset: { choice: foe }, onclick: () => ctx.choose(foe) },
      map.label(foe)) : null));
  if (active && p.in_play.length) row.append(pile(ctx, "other-play", p.in_play, map, { small: true, compact: true }));
  const more = [];
  if (p.hero) more.push(heroBox(ctx, p));
  if (!active && p.in_play.length) more.push(zoneBox("In play this turn", pile(ctx, "other-play", p.in_play, map, { small: true })));
  if (p.locations.length) more.push(zoneBox("Locations (Ongoing)", pile(ctx, "other-loc", p.locations, map, { small: true })));
  if (p.under.length) more.push(zoneBox("Under the Super Hero", pile(ctx, "other-under", p.under, map, { small: true })));
  if (p.known_in_hand.length) more.push(zoneBox("Known in hand", pile(ctx, "known", p.known_in_hand, map, { small: true })));
  if (p.discard.length) more.push(discardBox(ctx, p, map, false));
  if (more.length) row.append(h("details.dbg-more", {}, h("summary", {}, "Details"), ...more));
  return row;
}

function zoneBox(title, content) {
  return h("div.dbg-zone", {}, h("h3", {}, title), content);
}

function discardBox(ctx, p, map, isMe) {
  // a choice among the discard pile's cards: the pile shown open
  const wanted = isMe && map.aims("discard");
  const top = p.discard[p.discard.length - 1];
  const name = (ctx.cards.cards[top] || { name: top }).name;
  return h("details.dbg-discard", { open: wanted || undefined },
    h("summary", {}, `Discard pile (${p.discard.length}) — top: ${name}`),
    pile(ctx, isMe ? "discard" : "other-discard", p.discard, map, { small: true }));
}

// The table: one line of stacks (Kicks, Weakness, main deck, Super Hero stack), then the
// face-up Stage beside the Line-Up, all at a glance.
function stacks(ctx, map) {
  const view = ctx.state.view;
  const { cards } = ctx;
  const box = h("section.panel.dbg-table", { id: "dbg-stacks" });
  const row = h("div.dbg-stacks");
  const kick = map.at({ zone: "kick" });
  const k = cards.cards.kick;
  // Kick's type is an estimate: shown with its mark, like every card's.
  const kickType = k ? h("span.dbg-type", { title: provenanceTitle(k, "type") }, k.type, h("span.mark", {}, mark(k, "type"))) : null;
  const kickCost = view.kicks ? h("span.dbg-cost", { title: "cost" }, cards.kick_cost ?? (k && k.cost)) : " (empty)";
  row.append(h("div.dbg-stack", { id: "dbg-kicks" },
    kick ? h("button.dbg-pile.pick", { type: "button", dataset: { card: "kick", choice: kick },
      title: `${map.label(kick)}\n\n${k ? hoverText(k) : ""}`, "aria-label": map.label(kick),
      onclick: () => ctx.choose(kick) }, `Kicks ${view.kicks}`, kickType, kickCost)
      : h("span.dbg-pile", { title: k ? hoverText(k) : "" }, `Kicks ${view.kicks}`, kickType, kickCost)));
  row.append(h("div.dbg-stack", { id: "dbg-weakness" },
    h("span.dbg-pile.weak", { title: "Weakness stack: -1 VP each at the end" }, `Weakness ${view.weaknesses} left`)));
  const top = view.main_deck_top;
  const topChoice = top ? map.at({ zone: "main_top", card: top }) : null;
  row.append(h("div.dbg-stack", { id: "dbg-main" },
    h("span.dbg-pile", {}, `Main deck ${view.main_deck}`),
    top ? tile(ctx, top, { small: true, note: "on top", choice: topChoice, label: topChoice && map.label(topChoice) }) : null));
  const bosses = view.bosses;
  const boss = bosses.current ? cards.heroes[bosses.current] : null;
  row.append(h("div.dbg-stack", { id: "dbg-bosses" },
    h("span.dbg-pile", { title: "The Stage Bosses, face down" }, `Super Hero stack ${bosses.remaining}`),
    bosses.defeated.length ? h("span.dim", {}, " Defeated: ",
      bosses.defeated.map((id) => (cards.heroes[id] || { name: id }).name).join(", ")) : null));
  const ultra = map.at({ zone: "ultra" });
  if (ultra) {
    row.append(h("div.dbg-stack", { id: "dbg-ultra" },
      h("button.dbg-pile.pick", { type: "button", dataset: { choice: ultra }, onclick: () => ctx.choose(ultra) },
        map.label(ultra))));
  }
  if (view.destroyed.length) {
    row.append(h("span.dim", { title: view.destroyed.map((id) => (cards.cards[id] || { name: id }).name).join(", ") },
      `Destroyed: ${view.destroyed.length} card${view.destroyed.length === 1 ? "" : "s"}`));
  }
  box.append(row);
  // The Stage: the face-up one can be challenged for its cost.
  const stage = view.stages;
  const challenge = map.at({ zone: "stage" });
  const tableau = h("div.dbg-tableau");
  if (stage.top) {
    const s = cards.cards[stage.top];
    tableau.append(h("div.dbg-stage", { id: "dbg-stage" },
      h("h3", {}, `Stage (${stage.remaining} left)`),
      tile(ctx, stage.top, { choice: challenge, label: challenge && map.label(challenge),
        note: challenge || view.phase === "over" ? `defeat for ${s.cost}` : `costs ${s.cost} Power` }),
      boss ? h("div.dbg-hero.dbg-boss", { title: provenanceTitle(boss, "counter_attack") },
        h("strong", {}, `Stage Boss: ${boss.name}`),
        h("div.dbg-ca", {}, boss.counter_attack, h("span.mark", {}, mark(boss, "counter_attack")))) : null));
  } else {
    tableau.append(h("div.dbg-stage", { id: "dbg-stage" }, h("h3", {}, "Stage"),
      h("div.dbg-back", {}, stage.remaining ? `${stage.remaining} face down` : "none left")));
  }
  const lineup = h("div.dbg-row.dbg-lineup", { id: "dbg-lineup", dataset: { zone: "lineup" } });
  for (const id of view.line_up) {
    if (!id) { lineup.append(h("div.dbg-card.empty", {}, "empty")); continue; }
    const choice = map.at({ zone: "lineup", card: id });
    lineup.append(tile(ctx, id, { choice, label: choice && map.label(choice) }));
  }
  const buying = view.line_up.some((id) => id && map.at({ zone: "lineup", card: id }));
  tableau.append(h("div.dbg-lineup-box", { dataset: buying ? { decisionArea: "line-up" } : {} }, h("h3", {}, "Line-Up"), lineup));
  box.append(tableau);
  return box;
}

function turnLine(ctx) {
  const view = ctx.state.view;
  if (view.phase === "over") return h("div.dbg-turn", { id: "dbg-turn" }, h("strong", {}, `Game over after ${view.turn} turns`));
  const mine = ctx.seat === view.active;
  const others = view.pending.filter((d) => d.seat !== ctx.seat);
  return h("div.dbg-turn", { id: "dbg-turn" },
    h("strong", {}, `Turn ${view.turn} — ${mine ? "your turn" : `${ctx.seatName(view.active)} is playing`}`),
    h("span.dbg-power", { id: "dbg-power", title: `${mine ? "Your" : "Their"} Power this turn` }, `⚡ ${view.power} Power`),
    view.this_turn.cannot_buy ? h("span.chip.atk", {}, "can't buy this turn") : null,
    view.this_turn.stage_defeated ? h("span.chip", {}, "Stage defeated this turn") : null,
    view.this_turn.under_discount ? h("span.chip", {}, `-${view.this_turn.under_discount} on cards under your Super Hero`) : null,
    ...others.map((d) => h("span.waiting", {}, ` ${ctx.seatName(d.seat)} ${DOING[d.kind] || "is deciding"}…`)));
}

function fights(ctx) {
  const sel = ctx.selection;
  if (sel.seen !== ctx.lastEvents) {
    sel.seen = ctx.lastEvents;
    sel.fights = [...(sel.fights || []), ...ctx.lastEvents.filter((e) => FIGHT.has(e.type))].slice(-6);
  }
  if (!sel.fights || !sel.fights.length) return null;
  const newest = ctx.lastEvents.length ? ctx.lastEvents[0].step : -1;
  return h("section.panel.dbg-fight", { id: "dbg-fight" }, h("h2", {}, "Attacks and defenses"),
    // an Attack of this update strikes in (no motion under prefers-reduced-motion)
    h("ol", {}, sel.fights.map((e) => h(`li${e.step === newest ? `.new${e.type === "AttackMade" ? ".strike" : ""}` : ""}`, { dataset: { type: e.type } },
      h("span.dbg-fight-text", {}, e.text), " ", ctx.ruleLink ? ctx.ruleLink(e.rule) : null))));
}

// The turn's moves that are no card of the table, as buttons of their own, in this order.
const QUICK = ["play-power", "challenge", "buy-kick", "end"];

function quickName(c) {
  if (c.verb === "buy") return c.target && c.target.zone === "kick" ? "buy-kick" : null;
  return c.verb;
}

// The pending decision: the prompt, quick buttons, and every legal choice with its label.
function decisionPanel(ctx, map) {
  const decision = ctx.state.decision;
  const panel = h("section.panel.decision.dbg-decision", { id: "dbg-decision", dataset: { kind: decision.kind, decisionControls: "" } },
    h("h2", {}, decision.prompt));
  const all = h("div.dbg-choices", { id: "dbg-choices" },
    map.choices.map(({ id: choice, label }) => h("button", {
      type: "button", dataset: { choice }, title: choice, onclick: () => ctx.choose(choice),
    }, label)));
  if (decision.kind === "turn") {
    const quick = h("div.row.dbg-quick");
    // The suggested move is never the one that throws the turn away: "End your turn" only
    // once nothing else is left, "play every Power card" while it is there.
    const suggested = map.choices.some((x) => quickName(x) === "play-power") ? "play-power"
      : map.choices.every((x) => quickName(x) === "end") ? "end" : null;
    for (const name of QUICK) {
      const c = map.choices.find((x) => quickName(x) === name);
      if (c) {
        quick.append(h(`button${name === suggested ? ".primary" : ""}`, {
          type: "button", dataset: { choice: c.id }, id: `dbg-${name}`, onclick: () => ctx.choose(c.id),
        }, c.label));
      }
    }
    panel.append(h("p.hint", {}, "Click a card in your hand to play it, a Line-Up card to buy it, the Stage to challenge it."),
      quick, h("details.dbg-all", {}, h("summary", {}, map.choices.length === 1 ? "The only choice" : `All ${map.choices.length} choices`), all));
  } else {
    if (map.choices.some((c) => c.verb === "defend")) {
      panel.append(h("p.hint", {}, "Click a Defense in your hand to avoid the Attack (one Defense per Attack)."));
    }
    panel.append(all);
  }
  return panel;
}

function scoreboard(ctx) {
  const view = ctx.state.view;
  const outcome = view.outcome;
  const rows = view.players.map((p) => h(`tr${outcome && outcome.winners.includes(p.seat) ? ".win" : ""}`, {},
    h("td", {}, ctx.seatName(p.seat)), h("td", {}, p.hero_name || "?"),
    h("td", {}, String(p.vp)), h("td", {}, String(p.stages)), h("td", {}, String(p.cards))));
  return h("section.panel.dbg-score", { id: "dbg-score" }, h("h2", {}, "Final score"),
    h("table", {}, h("thead", {}, h("tr", {}, ["Player", "Super Hero", "VP", "Stages", "Cards"].map((t) => h("th", {}, t)))),
      h("tbody", {}, rows)),
    outcome ? h("p.dim", {}, `${outcome.reason}${outcome.detail && outcome.detail.decided_by ? ` — decided by ${outcome.detail.decided_by}` : ""}`) : null);
}

export function renderView(container, ctx) {
  startBoard(container, FACE);
  const { state } = ctx;
  const view = state.view;
  const map = decisionMap(state.decision);
  container.append(turnLine(ctx));
  if (view.phase === "over") container.append(scoreboard(ctx));
  const me = view.players.find((p) => p.seat === ctx.seat && p.hand);
  const n = view.players.length;
  const start = ctx.seat === null || ctx.seat === undefined ? 0 : ctx.seat + 1;
  const others = h("div.dbg-others", { id: "dbg-others" });
  for (let k = 0; k < n; k++) {  // clockwise from the seat after yours
    const p = view.players[(start + k) % n];
    if (p !== me) others.append(opponentRow(ctx, p, map));
  }
  container.append(others);
  container.append(stacks(ctx, map));
  const fight = fights(ctx);
  if (fight) (ctx.latest || container).append(fight);
  if (me) container.append(playerPanel(ctx, me, map, true));
  container.append(h("p.legend", {}, Object.values(ctx.cards.legend || {}).join(" · "),
    " · ★ VP depend on your deck at the end"));
  // The decision and the hand: always on screen (docked at the bottom).
  const dock = h("div.dock", { id: "dock" });
  if (state.decision) dock.append(decisionPanel(ctx, map));
  if (me) {
    dock.append(h("div.dbg-zone.dbg-hand", { id: "dbg-hand" }, h("h3", {}, `Your hand (${me.hand.length})`),
      pile(ctx, "hand", me.hand, map, { empty: "empty" })));
  }
  if (dock.children.length) container.append(dock);
  // Another decision is about the cards it names: each pile holding one (outside the dock),
  // else the decision's own list.
  if (state.decision && state.decision.kind !== "turn") {
    const piles = [...container.querySelectorAll(".dbg-row")].filter((row) => !dock.contains(row)
      && row.querySelector(":scope > [data-choice]"));
    for (const row of piles) row.dataset.decisionArea = row.dataset.zone || "cards";
    const panel = dock.querySelector(".dbg-decision");
    if (!piles.length) panel.dataset.decisionArea = "the choices";
    // Many cards to choose from, each clickable where it lies (the board, the hand): their
    // buttons fold away under "All N choices", the rest (skip, a stack) stay in sight, so the
    // decision stays short enough for a phone's window.
    const list = panel.querySelector(".dbg-choices");
    const onCard = [...list.children].filter((b) => [...container.querySelectorAll(
      `[data-card][data-choice="${CSS.escape(b.dataset.choice)}"]`)].some((t) => !t.closest("details:not([open])")));
    if (onCard.length > 4) {
      const rest = [...list.children].filter((b) => !onCard.includes(b)).map((b) => {
        const again = b.cloneNode(true);
        again.onclick = () => ctx.choose(b.dataset.choice);
        return again;
      });
      const all = h("details.dbg-all", {}, h("summary", {}, `All ${list.children.length} choices`));
      list.before(...[h("p.hint", {}, "Click a card to choose it."),
        rest.length ? h("div.row.dbg-quick", {}, ...rest) : null, all].filter(Boolean));
      all.append(list);
    }
  }
}
