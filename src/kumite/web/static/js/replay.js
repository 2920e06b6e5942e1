// Step through a finished game: the spectator's view after each step, and what happened.
// A slider, a jump to each round or turn, labelled choices, arrow keys.
import { api, clear, h } from "./api.js";
import { enableZoom } from "./zoom.js";
import { recordName } from "./board.js";
import { aliasesOf, faceContext, nameTexts, ruleLink, seatLabel } from "./face.js";

const tableId = decodeURIComponent(window.location.pathname.split("/").pop());
let frames = [];
let index = 0;
let renderer = null;
let cards = null;
let seats = [];
let marks = [];
let rules = {};
let ruleNames = {};  // rule reference -> its plain name (what a rule tag shows)
let game = "";

// Each seat by the name the server made for it (with its team, in a team game).
function seatName(i) {
  return seatLabel({ seats, marks }, i);
}

// The first step of each round, clash or turn: where the view's round, clash or turn number
// changes (the views carry them; no game is named here).
function milestones() {
  const out = [];
  let last = "";
  frames.forEach((frame, i) => {
    const view = frame.view || {};
    const at = ["round", "clash", "turn"].filter((k) => typeof view[k] === "number" && view[k] > 0);
    if (!at.length) return;
    const key = at.map((k) => `${k} ${view[k]}`).join(" · ");
    // The last view is the game over: a counter it moved on (the round after the knock-out)
    // names a round nobody played, so it is no milestone.
    if (key !== last && i < frames.length - 1) { last = key; out.push([i, key.replace(/^./, (c) => c.toUpperCase())]); }
  });
  return out;
}

function show() {
  const frame = frames[index];
  document.getElementById("position").textContent = `step ${index} of ${frames.length - 1}`;
  document.getElementById("slider").value = String(index);
  // the jump list names the round (clash, turn) this step is in
  const jump = document.getElementById("jump");
  const at = [...jump.options].filter((o) => o.value !== "" && Number(o.value) <= index).pop();
  jump.value = at ? at.value : "";
  const log = clear(document.getElementById("log"));
  // each choice as the server labelled it for the seat that made it
  for (const [s, c] of Object.entries(frame.choices)) {
    log.append(h("li.dim", { title: c }, `${seatName(Number(s))}: ${(frame.labels || {})[s] || c}`));
  }
  for (const e of frame.events) log.append(h("li", {}, e.text, ruleLink(game, ruleNames, e.rule)));
  const state = { view: frame.view, decision: null, submitted: false, seats, marks, waiting: [], outcome: null };
  const history = frames.slice(0, index + 1).flatMap((f) => f.events);
  renderer.renderView(document.getElementById("board"), faceContext({
    state, cards, rules, lastEvents: frame.events, history, rerender: show,
    latest: clear(document.getElementById("latest")), game, ruleNames,
  }));
}

function go(to) {
  index = Math.max(0, Math.min(frames.length - 1, to));
  show();
}

// Any card on the page zooms (a tap on one that is no choice, a long press, the mouse resting).
enableZoom(document.body, () => cards);

async function main() {
  const data = await api(`/api/tables/${tableId}/replay`);
  frames = data.frames;
  seats = data.seats;
  marks = data.marks || [];
  game = data.game;
  [cards, rules, ruleNames] = await Promise.all([
    api(`/api/tables/${tableId}/cards`),
    api(`/api/games/${data.game}/rules`),
    api(`/api/games/${data.game}/rule-names`),
  ]);
  renderer = await import(data.renderer);
  // every step's texts by the seats' names, once: the log and the face's panels read them
  for (const frame of frames) {
    nameTexts(seats, aliasesOf(renderer, frame.view), { events: frame.events, labels: frame.labels });
  }
  document.getElementById("title").textContent = `Replay of table ${tableId}`;
  document.getElementById("how-to-play").href = `/rules/${game}`;
  const download = document.getElementById("download");
  download.href = `/api/tables/${tableId}/record`;
  download.setAttribute("download", recordName(game, tableId));
  const slider = document.getElementById("slider");
  slider.max = String(frames.length - 1);
  slider.addEventListener("input", () => go(Number(slider.value)));
  const jump = document.getElementById("jump");
  jump.append(h("option", { value: "" }, "a round or turn…"));
  for (const [i, text] of milestones()) jump.append(h("option", { value: String(i) }, `${text} (step ${i})`));
  jump.addEventListener("change", () => { if (jump.value !== "") go(Number(jump.value)); });
  document.getElementById("first").onclick = () => go(0);
  document.getElementById("prev").onclick = () => go(index - 1);
  document.getElementById("next").onclick = () => go(index + 1);
  document.getElementById("last").onclick = () => go(frames.length - 1);
  document.addEventListener("keydown", (event) => {
    const t = event.target;
    if (t && ["INPUT", "SELECT", "TEXTAREA"].includes(t.tagName) && t.id !== "slider") return;
    if (t && t.id === "slider") return;  // the slider steps itself with the arrows
    const to = { ArrowLeft: index - 1, ArrowRight: index + 1, Home: 0, End: frames.length - 1 }[event.key];
    if (to === undefined) return;
    event.preventDefault();
    go(to);
  });
  go(frames.length - 1);
}

main().catch((error) => document.getElementById("board").append(h("p.error", {}, error.message)));
