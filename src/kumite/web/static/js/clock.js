// The table's clock and absent players, self-contained: it follows the messages the table
// page passes on ("kumite:message" events) and draws into #clock. A countdown per seat whose
// clock runs; "time ran out" notes; a button to hand a long-silent seat to a bot.
import { api, clear, h } from "./api.js";
import { seatLabel } from "./face.js";

const box = document.getElementById("clock");
const tableId = decodeURIComponent(window.location.pathname.split("/").pop());
const params = new URLSearchParams(window.location.hash.slice(1));
const mySeat = params.has("seat") ? Number(params.get("seat")) : null;
const token = params.get("token") || "";

let deadlines = {};  // seat -> when (performance.now(), ms) its time runs out
let state = null;
const notes = [];
let timer = null;

// A seat by the name the server made for it (kumite/server/naming.py).
function seatName(seat) {
  return seatLabel(state, seat);
}

function clockText(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  return s >= 60 ? `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}` : `${s} s`;
}

// When each silent seat may be handed to a bot, by this page's clock: the server's
// `absent_in` counted from the update that said it.
let absentTimer = null;
const absentSince = new Map();  // seat -> [absent_in, when that update came]
function absentAt(s) {
  const [left, at] = absentSince.get(s.seat) || [s.absent_in ?? 0, performance.now()];
  return at + left * 1000;
}
function absentNow(s) {
  return performance.now() >= absentAt(s);
}

function draw() {
  if (!box || !state) return;
  const clock = state.clock;
  const silent = mySeat !== null && !state.outcome
    ? state.seats.filter((s) => s.seat !== mySeat && s.kind === "human" && !s.connected && !s.stand_in
      && absentNow(s))
    : [];
  // A seat not yet silent long enough: drawn again once it is (never offered at table start).
  clearTimeout(absentTimer);
  const soon = mySeat === null || state.outcome ? [] : state.seats.filter((s) => s.seat !== mySeat
    && s.kind === "human" && !s.connected && !s.stand_in && !absentNow(s));
  if (soon.length) {
    const wait = Math.min(...soon.map((s) => absentAt(s) - performance.now()));
    absentTimer = setTimeout(draw, Math.max(250, wait + 100));
  }
  const helped = state.seats.filter((s) => s.stand_in);
  box.hidden = !clock && !silent.length && !helped.length && !notes.length;
  if (box.hidden) return;
  clear(box).append(h("h2", {}, "Clock"));
  if (clock) {
    box.append(h("p.hint", {}, clock.per === "move"
      ? `${clockText(clock.seconds)} a move; when it runs out, the ${clock.bot} bot plays that move.`
      : `${clockText(clock.seconds)} a game; once it runs out, the ${clock.bot} bot plays every move left.`));
    const list = h("ul", { id: "clock-times" });
    for (const seat of Object.keys(deadlines)) {
      list.append(h("li", { dataset: { seat } },
        `${seatName(Number(seat))}: `, h("strong.countdown", { role: "timer", dataset: { seat } })));
    }
    box.append(list);
    tick();
  }
  for (const note of notes.slice(-3)) box.append(h("p.dim.timeout-note", { role: "status" }, note));
  for (const s of helped) box.append(h("p.dim", {}, `The ${s.stand_in} bot plays for ${seatName(s.seat)} until they come back.`));
  for (const s of silent) {
    box.append(h("p", {}, `${seatName(s.seat)} is not here. `, h("button", {
      type: "button", class: "stand-in", dataset: { seat: s.seat },
      onclick: async (event) => {
        const button = event.currentTarget;
        try {
          await api(`/api/tables/${tableId}/stand-in`, { method: "POST", body: { seat: mySeat, token, target: s.seat } });
        } catch (error) {
          button.replaceWith(h("span.error", {}, error.message));
        }
      },
    }, "Let a bot play for them")));
  }
}

// The countdowns' text only: the panel itself is redrawn on updates alone.
function tick() {
  const now = performance.now();
  for (const el of box.querySelectorAll(".countdown")) {
    const left = (deadlines[el.dataset.seat] - now) / 1000;
    el.textContent = clockText(left);
    el.parentElement.classList.toggle("error", left <= 10);
  }
}

document.addEventListener("kumite:message", (event) => {
  const data = event.detail;
  if (data.type === "update") {
    state = data.state;
    const now = performance.now();
    deadlines = {};
    for (const [seat, left] of Object.entries((state.clock && state.clock.remaining) || {})) {
      deadlines[seat] = now + left * 1000;
    }
    for (const s of state.seats) absentSince.set(s.seat, [s.absent_in ?? 0, now]);
    draw();
    clearInterval(timer);
    if (Object.keys(deadlines).length) timer = setInterval(tick, 250);
  } else if (data.type === "timeout") {
    notes.push(`Time ran out for ${seatName(data.seat)}: the ${data.bot} bot played that move.`);
    draw();
  }
});
