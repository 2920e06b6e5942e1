// The leaderboard: every rated player and bot kind of one game, the best first.
import { api, clear, h, player } from "./api.js";
import { showPlayer } from "./player.js";

const select = document.getElementById("board-game");

async function show() {
  const rows = clear(document.getElementById("board-rows"));
  const note = document.getElementById("board-note");
  const data = await api(`/api/ratings?game=${encodeURIComponent(select.value)}&limit=100`);
  const me = player();
  note.textContent = !data.available ? "This server has no rating package (pip install 'kumite[serve]'): games are not rated."
    : data.ratings.length ? "" : "No rated game of this game yet.";
  data.ratings.forEach((r, i) => {
    const mine = me && r.id === me.id;
    rows.append(h(`tr${mine ? ".mine" : ""}`, { dataset: { kind: r.kind } },
      h("td", {}, String(i + 1)),
      h("td", { title: r.title || "" }, r.name, mine ? h("strong", {}, " (you)") : null),
      h("td", {}, String(r.rating)), h("td", {}, String(r.games)),
      h("td.details", {}, r.mu.toFixed(1)), h("td.details", {}, r.sigma.toFixed(1))));
  });
}

async function main() {
  showPlayer();
  // μ and σ are a details view: shown on demand, beside the one rating number.
  const toggle = document.getElementById("board-details");
  toggle.addEventListener("change", () => { document.getElementById("board-table").classList.toggle("with-details", toggle.checked); });
  const games = await api("/api/games");
  for (const g of games) select.append(h("option", { value: g.id }, g.name));
  const wanted = new URLSearchParams(window.location.search).get("game");
  if (wanted && games.some((g) => g.id === wanted)) select.value = wanted;
  select.addEventListener("change", show);
  await show();
}

main();
