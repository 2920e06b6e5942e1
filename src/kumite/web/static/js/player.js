// This browser's player: the name asked once (a dialog), kept with its secret key in
// localStorage; the "you are ..." line of every generic page.
import { api, clear, forgetPlayer, h, keepPlayer, player } from "./api.js";

let asking = null;

// Ask for a name in a panel at the top of the page (not a modal: the page stays usable, a
// table made meanwhile is simply anonymous). Resolves with the player once named.
export function askName(message) {
  if (asking) return asking;
  asking = new Promise((resolve) => {
    const input = h("input", {
      id: "player-name", name: "name", maxlength: "24", required: true, autocomplete: "nickname",
    });
    const error = h("p.error", { id: "player-error", role: "alert" });
    const form = h("form", { id: "player-form" },
      h("h2", {}, "Your name"),
      h("p.hint", {}, message || "Shown to the other players at your tables. No password: this browser remembers you and your games."),
      h("label", {}, "Name ", input), " ",
      h("button.primary", { type: "submit", id: "player-save" }, "Save"), error);
    const panel = h("section.panel", { id: "player-dialog", "aria-label": "Your name" }, form);
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      try {
        const made = await api("/api/players", { method: "POST", body: { name: input.value } });
        keepPlayer(made);
        panel.remove();
        asking = null;
        showPlayer();
        resolve(player());
      } catch (e) {
        error.textContent = e.message;
      }
    });
    const main = document.querySelector("main") || document.body;
    main.prepend(panel);
  });
  return asking;
}

// The player this browser keeps, checked with the server; asks for a name if there is none
// (or the server does not know its key). Resolves with the player once there is one.
export async function ensurePlayer(message) {
  const me = player();
  if (!me) return askName(message);
  try {
    await api("/api/players/me");
    return me;
  } catch {
    forgetPlayer();
    showPlayer();
    return askName("This server does not know you (yet): choose a name.");
  }
}

async function rename() {
  const me = player();
  if (!me) { await askName(); return; }
  const name = window.prompt("Your new name", me.name);
  if (name === null) return;
  try {
    const made = await api("/api/players/me", { method: "PUT", body: { name } });
    keepPlayer({ ...me, name: made.name });
    showPlayer();
  } catch (e) {
    window.alert(e.message);
  }
}

// "You: Name (change)" in the placeholder #player, if the page has one.
export function showPlayer() {
  const box = document.getElementById("player");
  if (!box) return;
  const me = player();
  clear(box);
  if (!me) {
    box.append(h("button", { type: "button", id: "player-new", onclick: () => askName() }, "Choose a name"));
    return;
  }
  box.append("You: ", h("strong", { id: "player-shown" }, me.name), " ",
    h("button", { type: "button", id: "player-rename", onclick: rename }, "Change"));
}
