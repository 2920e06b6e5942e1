// The lobby: create a table for any game, fill seats with people or bots, list tables and
// this player's own games.
import { api, clear, h, player } from "./api.js";
import { ensurePlayer, showPlayer } from "./player.js";
import { withoutRefs } from "./board.js";

const PAGE = 20;
let page = 0;

const gameSelect = document.getElementById("game");
const seatRows = document.getElementById("seat-rows");
const optionsBox = document.getElementById("options");
const errorBox = document.getElementById("create-error");
let games = [];
const botRatings = {};  // game -> agent -> rating (the display scale), for the bots' labels

function currentGame() {
  return games.find((g) => g.id === gameSelect.value);
}

function seatRow(game, index) {
  const kind = h("select", { name: `kind-${index}`, "aria-label": `Seat ${index + 1}` },
    h("option", { value: "you" }, "You"),
    h("option", { value: "bot" }, "Bot"),
    h("option", { value: "human" }, "A friend (invite link)"),
    h("option", { value: "open" }, "Open seat (anyone may join)"));
  kind.value = index === 0 ? "you" : "bot";
  // Bots by level, as players name them ("Strong"); the technical name and what it does in
  // the tooltip. Two bots of one level are told apart the way a table tells seats apart.
  const seen = {};
  const agent = h("select", { name: `agent-${index}`, "aria-label": `Bot for seat ${index + 1}` },
    game.agents.map((a) => {
      const rating = (botRatings[game.id] || {})[a.name];
      const level = a.level || a.name;
      seen[level] = (seen[level] || 0) + 1;
      const shown = seen[level] > 1 ? `${level} (${seen[level]})` : level;
      return h("option", { value: a.name, title: `${level} bot: ${a.name} — ${a.about}` },
        rating === undefined ? shown : `${shown} (rated ${Math.round(rating)})`);
    }));
  const preferred = ["greedy"].find((n) => game.agents.some((a) => a.name === n));
  if (preferred) agent.value = preferred;
  const row = h("div.seat-row", { dataset: { seat: index } },
    h("strong", {}, `Seat ${index + 1}`), kind, agent);
  const field = game.seat_field;
  if (field) {
    const pick = h("select", { name: `pick-${index}`, "aria-label": `${field.label} for seat ${index + 1}` },
      h("option", { value: "" }, field.any ? `${field.label}: ${field.any}` : field.label),
      field.choices.map((c) => h("option", { value: c.id }, c.name)));
    row.append(pick);
  }
  const sync = () => { agent.hidden = kind.value !== "bot"; };
  kind.addEventListener("change", sync);
  sync();
  return row;
}

// Games with modes (Rivales: 1vs1, 2vs2) take their seat count from the mode; the others
// add and remove seats through the counts the game takes (game.seat_counts).
function currentMode(game) {
  if (!game.modes) return null;
  const select = document.getElementById("mode");
  return game.modes.find((m) => select && m.id === select.value) || game.modes[0];
}

// The seats of a game with teams (as the game declares them for this many seats: game.teams)
// are grouped by team; what was chosen in a seat's row is kept when the count changes.
function renderSeats(game, count) {
  const kept = new Map(seatRowsList().map((row) => [row.dataset.seat,
    [...row.querySelectorAll("select")].map((s) => [s.name, s.value])]));
  clear(seatRows);
  const teams = (game.teams || {})[count];
  const rows = [];
  if (teams) {
    teams.forEach((team, t) => {
      const box = h("fieldset.team", { dataset: { team: t } },
        h("legend", {}, `Team ${String.fromCharCode(65 + t)} — seats ${team.map((i) => i + 1).join(" & ")}`));
      for (const i of team) box.append(rows[i] = seatRow(game, i));
      seatRows.append(box);
    });
  } else {
    for (let i = 0; i < count; i++) seatRows.append(rows[i] = seatRow(game, i));
  }
  for (const row of rows) {
    for (const [name, value] of kept.get(row.dataset.seat) || []) {
      const select = row.querySelector(`[name="${name}"]`);
      if (select) { select.value = value; select.dispatchEvent(new Event("change")); }
    }
  }
  seatCountChanged();
}

function seatRowsList() {
  // in seat order, whatever the team boxes they sit in
  return [...seatRows.querySelectorAll(".seat-row")].sort((a, b) => a.dataset.seat - b.dataset.seat);
}

// A form field for each option the game declares, by its type: a number, a box to tick, a
// text or a list of choices.
function optionInput(option) {
  const name = `option-${option.name}`;
  const dataset = { option: option.name };
  if (option.type === "int") {
    return h("input", { type: "number", name, value: option.default ?? "", dataset: { ...dataset, int: "1" } });
  }
  if (option.type === "bool") {
    return h("input", { type: "checkbox", name, checked: Boolean(option.default), dataset: { ...dataset, bool: "1" } });
  }
  if (option.type === "str") return h("input", { type: "text", name, value: option.default ?? "", dataset });
  return h("select", { name, dataset },
    option.choices.map((c) => h("option", { value: c, selected: c === option.default }, c)));
}

function renderForm() {
  const game = currentGame();
  if (!game) return;
  const modeBox = clear(document.getElementById("mode-box"));
  if (game.modes) {
    const select = h("select", { id: "mode", name: "mode", dataset: { option: game.mode_option } },
      game.modes.map((m) => h("option", { value: m.id }, m.name)));
    select.addEventListener("change", () => renderSeats(game, currentMode(game).seats));
    modeBox.append(h("label", {}, "Mode ", select));
  }
  clear(seatRows);
  renderSeats(game, game.modes ? game.modes[0].seats : game.seat_counts[0]);
  clear(optionsBox);
  for (const option of game.options) {
    // In words: the ruling an option names is behind a "?" link, never its reference.
    const { text, refs } = withoutRefs(option.doc);
    const words = text.replaceAll("`", "");
    optionsBox.append(h("label", { title: words }, option.name.replaceAll("_", " "), " ",
      optionInput(option), h("span.hint", {}, " ", words),
      refs.length ? h("a.rule.option-ruling", {
        href: `/rules/${game.id}#${encodeURIComponent(refs[0])}`, target: "_blank", rel: "noopener",
        title: "The ruling behind this option", "aria-label": `The ruling behind ${option.name.replaceAll("_", " ")}`,
      }, "?") : null));
  }
  for (const extra of game.extras || []) {
    optionsBox.append(h("label", { title: extra.doc }, extra.label, " ",
      h("select", { dataset: { option: extra.option } },
        extra.choices.map((c) => h("option", { value: c.id, selected: c.id === extra.default }, c.name)))));
  }
  // With modes the seat count follows the mode: no seat buttons.
  document.getElementById("add-seat").hidden = Boolean(game.modes);
  document.getElementById("remove-seat").hidden = Boolean(game.modes);
  seatCountChanged();
}

// The next seat count the game takes after (or before) n.
function nextCount(game, n, step) {
  const counts = step > 0 ? game.seat_counts : [...game.seat_counts].reverse();
  return counts.find((c) => (c - n) * step > 0);
}

function seatCountChanged() {
  const game = currentGame();
  const n = seatRowsList().length;
  document.getElementById("add-seat").disabled = Boolean(game.modes) || nextCount(game, n, 1) === undefined;
  document.getElementById("remove-seat").disabled = Boolean(game.modes) || nextCount(game, n, -1) === undefined;
}

for (const [id, step] of [["add-seat", 1], ["remove-seat", -1]]) {
  document.getElementById(id).addEventListener("click", () => {
    const game = currentGame();
    const n = nextCount(game, seatRowsList().length, step);
    if (n !== undefined) renderSeats(game, n);
  });
}
// "Learn to play" beside the picker: the chosen game's beginner's guide.
function showLearn() {
  const game = currentGame();
  document.getElementById("learn").href = (game && game.guide) || "/learn";
}
gameSelect.addEventListener("change", () => { renderForm(); renderTopRated(); showLearn(); });

// The best rated players and bots of the chosen game (OpenSkill's mu - 3 sigma), the rest on
// the leaderboard: a newcomer sees how strong each bot level is before picking one.
async function renderTopRated() {
  const game = gameSelect.value;
  document.getElementById("top-more").href = `/leaderboard?game=${encodeURIComponent(game)}`;
  let data;
  try {
    data = await api(`/api/ratings?game=${encodeURIComponent(game)}&limit=5`);
  } catch { return; }
  if (game !== gameSelect.value) return;  // another game was chosen meanwhile
  const list = clear(document.getElementById("top-list"));
  const me = player();
  for (const r of data.ratings) {
    const mine = me && r.id === me.id;
    list.append(h(`li${mine ? ".mine" : ""}`, { title: r.title || "" }, r.name,
      ` — ${Math.round(r.rating)} `, h("span.dim", {}, `(${r.games} game${r.games === 1 ? "" : "s"})`)));
  }
  if (!data.ratings.length) list.append(h("li.dim", {}, data.available ? "No rated game yet." : "Games are not rated on this server."));
}

document.getElementById("new-table").addEventListener("submit", async (event) => {
  event.preventDefault();
  errorBox.textContent = "";
  const game = currentGame();
  const seats = [];
  const picks = [];
  for (const row of seatRowsList()) {
    const i = row.dataset.seat;
    const kind = row.querySelector(`[name=kind-${i}]`).value;
    seats.push({ kind, agent: kind === "bot" ? row.querySelector(`[name=agent-${i}]`).value : null });
    const pick = row.querySelector(`[name=pick-${i}]`);
    picks.push(pick && pick.value ? pick.value : null);
  }
  const options = {};
  for (const input of document.querySelectorAll("#options [data-option], #mode-box [data-option]")) {
    if (input.dataset.bool) options[input.dataset.option] = input.checked;
    else if (!input.dataset.int) options[input.dataset.option] = input.value;
    else if (input.value !== "") options[input.dataset.option] = Number(input.value);
  }
  if (game.seat_field && picks.some((p) => p !== null)) options[game.seat_field.option] = picks;
  const seedText = document.getElementById("seed").value;
  const isPrivate = document.getElementById("private").checked;
  const rated = document.getElementById("rated").checked;
  const per = document.getElementById("clock-per").value;
  const clock = per ? { per, seconds: Number(document.getElementById("clock-seconds").value) } : null;
  try {
    const made = await api("/api/tables", {
      method: "POST",
      // As text: a seed may be longer than a JavaScript number holds exactly.
      body: {
        game: game.id, seats, options, private: isPrivate, rated, clock,
        seed: seedText.trim() === "" ? null : seedText.trim(),
      },
    });
    showCreated(made);
    refresh();
  } catch (error) {
    errorBox.textContent = error.message;
  }
});

function showCreated(made) {
  const box = document.getElementById("created");
  box.hidden = false;
  clear(box).append(h("h2", {}, `Table ${made.id} is ready`));
  const list = h("ul.links");
  for (const link of made.links) {
    // Your own seat opens with your player key: its address holds no token.
    const url = new URL(link.you && link.play ? link.play : link.url, window.location.href).href;
    list.append(h("li", {}, link.you ? "Your seat: " : `Invite link for seat ${link.seat + 1}: `,
      h("a", { href: url, id: link.you ? "my-seat" : undefined }, url),
      link.you ? null : copyButton(url, link.seat)));
  }
  list.append(h("li", {}, "Spectators: ", h("a", { href: made.spectate }, made.spectate)));
  box.append(list);
  const mine = made.links.find((l) => l.you);
  if (mine) box.append(h("p", {}, h("a.primary", { href: mine.play || mine.url, id: "go" }, "Go to your seat →")));
}

// A button that copies an invite link (to send it to a friend), and says so.
function copyButton(url, seat) {
  const button = h("button.copy", { type: "button", dataset: { seat }, "aria-label": `Copy the invite link for seat ${seat + 1}` }, "Copy");
  button.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(url);
      button.textContent = "Copied";
    } catch {
      // No clipboard here (an insecure page, say): the link is selected for a manual copy.
      const range = document.createRange();
      range.selectNodeContents(button.previousElementSibling);
      window.getSelection().removeAllRanges();
      window.getSelection().addRange(range);
      button.textContent = "Selected: copy it";
    }
  });
  return [" ", button];
}

function gameName(id) {
  return (games.find((g) => g.id === id) || { name: id }).name;
}

function age(iso) {
  const seconds = Math.max(0, (Date.now() - Date.parse(iso)) / 1000);
  if (seconds < 90) return "just now";
  if (seconds < 5400) return `${Math.round(seconds / 60)} min ago`;
  if (seconds < 129600) return `${Math.round(seconds / 3600)} h ago`;
  return `${Math.round(seconds / 86400)} days ago`;
}

// The seats by the names the server made for them ("mine": this player's seat, marked).
function seatSummary(seats, mine = null) {
  const open = seats.filter((s) => s.kind === "open" && !s.claimed).length;
  const names = seats.map((s, i) => [s, i === mine ? `${s.name} (you)` : s.name])
    .filter(([s]) => !(s.kind === "open" && !s.claimed)).map(([, name]) => name).join(", ");
  return `${seats.length - open}/${seats.length} seats taken${names ? ` (${names})` : ""}`;
}

// The lists are cleared only once their answer is in: two refreshes at once (the page's
// first, and the one once the player is known) would otherwise both fill the same list.
async function refreshMine() {
  if (!player()) {
    clear(document.getElementById("my-games-list"))
      .append(h("li.dim", {}, "Choose a name to keep your games here."));
    return;
  }
  let mine;
  try {
    mine = await api("/api/players/me/games");
  } catch (error) {
    clear(document.getElementById("my-games-list")).append(h("li.error", {}, error.message));
    return;
  }
  const list = clear(document.getElementById("my-games-list"));
  if (!mine.length) list.append(h("li.dim", {}, "No games yet."));
  for (const g of mine) {
    const playing = g.status === "playing";
    const label = g.your_move ? "your move" : playing ? "playing" : g.status;
    list.append(h("li", { dataset: { table: g.id } },
      h("strong", {}, gameName(g.game)), ` — ${label} — ${seatSummary(g.seats, g.seat)} — ${age(g.updated)} — `,
      h("a", { href: `/table/${g.id}#seat=${g.seat}`,
        class: "resume" }, playing ? "resume" : "see the result")));
  }
}

async function refresh() {
  refreshMine();
  const waiting = document.getElementById("waiting").checked;
  let tables;
  try {
    // One more than a page: whether there is an older page.
    tables = await api(`/api/tables?offset=${page * PAGE}&limit=${PAGE + 1}${waiting ? "&waiting=true" : ""}`);
  } catch (error) {
    clear(document.getElementById("table-list")).append(h("li.error", {}, error.message));
    return;
  }
  const list = clear(document.getElementById("table-list"));
  document.getElementById("next-page").disabled = tables.length <= PAGE;
  document.getElementById("prev-page").disabled = page === 0;
  document.getElementById("page").textContent = `page ${page + 1}`;
  tables = tables.slice(0, PAGE);
  if (!tables.length) list.append(h("li.dim", {}, waiting ? "No table is waiting for players." : "No tables yet."));
  for (const t of tables) {
    const item = h("li", { dataset: { table: t.id } }, h("strong", {}, gameName(t.game)),
      ` — ${t.status} — ${seatSummary(t.seats)} — ${age(t.created)} — `,
      h("a", { href: t.status === "finished" ? `/replay/${t.id}` : `/table/${t.id}` },
        t.status === "finished" ? "replay" : "watch"));
    t.seats.forEach((seat, index) => {
      if (seat.kind === "open" && !seat.claimed && t.status !== "finished") {
        item.append(" ", h("button", {
          type: "button",
          onclick: async (event) => {
            try {
              const joined = await api(`/api/tables/${t.id}/join`, { method: "POST", body: { seat: index } });
              window.location.href = joined.play || joined.url;
            } catch (error) {  // taken meanwhile, or you hold a seat there already
              event.target.replaceWith(h("span.error", { role: "alert" }, error.message));
            }
          },
        }, `Join seat ${index + 1}`));
      }
    });
    list.append(item);
  }
}

document.getElementById("refresh").addEventListener("click", refresh);
document.getElementById("waiting").addEventListener("change", () => { page = 0; refresh(); });
document.getElementById("prev-page").addEventListener("click", () => { page = Math.max(0, page - 1); refresh(); });
document.getElementById("next-page").addEventListener("click", () => { page += 1; refresh(); });

async function main() {
  let server, rated;
  [games, server, rated] = await Promise.all([api("/api/games"), api("/api/server"),
    api("/api/ratings?kind=bot&limit=200").catch(() => ({ ratings: [] }))]);  // none: plain bot names
  for (const r of rated.ratings) (botRatings[r.game] ||= {})[r.id.replace(/^bot:/, "")] = r.rating;
  // Seeds are the server's secret; only a development server (--dev-seeds) takes one.
  document.getElementById("seed-field").hidden = !server.dev_seeds;
  // No await from listing the games to drawing the form: a choice made in between (a game,
  // a Super Hero) would be drawn over.
  // The server wrote the games into the page (no empty list while this script loads); a
  // game it did not write is added, and a choice already made is kept.
  const listed = new Set([...gameSelect.options].map((o) => o.value));
  for (const game of games) if (!listed.has(game.id)) gameSelect.append(h("option", { value: game.id }, game.name));
  const wanted = new URLSearchParams(window.location.search).get("game");
  if (!listed.size && wanted && games.some((g) => g.id === wanted)) gameSelect.value = wanted;
  showLearn();
  renderForm();
  renderTopRated();
  showPlayer();
  // A first-time visitor is asked their name once; afterwards this browser remembers it
  // (a forgotten key is dropped first: every request would be refused with it).
  const asked = ensurePlayer();
  refresh();
  await asked;
  refresh();
}

main();
