// What every table page shares beyond drawing the game (face.js): focus kept across re-renders,
// number keys for the decision's choices, "your move" in the tab's title and icon (a beep and a
// desktop notification if the player asks), the one name of a downloaded record. Game ids never
// appear here: the game draws itself.
import { decisionMap } from "./face.js";

// A rule reference written into a text ("… (``game.ruling.name``)"), as people read it:
// the references taken out (with their brackets), returned apart for a "?" link.
const REF = /\(?`{0,2}\b([a-z0-9]+(?:\.[a-z0-9-]+){2,})\b`{0,2}\)?/g;
export function withoutRefs(text) {
  const refs = [];
  const out = String(text || "").replace(REF, (whole, ref) => { refs.push(ref); return ""; })
    .replace(/\s+([.,;:])/g, "$1").replace(/\s{2,}/g, " ").trim();
  return { text: out, refs };
}

export function recordName(game, tableId) {
  return `kumite-${game}-${tableId}.json`;
}

// What identifies a focused element across a re-render: its choice, else its id.
function focusKey(el) {
  if (!el || el === document.body) return null;
  if (el.dataset && el.dataset.choice) return `[data-choice="${CSS.escape(el.dataset.choice)}"]`;
  if (el.id) return `#${CSS.escape(el.id)}`;
  if (el.dataset && el.dataset.card) return `button[data-card="${CSS.escape(el.dataset.card)}"]`;
  return null;
}

// Re-render the board keeping the keyboard focus where it was (or on the new decision)
// and every scrolled box where it was.
export function keepFocus(board, render) {
  const active = document.activeElement;
  const inBoard = active && board.contains(active);
  const key = inBoard ? focusKey(active) : null;
  render();
  if (key) {
    const again = board.querySelector(key);
    if (again && !again.disabled) again.focus({ preventScroll: true });
    if (again && document.activeElement === again) return;
  }
  // Focus goes to a new decision if it was on the board or nowhere (never out of the chat).
  const decision = board.querySelector(".decision");
  if (decision && (inBoard || !active || active === document.body)) {
    decision.setAttribute("tabindex", "-1");
    decision.focus({ preventScroll: true });
  }
}

let keyed = [];
// Number the decision's choices (1-9, then 0) and let those keys pick them.
export function numberKeys(board, decision) {
  keyed = [];
  if (!decision) return;
  decision.legal.slice(0, 10).forEach((choice, i) => {
    const key = String((i + 1) % 10);
    const buttons = [...board.querySelectorAll(`button[data-choice="${CSS.escape(choice)}"]`)];
    for (const b of buttons) b.dataset.key = key;
    // The first clickable place of a choice is the one the key presses.
    const target = buttons.find((b) => !b.disabled && b.offsetParent !== null) || buttons[0];
    if (target) keyed.push([key, target]);
  });
}

document.addEventListener("keydown", (event) => {
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  const t = event.target;
  if (t && (t.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(t.tagName))) return;
  const found = keyed.find(([key]) => key === event.key);
  if (!found || !found[1].isConnected || found[1].disabled) return;
  event.preventDefault();
  found[1].focus({ preventScroll: true });
  found[1].click();
});

// -- your move, noticed ----------------------------------------------------------------------

const SETTINGS = { sound: "set-sound", notify: "set-notify", auto: "set-auto" };
const settings = {};
for (const [name, id] of Object.entries(SETTINGS)) {
  const box = document.getElementById(id);
  settings[name] = localStorage.getItem(`kumite.${name}`) === "1";
  if (!box) continue;
  box.checked = settings[name];
  box.addEventListener("change", () => {
    settings[name] = box.checked;
    localStorage.setItem(`kumite.${name}`, box.checked ? "1" : "0");
    if (name === "notify" && box.checked && "Notification" in window
      && Notification.permission === "default") Notification.requestPermission();
  });
}

const baseTitle = document.title;
const favicon = document.getElementById("favicon");
const plainIcon = favicon ? favicon.href : null;
// The same mark with a bright dot: the tab says "your move" even when its title is cut.
const MOVE_ICON = "data:image/svg+xml," + encodeURIComponent(
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#ffb020"/>'
  + '<path d="M9 7h4v7l6-7h5l-7 8 7 10h-5l-5-7-1 1v6H9z" fill="#1b1b1b"/><circle cx="26" cy="6" r="5" fill="#e5484d"/></svg>');
let lastNoticed = null;

function beep() {
  const Audio = window.AudioContext || window.webkitAudioContext;
  if (!Audio) return;
  const audio = new Audio();
  const tone = audio.createOscillator();
  const gain = audio.createGain();
  tone.frequency.value = 660;
  gain.gain.setValueAtTime(0.08, audio.currentTime);
  gain.gain.exponentialRampToValueAtTime(0.0001, audio.currentTime + 0.25);
  tone.connect(gain).connect(audio.destination);
  tone.start();
  tone.stop(audio.currentTime + 0.25);
  tone.onended = () => audio.close();
}

let autoTimer = null;
export function yourMove(state, logList, choose) {
  const mine = !!state.decision && !state.outcome;
  document.title = mine ? `● Your move — ${baseTitle}` : baseTitle;
  if (favicon) favicon.href = mine ? MOVE_ICON : plainIcon;
  const key = mine ? `${state.step}:${state.decision.kind}` : null;
  if (key === lastNoticed) return;
  clearTimeout(autoTimer);  // an answer planned for a decision that has gone
  lastNoticed = key;
  if (!mine) return;
  if (settings.sound) beep();
  if (settings.notify && document.hidden && "Notification" in window && Notification.permission === "granted") {
    new Notification("kumite: your move", { body: state.decision.prompt || "", tag: "kumite-move" });
  }
  // A forced choice, answered for the player only if they asked for it (off by default:
  // an instant answer could tell the others that nothing else was possible).
  if (settings.auto && state.decision.legal.length === 1) {
    const [only] = state.decision.legal;
    const label = decisionMap(state.decision).label(only) || only;
    autoTimer = setTimeout(() => {
      const note = document.createElement("li");
      note.className = "note";
      note.textContent = `Only one choice: "${label}" — answered for you (Settings).`;
      logList.append(note);
      logList.scrollTop = logList.scrollHeight;
      choose(only);
    }, 600 + Math.random() * 900);
  }
}

// -- the decision in sight ---------------------------------------------------------------------

// The box that scrolls the board: the board itself where it scrolls on its own (a desktop's
// columns), else the page.
function scrollerOf(board) {
  const style = getComputedStyle(board);
  return /(auto|scroll)/.test(style.overflowY) && board.scrollHeight > board.clientHeight ? board : null;
}

// Whatever the page scrolls into sight (a card a check or a keyboard's focus brings in, a
// `scrollIntoView`) lands above the dock, not under it: the scrolling box's bottom padding for
// scrolling is kept equal to the docked dock's height (0 while the dock is part of the board).
let dockWatch = null;
function padForDock(board) {
  const dock = board.querySelector(".dock");
  const set = () => {
    const docked = dock && dock.isConnected && /(fixed|sticky)/.test(getComputedStyle(dock).position);
    const pad = docked ? `${Math.ceil(dock.getBoundingClientRect().height) + 6}px` : "";
    for (const el of [board, document.documentElement]) {
      el.style.scrollPaddingBottom = pad;
      el.style.setProperty("--dock-pad", pad || "0px");
    }
  };
  set();
  if (dockWatch) dockWatch.disconnect();
  dockWatch = null;
  if (dock && "ResizeObserver" in window) {
    dockWatch = new ResizeObserver(set);
    dockWatch.observe(dock);
  }
}

let placed = null;
// When a decision first shows, bring the part of the board it is about (the faces mark it
// `data-decision-area`) and its controls (`data-decision-controls`) into sight above the
// dock, without moving anything already in sight. Only once per decision: the player's own
// scrolling afterwards is left alone.
export function placeDecision(board, key) {
  padForDock(board);
  if (!key) { placed = null; return; }
  if (key === placed) return;
  placed = key;
  const dock = board.querySelector(".dock");
  const marked = [...board.querySelectorAll("[data-decision-area], [data-decision-controls]")]
    .filter((el) => !(dock && dock.contains(el)) && el.getClientRects().length);
  if (!marked.length) return;
  const scroller = scrollerOf(board);
  const view = scroller ? scroller.getBoundingClientRect() : { top: 0, bottom: window.innerHeight };
  const docked = dock && /(fixed|sticky)/.test(getComputedStyle(dock).position);
  const bottom = docked ? Math.min(view.bottom, dock.getBoundingClientRect().top) : view.bottom;
  const top = Math.max(view.top, 0);
  const rects = marked.map((el) => el.getBoundingClientRect());
  const first = Math.min(...rects.map((r) => r.top));
  const last = Math.max(...rects.map((r) => r.bottom));
  // The least scrolled position that shows them all (the others' boards at the top stay in
  // sight when they can); their top first when all cannot be in sight at once.
  const now = scroller ? scroller.scrollTop : window.scrollY;
  let to = Math.max(0, now + last - bottom + 6);
  if (to > now + first - top - 6) to = Math.max(0, now + first - top - 6);
  const by = to - now;
  if (Math.abs(by) < 1) return;
  if (scroller) scroller.scrollBy({ top: by, behavior: "instant" });
  else window.scrollBy({ top: by, behavior: "instant" });
}
