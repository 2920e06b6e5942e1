// Step through a finished game: the spectator's view after each step, and what happened.
import { api, clear, h } from "./api.js";

const tableId = decodeURIComponent(window.location.pathname.split("/").pop());
let frames = [];
let index = 0;
let renderer = null;
let cards = null;
let seats = [];
let rules = {};

function seatName(i) {
  const s = seats[i];
  return s ? (s.name || `Player ${i + 1}`) : `Player ${i + 1}`;
}

function show() {
  const frame = frames[index];
  document.getElementById("position").textContent = `step ${index} of ${frames.length - 1}`;
  const log = clear(document.getElementById("log"));
  for (const [s, c] of Object.entries(frame.choices)) log.append(h("li.dim", {}, `${seatName(Number(s))}: ${c}`));
  for (const e of frame.events) log.append(h("li", {}, e.text, h("span.rule", {}, e.rule)));
  const state = { view: frame.view, decision: null, submitted: false, seats, waiting: [], outcome: null };
  const history = frames.slice(0, index + 1).flatMap((f) => f.events);
  renderer.renderView(document.getElementById("board"), {
    state, cards, rules, seat: null, choose: () => {}, seatName, lastEvents: frame.events, history,
    selection: {}, h, clear, rerender: show,
  });
}

function go(to) {
  index = Math.max(0, Math.min(frames.length - 1, to));
  show();
}

async function main() {
  const data = await api(`/api/tables/${tableId}/replay`);
  frames = data.frames;
  seats = data.seats;
  [cards, rules] = await Promise.all([
    api(`/api/tables/${tableId}/cards`),
    api(`/api/games/${data.game}/rules`),
  ]);
  renderer = await import(data.renderer);
  document.getElementById("title").textContent = `Replay of table ${tableId}`;
  document.getElementById("download").href = `/api/tables/${tableId}/record`;
  document.getElementById("first").onclick = () => go(0);
  document.getElementById("prev").onclick = () => go(index - 1);
  document.getElementById("next").onclick = () => go(index + 1);
  document.getElementById("last").onclick = () => go(frames.length - 1);
  go(frames.length - 1);
}

main().catch((error) => document.getElementById("board").append(h("p.error", {}, error.message)));
