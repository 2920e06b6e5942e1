// A decision's choices as the server sends them (docs/protocol.md, "Choices"): each with its
// label and the element of the table it targets. Faces find what to click from the targets;
// no front end reads a choice string. Game ids never appear here.

// A target as a key: {zone: "hand", card: "ryu.jab"} -> "hand|ryu.jab", {zone: "line", seat: 3,
// card: "x"} -> "line|3|x", {zone: "arena", index: 0} -> "arena|0", {zone: "kick"} -> "kick",
// {seat: 2} -> "seat|2", {role: "ryu"} -> "role|ryu"; null for no target.
export function targetKey(target) {
  if (!target) return null;
  if (target.role !== undefined) return `role|${target.role}`;
  if (target.zone === undefined) return `seat|${target.seat}`;
  return [target.zone, target.index, target.seat, target.card, ...(target.cards || [])]
    .filter((part) => part !== undefined && part !== null).join("|");
}

// byTarget: target key -> the first choice targeting it; labels: choice -> label; why: target
// key -> why that element cannot be chosen now (the game's own reason); choices: in order.
export function decisionMap(decision) {
  const byTarget = new Map();
  const labels = new Map();
  const why = new Map();
  if (!decision) return { byTarget, labels, why, choices: [], kind: null };
  const choices = decision.choices
    || decision.legal.map((id, i) => ({ id, label: (decision.labels || [])[i] || id, target: null }));
  for (const c of choices) {
    labels.set(c.id, c.label);
    const key = targetKey(c.target);
    if (key && !byTarget.has(key)) byTarget.set(key, c.id);
  }
  for (const u of decision.unplayable || []) why.set(targetKey(u.target), u.reason);
  return { byTarget, labels, why, choices, kind: decision.kind };
}
