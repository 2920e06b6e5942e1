// A card, zoomed: its full text, its copies and where each of its values comes from, in a
// small dialog. Opened by a tap on a card that is no choice, a long press (or right click)
// on any card, or resting the mouse on a card; Escape, a tap outside or "Close" closes it.
// Generic: it reads what every face draws (an element with data-card, its title) and the
// table's card data (cards.cards[id].provenance); no game is named here.
import { clear, h } from "./api.js";

let dialog = null;
let cardsOf = () => null;
let hoverTimer = null;
let openedBy = null;  // "hover" (closes when the mouse leaves the card) or "tap"

function ensureDialog() {
  if (dialog) return dialog;
  dialog = h("dialog.card-zoom", { id: "card-zoom", "aria-labelledby": "card-zoom-title" });
  // A tap on the backdrop is a click on the dialog itself (not on its content).
  dialog.addEventListener("click", (event) => { if (event.target === dialog) dialog.close(); });
  dialog.addEventListener("close", () => { openedBy = null; });
  document.body.append(dialog);
  return dialog;
}

// How many copies of the card lie where it was shown (a hand, a pile), else the data's own.
function copiesOf(el, data) {
  const id = el.dataset.card;
  const zone = el.parentElement;
  const here = zone ? [...zone.children].filter((c) => c.dataset && c.dataset.card === id).length : 1;
  if (data && typeof data.copies === "number") return data.copies;
  return here;
}

function provenanceLines(data) {
  if (!data || !data.provenance) return [];
  return Object.entries(data.provenance).map(([field, prov]) =>
    h("li", {}, h("strong", {}, `${field.replaceAll("_", " ")}: `), prov.from, prov.note ? ` — ${prov.note}` : ""));
}

export function openZoom(el, how = "tap") {
  const box = ensureDialog();
  const id = el.dataset.card;
  const cards = cardsOf();
  const data = cards && cards.cards ? cards.cards[id] : null;
  const name = (data && data.name) || el.getAttribute("aria-label") || id;
  const big = el.cloneNode(true);
  big.removeAttribute("id");
  big.removeAttribute("data-key");
  big.removeAttribute("data-choice");
  big.setAttribute("aria-hidden", "true");
  big.disabled = true;
  big.classList.add("zoomed");
  const copies = copiesOf(el, data);
  const provenance = provenanceLines(data);
  clear(box).append(
    h("div.zoom-head", {}, h("h2", { id: "card-zoom-title" }, name),
      h("button.zoom-close", { type: "button", "aria-label": "Close", onclick: () => box.close() }, "×")),
    h("div.zoom-card", {}, big),
    h("p.zoom-text", {}, el.getAttribute("title") || ""),
    h("p.zoom-copies", {}, `${copies} ${copies === 1 ? "copy" : "copies"} here`),
    provenance.length ? h("details.zoom-provenance", { open: true }, h("summary", {}, "Where each value comes from"),
      h("ul", {}, ...provenance)) : null);
  openedBy = how;
  if (box.open) box.close();
  if (how === "hover") box.show(); else box.showModal();
  if (how !== "hover") box.querySelector(".zoom-close").focus();
}

function cardAt(target) {
  const el = target && target.closest ? target.closest("[data-card]") : null;
  return el && !el.closest("#card-zoom") ? el : null;
}

// Wire the zoom on `root` (the board, the side panels); `cards`: () => the table's card data.
export function enableZoom(root, cards) {
  cardsOf = cards;
  // A tap on a card that does nothing else (no button: no choice, no set-up pick) zooms it.
  root.addEventListener("click", (event) => {
    const el = cardAt(event.target);
    if (!el || el.closest("button, a, summary, input, select, label, [data-choice]")) return;
    openZoom(el, "tap");
  });
  // A long press on a phone (or a right click): any card, a choice too.
  root.addEventListener("contextmenu", (event) => {
    const el = cardAt(event.target);
    if (!el) return;
    event.preventDefault();
    openZoom(el, "tap");
  });
  if (!window.matchMedia || !window.matchMedia("(hover: hover)").matches) return;
  root.addEventListener("mouseover", (event) => {
    const el = cardAt(event.target);
    clearTimeout(hoverTimer);
    if (!el || (dialog && dialog.open && openedBy !== "hover")) return;
    hoverTimer = setTimeout(() => { if (el.isConnected && el.matches(":hover")) openZoom(el, "hover"); }, 700);
  });
  root.addEventListener("mouseout", (event) => {
    const el = cardAt(event.target);
    if (!el || el.contains(event.relatedTarget)) return;
    clearTimeout(hoverTimer);
    if (dialog && dialog.open && openedBy === "hover") dialog.close();
  });
}

document.addEventListener("keydown", (event) => {
  // A dialog opened by hover is not modal: Escape closes it too.
  if (event.key === "Escape" && dialog && dialog.open) dialog.close();
});
