// A live table: one WebSocket to the authoritative server, the game's own renderer, the
// explained event log, seats, chat and the result. The server only ever sends this seat's
// view and the events this seat may see.
import { api, clear, h, player } from "./api.js";
import { ensurePlayer } from "./player.js";
import { enableZoom } from "./zoom.js";
import { keepFocus, numberKeys, placeDecision, recordName, yourMove } from "./board.js";
import { aliasesOf, faceContext, nameTexts, ruleLink, seatLabel, withNames } from "./face.js";

const tableId = decodeURIComponent(window.location.pathname.split("/").pop());
const params = new URLSearchParams(window.location.hash.slice(1));
const seat = params.has("seat") ? Number(params.get("seat")) : null;
// A seat's token from its link, else (a seat its player holds) this browser's player key.
let token = params.get("token");
let me = player();
let byKey = seat !== null && !token && me !== null;

const board = document.getElementById("board");
const logList = document.getElementById("log");
const statusLine = document.getElementById("status");
const errorToast = document.getElementById("error");
const offline = document.getElementById("offline");
const latest = document.getElementById("latest");

let renderer = null;
let cards = null;
let rules = {};
let ruleNames = {};  // rule reference -> its plain name (what a rule tag shows)
let state = null;
let lastEvents = [];
let history = [];  // every event this seat was sent since the (re)connection, in order
let lastStepShown = -1;
let socket = null;
let retry = 0;
let info = null;
let rematchLink = null;  // this seat's own link to the rematch, sent to this seat alone
const selection = {};  // per-renderer scratch (e.g. a set-up being assembled)

function showError(message) {
  errorToast.textContent = message;
  errorToast.hidden = false;
  clearTimeout(showError.timer);
  showError.timer = setTimeout(() => { errorToast.hidden = true; }, 5000);
}

export function choose(choice) {
  if (!state) return;
  if (!socket || socket.readyState !== WebSocket.OPEN) {
    // Not queued: the table may have moved on by the time we are back.
    showError("Not connected: that choice was not sent. Reconnecting…");
    return;
  }
  socket.send(JSON.stringify({ type: "choose", step: state.step, choice }));
}

// Every seat by the name the server made for it, marked as it is to this seat.
function seatName(index) {
  return seatLabel(state, index);
}

// What the game's view calls each seat besides "Player N" (a face may say).
function aliases() {
  return aliasesOf(renderer, state && state.view);
}

function appendEvents(events) {
  for (const event of events) {
    if (event.step !== lastStepShown) {
      logList.append(h("li.step", {}, `Step ${event.step + 1}`));
      lastStepShown = event.step;
    }
    logList.append(h("li", { dataset: { type: event.type } }, event.text,
      ruleLink(info.game, ruleNames, event.rule)));
  }
  logList.scrollTop = logList.scrollHeight;
}

function renderStatus() {
  if (!state) return;
  if (state.outcome) {
    statusLine.textContent = "Game over";
  } else if (state.decision) {
    statusLine.textContent = "Your move";
  } else if (state.submitted) {
    const others = state.waiting.map(seatName).join(", ");
    statusLine.textContent = `Chosen — waiting for ${others || "the others"}`;
  } else if (state.waiting.length) {
    statusLine.textContent = `Waiting for ${state.waiting.map(seatName).join(", ")}`;
  } else {
    statusLine.textContent = "";
  }
}

function renderSeats() {
  const box = clear(document.getElementById("seats"));
  box.append(h("h2", {}, "Seats"));
  const list = h("ul");
  for (const s of state.seats) {
    const dot = h(`span.dot.${s.kind === "bot" ? "bot" : s.connected ? "on" : "off"}`, {
      title: s.kind === "bot" ? "bot" : s.connected ? "connected" : "not connected" });
    list.append(h("li", { title: s.title, dataset: { seat: s.seat } }, dot, " ",
      h("span.seat-name", {}, seatName(s.seat)),
      s.stand_in ? h("span.dim", {}, " — a bot plays for them") : null,
      s.kind === "open" && !s.claimed ? h("span.dim", {}, " — open seat") : null));
  }
  box.append(list);
  // Who is watching: how many, and the names of those known to this server.
  const w = state.watching || { count: 0, names: [] };
  if (w.count) {
    const guests = w.count - w.names.length;
    const who = [...w.names, ...(guests ? [guests === 1 ? "a guest" : `${guests} guests`] : [])];
    box.append(h("p.watching", { id: "watching" }, `Watching (${w.count}): ${who.join(", ")}`));
  }
  if (seat !== null && !state.outcome) {
    box.append(h("button", {
      type: "button", id: "leave",
      onclick: async () => {
        if (!window.confirm("Leave this seat? Someone else may then join it.")) return;
        await api(`/api/tables/${tableId}/leave`, { method: "POST", body: { seat, token: token || "" } });
        window.location.href = "/";
      },
    }, "Leave seat"));
    box.append(" ", h("button", {
      type: "button", id: "resign",
      onclick: async () => {
        if (!window.confirm("Resign? The game ends and the other side wins.")) return;
        try {
          await api(`/api/tables/${tableId}/resign`, { method: "POST", body: { seat, token: token || "" } });
        } catch (error) { showError(error.message); }
      },
    }, "Resign"));
  }
}

let resultShown = false;
function renderResult() {
  const box = document.getElementById("result");
  if (!state.outcome) { box.hidden = true; resultShown = false; return; }
  box.hidden = false;
  if (!resultShown) {
    // The result, once, brought into sight (on a phone it is below the board).
    resultShown = true;
    requestAnimationFrame(() => box.scrollIntoView({ block: "nearest" }));
  }
  clear(box).append(h("h2", {}, "Result"));
  const o = state.outcome;
  box.append(h("p.outcome", { id: "outcome" }, `${state.result} — ${withNames(o.reason, state.seats, aliases())}`));
  if (state.ratings) box.append(ratingChanges(state.ratings));
  const actions = h("div.row");
  actions.append(h("a", { href: `/api/tables/${tableId}/record`, download: recordName(info.game, tableId), id: "download" }, "Download record"));
  actions.append(h("a", { href: `/replay/${tableId}`, id: "replay" }, "Replay"));
  if (seat !== null) {
    actions.append(h("button", {
      type: "button", id: "rematch",
      onclick: async () => {
        try {
          const made = await api(`/api/tables/${tableId}/rematch`, { method: "POST", body: { seat, token: token || "" } });
          const mine = made.links.find((l) => l.seat === seat);
          window.location.href = mine ? mine.play || mine.url : made.spectate;
        } catch (error) { showError(error.message); }
      },
    }, "Rematch"));
  }
  if (state.next_table) {
    // A seat goes to its own seat of the rematch: by the link sent to it, or by its key.
    const href = rematchLink || (byKey ? `/table/${state.next_table}#seat=${seat}` : `/table/${state.next_table}`);
    actions.append(h("a", { href, id: "to-rematch" }, seat !== null && href.includes("#seat=") ? "Go to the rematch" : "Watch the rematch"));
  }
  box.append(actions);
}

// How this game moved each rated seat's rating (one number on the display scale), with
// OpenSkill's μ and σ behind "Details".
function ratingChanges(ratings) {
  const seats = Object.keys(ratings).map(Number).sort((a, b) => (a === seat ? -1 : b === seat ? 1 : a - b));
  const list = h("ul.rating-changes", { id: "rating-changes" });
  const details = h("details", { id: "rating-details" }, h("summary", {}, "Details"));
  const rows = h("ul.dim");
  for (const i of seats) {
    const r = ratings[i];
    const change = r.after - r.before;
    list.append(h("li", { dataset: { seat: i } }, `${seatName(i)}: ${r.after} `,
      h(`span.${change >= 0 ? "up" : "down"}`, {}, `(${change >= 0 ? "+" : "−"}${Math.abs(change)})`)));
    rows.append(h("li", {}, `${seatName(i)}: μ ${r.mu.toFixed(2)}, σ ${r.sigma.toFixed(2)}`));
  }
  details.append(h("p.hint", {}, "A rating is 1500 + 100 × (μ − 3σ), at least 0: OpenSkill's conservative estimate, rescaled."), rows);
  return h("div.ratings", {}, h("h3", {}, "Ratings"), list, details);
}

function render() {
  if (!state || !renderer) return;
  // Let tests and tools follow the game: the step, and the kind of this seat's pending
  // decision ("" once it is answered, or when there is none).
  document.body.dataset.step = state.step;
  document.body.dataset.decision = state.decision ? state.decision.kind : "";
  renderStatus();
  renderSeats();
  renderResult();
  // The face redraws the board; so does its ctx.rerender (a set-up being assembled), keeping
  // the focus and the number keys each time.
  const draw = () => {
    keepFocus(board, () => renderer.renderView(board, ctx));
    numberKeys(board, state.decision);
  };
  const ctx = faceContext({ state, cards, rules, seat, choose, lastEvents, history, selection,
    latest: clear(latest), rerender: draw, game: info.game, ruleNames });
  draw();
  placeDecision(board, state.decision && !state.outcome ? `${state.step}:${state.decision.kind}` : null);
  yourMove(state, logList, choose);
}

function connect() {
  const scheme = window.location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${window.location.host}/ws/${tableId}`);
  socket.addEventListener("open", () => {
    retry = 0;
    offline.hidden = true;
    // With a token, the key too: an invite link's first hello takes its seat for this
    // player (the server answers with the seat's fresh token, the link's being spent).
    // A spectator with a player key says who is watching.
    socket.send(JSON.stringify(seat === null ? (me ? { type: "hello", key: me.key } : { type: "hello" })
      : byKey ? { type: "hello", seat, key: me.key }
        : me ? { type: "hello", seat, token, key: me.key } : { type: "hello", seat, token }));
  });
  socket.addEventListener("message", (message) => {
    const data = JSON.parse(message.data);
    // For the page's own modules (clock.js): every message, after this page has handled it.
    setTimeout(() => document.dispatchEvent(new CustomEvent("kumite:message", { detail: data })));
    if (data.type === "welcome") {
      if (data.token) keepSeat(data.token);
      clear(logList);
      lastStepShown = -1;
      history = [];
      setupChat(data.chat);
    } else if (data.type === "update") {
      state = data.state;
      nameTexts(state.seats, aliases(), { events: data.events, decision: state.decision });
      if (data.events.length) {
        const newest = data.events[data.events.length - 1].step;
        lastEvents = data.events.filter((e) => e.step === newest);
      }
      appendEvents(data.events);
      history.push(...data.events);
      render();
    } else if (data.type === "error" && data.code === "chat-refused") {
      const line = document.getElementById("chat-error");
      line.textContent = data.message;
      line.hidden = false;
    } else if (data.type === "error") {
      showError(data.message);
      if (["bad-token", "not-found", "seat-left", "seat-taken", "one-seat", "closed"].includes(data.code)) retry = -1;
      if (data.code === "bad-token" || data.code === "one-seat") offerToWatch();
    } else if (data.type === "chat") {
      addChat(data);
    } else if (data.type === "rematch") {
      // Kept, not just shown: the next update redraws the result box.
      if (data.seat !== null && data.seat !== undefined) rematchLink = data.url;
      state = state && { ...state, next_table: data.table };
      if (state) renderResult();
    }
  });
  socket.addEventListener("close", () => {
    offline.hidden = false;
    if (retry < 0) { statusLine.textContent = offline.textContent = "Disconnected"; return; }
    statusLine.textContent = offline.textContent = "Reconnecting…";
    retry += 1;
    setTimeout(connect, Math.min(8000, 400 * 2 ** retry));
  });
}

// This page took its seat through an invite: the link's token is spent. The fresh token
// the server sent this page alone opens the seat from now on (the address keeps it, for a
// reload; a player's key opens it too).
function keepSeat(fresh) {
  token = fresh;
  // Taken with this browser's player key: the seat is theirs, and their key opens it again
  // (the address keeps no token, for a reload or a bookmark; "My games" lists the table).
  if (me) byKey = true;
  const hash = me ? `#seat=${seat}` : `#seat=${seat}&token=${fresh}`;
  window.history.replaceState(null, "", `${window.location.pathname}${hash}`);
}

// This link's seat is not ours (a wrong or old token, or another browser's seat): watching
// is still open to everyone.
function offerToWatch() {
  const box = document.getElementById("result");
  box.hidden = false;
  clear(box).append(h("h2", {}, "Not your seat"),
    h("p", {}, "This link does not open a seat here (a wrong or old token, or a seat held by another player)."),
    h("p", {}, h("a.primary", { href: `/table/${tableId}`, id: "watch-instead" }, "Watch this table instead")));
}

function setupChat(chat) {
  const box = document.getElementById("chat");
  if (!chat || !chat.channel) { box.hidden = true; return; }
  box.hidden = false;
  const rules = chat.rules
    || (renderer && renderer.chatRules ? renderer.chatRules(chat.channel) : "Table talk.");
  // The rules in one line, the rest on demand: room for the conversation.
  const first = rules.split(/(?<=[.!?])\s/)[0];
  document.getElementById("chat-rules-short").textContent = first.length > 70 ? `${first.slice(0, 67)}…` : first;
  document.getElementById("chat-rules").textContent = rules;
  document.getElementById("chat").dataset.channel = chat.channel;
  clear(document.getElementById("chat-log"));
  for (const line of chat.history) addChat(line);
}

function addChat(line) {
  // A spectator's line (on the spectators' channel) is named by its speaker, marked watching.
  const spectator = line.seat === null || line.seat === undefined;
  const who = spectator ? `${line.name || "A guest"} (watching)` : seatName(line.seat);
  document.getElementById("chat-log").append(h(`li${spectator ? ".spectator" : ""}`, {}, h("strong", {}, who + ": "), line.text));
}

document.getElementById("chat-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const input = document.getElementById("chat-text");
  document.getElementById("chat-error").hidden = true;
  if (input.value.trim() && socket) socket.send(JSON.stringify({ type: "chat", text: input.value.trim() }));
  input.value = "";
});

// Any card on the page zooms (a tap on one that is no choice, a long press, the mouse resting).
enableZoom(document.body, () => cards);

async function main() {
  try {
    info = await api(`/api/tables/${tableId}`);
  } catch (error) {
    board.append(h("p.error", {}, error.message));
    return;
  }
  document.getElementById("title").textContent = `${info.name} — table ${tableId}` +
    (seat === null ? " (watching)" : "");
  document.getElementById("how-to-play").href = `/rules/${info.game}`;
  document.getElementById("learn-to-play").href = `/learn/${info.game}`;
  const invited = seat !== null && token && info.seats[seat]
    && info.seats[seat].kind === "human" && !info.seats[seat].claimed;
  if (invited) {
    // An invite carries the person: the name the others will see, and this browser's player
    // key, which the hello binds the seat to (rated, and in their "My games").
    me = await ensurePlayer(`You are invited to seat ${seat + 1}: choose the name the others will see.`);
  }
  [cards, rules, ruleNames, renderer] = await Promise.all([
    api(`/api/tables/${tableId}/cards`),
    api(`/api/games/${info.game}/rules`),
    api(`/api/games/${info.game}/rule-names`),
    import(info.renderer),
  ]);
  connect();
}

main();
