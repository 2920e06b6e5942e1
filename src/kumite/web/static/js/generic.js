// The generic browser front end: any game at the web table, from the contract alone. The
// seat's view is drawn as nested data, and the pending decision as one button per legal
// choice, labelled as the server labels it (the game's labels, else the choice itself).
// A game with a face of its own (its spec's web folder) is drawn by that instead.
import { decisionMap, startBoard } from "./face.js";

function valueNode(h, value) {
  if (value === null || value === undefined) return h("span.dim", {}, "—");
  if (Array.isArray(value)) {
    if (value.every((v) => v === null || typeof v !== "object")) {
      return h("span", {}, value.map((v) => (v === null ? "?" : String(v))).join(", ") || "none");
    }
    return h("ol.view-list", {}, ...value.map((v) => h("li", {}, valueNode(h, v))));
  }
  if (typeof value === "object") {
    return h("dl.view", {}, ...Object.entries(value).flatMap(([k, v]) =>
      [h("dt", {}, k.replaceAll("_", " ")), h("dd", {}, valueNode(h, v))]));
  }
  return h("span", {}, String(value));
}

export function renderView(container, ctx) {
  const { state, h, choose } = ctx;
  startBoard(container);
  container.append(h("section.generic-view", { id: "view" }, valueNode(h, state.view)));
  const decision = state.decision;
  if (decision) {
    // docked: on screen wherever the view is scrolled
    container.append(h("section.decision.panel.dock", { id: "decision" },
      h("p", {}, h("strong", {}, decision.prompt || decision.kind)),
      ...decisionMap(decision).choices.map((c) => h("button.choice", {
        type: "button", "data-choice": c.id, onclick: () => choose(c.id),
      }, c.label))));
  } else if (state.submitted) {
    container.append(h("p.waiting", { id: "waiting" }, "Choice sent — waiting for the others."));
  }
}
