/* The side panel (position, recommended click, cell, game) and the tooltip over a cell. */
import { cellCount } from "./board.js";
import { $, el, entries } from "./dom.js";
import { bigText, parseFraction, percentText } from "./numbers.js";
import { overlayValid, replayEvent, rows, state } from "./state.js";

function renderSummary() {
  const box = $("summary");
  box.textContent = "";
  const mines = state.mode === "play" ? (state.game ? state.game.mines : null)
    : state.mode === "replay" ? (state.replay ? state.replay.answer.mines : null) : state.mines;
  const size = `${state.width}x${state.height}, ` +
    (mines === null ? "mine count unknown" : `${mines} mines`);
  if (state.mode === "play" && state.game && state.game.over) {
    const g = state.game;
    box.append(g.won ? el("div", { class: "banner won", id: "outcome", "data-outcome": "won" }, "You won!")
      : el("div", { class: "banner lost", id: "outcome", "data-outcome": "lost" }, "Lost: a mine."));
    box.append(el("h2", null, "Position"), el("p", null, size),
      el("p", { class: "muted" }, "The game is over: every mine is shown."));
    return;
  }
  if (state.mode === "replay") {
    const r = state.replay;
    if (!r) {
      box.append(el("h2", null, "Replay"), el("p", { class: "muted" },
        "Open a recorded game (.avf, .rmv, .evf or .mvf) to see every click judged exactly."));
      return;
    }
    if (!replayEvent()) {
      const won = r.answer.won;
      box.append(el("div", { class: `banner ${won ? "won" : "lost"}`, id: "outcome",
        "data-outcome": won ? "won" : "lost" }, won ? "The game was won." : "Lost: a mine."));
      box.append(el("h2", null, "Position"), el("p", null, size),
        el("p", { class: "muted" }, "The end of the game: every mine is shown."));
      return;
    }
  }
  if (!state.overlayOn) {
    box.append(el("h2", null, "Position"), el("p", null, size), el("p", { class: "muted" }, "Overlay off."));
    return;
  }
  if (!overlayValid()) {
    box.append(el("h2", null, "Position"), el("p", null, size),
      el("p", { class: "muted" }, "Analysing…"));
    return;
  }
  const a = state.overlay.analysis;
  const consistent = a.consistent === true ? el("span", { class: "verdict-good" }, "yes")
    : a.consistent === false ? el("span", { class: "verdict-bad" }, "no")
      : el("span", null, "not decided within the time limit");
  const layouts = a.layouts === null
    ? el("span", { class: "muted" }, a.consistent === false ? "0" : "not counted within the time limit")
    : el("span", { class: "exact", title: a.layouts }, bigText(a.layouts));
  box.append(el("h2", null, "Position"), entries([
    ["size", size],
    ["consistent", consistent],
    ["layouts", layouts],
    ["unique", a.unique ? el("span", { class: "verdict-good" }, "yes") : "no"],
    ["certain", `${a.safe} safe, ${a.mine} mines`],
    ["engine", `${a.backend}, ${(a.seconds * 1000).toFixed(1)} ms`],
  ]));
  if (!a.probabilities_computed && a.consistent !== false) {
    box.append(el("p", { class: "notice", id: "not-computed" },
      "Probabilities not computed within the time limit: grey cells (?) have no number. " +
      "Certain cells are still exact" + (a.verdicts_complete ? "." : ", but some were not proved in time.")));
  }
  const fault = state.overlay.fault;
  if (a.consistent === false) {
    box.append(el("p", { class: "verdict-bad", id: "fault" },
      fault ? fault.message : (a.notes[0] || "inconsistent")));
  }
  for (const note of a.notes) {
    if (a.consistent === false && fault) continue;
    if (a.consistent === false && note === a.notes[0]) continue;
    box.append(el("p", { class: "muted" }, note));
  }
}

function moveWords(move) {
  const [r, c] = [move.row, move.col];
  const p = parseFraction(move.probability);
  const parts = [el("strong", null, `row ${r}, col ${c}`), ` — ${move.reason}`];
  if (move.kind === "certain" && move.cells.length > 1) {
    parts.push(` (and ${move.cells.length - 1} more certainly safe cells)`);
  }
  if (move.kind !== "certain" && move.kind !== "first") {
    parts.push(el("br"), "mine probability ", el("span", { class: "exact" }, p.text),
      ` (${percentText(p)})`);
  }
  if (move.win) {
    const w = parseFraction(move.win);
    parts.push(el("br"), "chance to win from here ", el("span", { class: "exact" }, w.text),
      ` (${percentText(w)})`);
  }
  return el("p", { id: "recommendation" }, ...parts);
}

function renderAdvice() {
  const box = $("advice");
  box.textContent = "";
  if (state.mode === "play" && state.hintMove) {
    box.append(el("h2", null, "Hint"), moveWords(state.hintMove));
    return;
  }
  if (!overlayValid()) return;
  if (state.mode === "play" && state.game && state.game.over) return;
  const move = state.overlay.recommendation;
  box.append(el("h2", null, "Recommended click"));
  if (move) box.append(moveWords(move));
  else box.append(el("p", { class: "muted" }, state.overlay.note || "none"));
}

function describeCell(i) {
  const width = state.width;
  const [r, c] = [Math.floor(i / width), i % width];
  const ch = rows()[r] ? rows()[r][c] : "H";
  const lines = [`row ${r}, col ${c}`];
  if (ch >= "0" && ch <= "8") { lines.push(`revealed: ${ch}`); return lines; }
  if (!overlayValid()) { lines.push(state.overlayOn ? "analysing…" : "covered (overlay off)"); return lines; }
  const a = state.overlay.analysis;
  const info = state.cellInfo.get(i);
  if (ch === "F" && !info) { lines.push("flag: a known mine"); return lines; }
  if (a.consistent === false) { lines.push("the position is inconsistent: no probability"); return lines; }
  if (!info) { lines.push("covered"); return lines; }
  if (info.p === null) {
    lines.push(a.probabilities_computed ? "no probability: the total mine count is unknown"
      : "probability not computed within the time limit");
    if (info.verdict !== "unknown") lines.push(info.verdict === "safe" ? "certainly safe" : "certain mine");
    return lines;
  }
  const p = info.p;
  lines.push(`mine probability ${p.text} = ${percentText(p)}`);
  if (a.layouts !== null) {
    const total = BigInt(a.layouts);
    const withMine = (total * p.num) / p.den;
    lines.push(`a mine in ${bigText(withMine.toString())} of ${bigText(a.layouts)} layouts`);
  }
  if (info.verdict === "safe") lines.push("certainly safe");
  if (info.verdict === "mine") lines.push("certain mine");
  return lines;
}

/** The Cell section of the panel, for cell i. */
export function showCellInfo(i) {
  state.lastCellShown = i;
  const box = $("cell-info");
  box.textContent = "";
  box.append(el("h2", null, "Cell"), ...describeCell(i).map((line, k) =>
    el("p", k === 0 ? { class: "muted" } : { class: "exact" }, line)));
}

/** The tooltip for cell i near the point (x, y) of the window. */
export function showTooltip(i, x, y) {
  const tip = $("tooltip");
  tip.textContent = "";
  for (const line of describeCell(i)) tip.append(el("div", null, line));
  tip.hidden = false;
  const w = tip.offsetWidth, h = tip.offsetHeight;
  tip.style.left = `${Math.max(4, Math.min(x + 14, window.innerWidth - w - 4))}px`;
  tip.style.top = `${Math.max(4, Math.min(y + 14, window.innerHeight - h - 4))}px`;
}

export function hideTooltip() { $("tooltip").hidden = true; }

/** The risk log of a game: one row per click, {cell: [r, c], by, probability (a fraction
 * string or null), mine, current, go (called when the row is clicked)}. */
function riskTable(id, clicks, byTitle) {
  const table = el("table", null, el("thead", null, el("tr", null,
    el("th", null, "#"), el("th", null, "cell"), el("th", null, byTitle), el("th", null, "risk"))));
  const body = el("tbody");
  clicks.forEach((click, k) => {
    const p = parseFraction(click.probability);
    const risk = p === null ? el("span", { class: "muted" }, click.unknown || "not computed")
      : el("span", { class: "exact", title: p.text }, `${percentText(p)}${p.den !== 1n ? ` (${bigText(p.text, 24)})` : ""}`);
    const classes = [click.mine ? "boom" : "", click.current ? "current" : ""].filter(Boolean).join(" ");
    const row = el("tr", classes ? { class: classes } : null,
      el("td", { class: "num" }, k + 1), el("td", null, `${click.cell[0]},${click.cell[1]}`),
      el("td", null, click.by), el("td", null, risk, click.mine ? " — mine!" : ""));
    if (click.go) { row.addEventListener("click", click.go); row.classList.add("go"); }
    body.append(row);
  });
  table.append(body);
  return el("div", { id, class: "clicks" }, table);
}

function renderGame() {
  const box = $("game-info");
  box.textContent = "";
  const g = state.game;
  if (!g) { box.append(el("p", { class: "muted" }, "Start a new game.")); return; }
  box.append(el("h2", null, "Game"), entries([
    ["board", `${g.width}x${g.height}, ${g.mines} mines`],
    ["rule", g.fixed_board ? "a given board" : `${g.rule}${g.noguess ? ", no-guess board" : ""}, seed ${g.seed}`],
    ["safe left", String(g.safe_left)],
    ["flags", `${g.flags} of ${g.mines}`],
  ]));
  const total = parseFraction(g.risk_total);
  const survive = parseFraction(g.survival);
  box.append(el("h2", null, "Risk taken"), entries([
    ["sum of risks", el("span", { class: "exact", id: "risk-total", title: total.text }, `${percentText(total)} = ${bigText(total.text)}`)],
    ["survival", el("span", { class: "exact", title: survive.text }, `${percentText(survive)} = ${bigText(survive.text)}`)],
  ]));
  if (!g.risk_complete) box.append(el("p", { class: "notice" }, "Some clicks' risks were not computed within the time limit."));
  box.append(riskTable("clicks", g.clicks.map((click) => ({
    cell: [click.row, click.col], by: click.by, probability: click.probability, mine: click.mine,
  })), "by"));
  const list = $("clicks");
  list.scrollTop = list.scrollHeight;
}

function chanceText(text) {
  const p = parseFraction(text);
  return p === null ? "?" : p.den === 1n ? p.text : `${bigText(p.text, 32)} = ${percentText(p)}`;
}

/** Replay mode: the game, the event shown and its judgement, the luck, and the risk log of
 * the clicks that opened cells (a row jumps to its click). */
function renderReplay(goTo) {
  const box = $("replay-info");
  box.textContent = "";
  const r = state.replay;
  if (!r) return;
  const a = r.answer;
  const m = a.ms_toollib;
  const time = `${m.time.toFixed(3)} s, 3BV ${m.bbbv}${m.bbbv_s === null ? "" : `, 3BV/s ${m.bbbv_s.toFixed(3)}`}`;
  box.append(el("h2", null, "Replay"), entries([
    ["file", r.name],
    ["program", `${a.software || "unknown"} (.${a.format})`],
    ["player", a.player || "—"],
    ["game", `${a.width}x${a.height}, ${a.mines} mines, ${a.mode}: ${a.won ? "won" : "lost"}`],
    ["ms_toollib", time],
  ]));
  const event = replayEvent();
  if (event) {
    const where = `${event.kind} at ${event.cell[0]},${event.cell[1]}, ${event.time.toFixed(3)} s`;
    const pairs = [["event", `${r.step + 1} of ${a.events.length}: ${where}`]];
    if (event.class === null) pairs.push(["flag", "put on or taken off: no cell opened"]);
    else {
      pairs.push(["class", el("span", { id: "click-class", class: `class-${event.class.replace(/ /g, "-")}` }, event.class)]);
      if (event.probability !== null) pairs.push(["mine chance", el("span", { class: "exact", id: "click-chance" }, chanceText(event.probability))]);
      if (event.safest !== null) pairs.push(["safest", el("span", { class: "exact" }, chanceText(event.safest))]);
      if (event.excess !== null) pairs.push(["excess", el("span", { class: "exact" }, chanceText(event.excess))]);
      if (event.mine) pairs.push(["outcome", el("span", { class: "verdict-bad" }, "a mine")]);
    }
    if (event.note) pairs.push(["note", event.note]);
    box.append(el("h2", null, "This click"), entries(pairs));
  }
  const luck = parseFraction(a.luck);
  box.append(el("h2", null, "Luck"), entries([
    ["survival", el("span", { class: "exact", id: "luck", title: luck.text }, `${percentText(luck)} = ${bigText(luck.text, 32)}`)],
    ["-log10", a.luck_log10.toFixed(3)],
    ["guesses", `${a.classes["needless guess"]} needless, ${a.classes["forced guess"]} forced` +
      (a.classes["not judged"] ? `, ${a.classes["not judged"]} not judged` : "")],
  ]));
  const opening = a.events.filter((e) => e.class !== null);
  box.append(riskTable("replay-clicks", opening.map((e) => ({
    cell: e.cell, by: e.class, probability: e.probability, mine: e.mine,
    unknown: e.class === "first" ? "kept safe" : undefined,
    current: e.index === r.step, go: () => goTo(e.index),
  })), "class"));
  const list = $("replay-clicks");
  const current = list.querySelector("tr.current");
  if (current) {  // the row of the click shown, in the middle of the log (the page stays)
    const below = current.getBoundingClientRect().top - list.getBoundingClientRect().top;
    list.scrollTop += below - list.clientHeight / 2;
  }
}

/** Replay mode's way to move to an event (set by main.js: the panel cannot import it). */
let goToEvent = () => {};
export function onReplayRow(go) { goToEvent = go; }

/** Every section of the panel, from the state. */
export function renderPanel() {
  renderSummary();
  renderAdvice();
  if (state.mode === "play") renderGame();
  if (state.mode === "replay") renderReplay(goToEvent);
  if (state.lastCellShown !== null && state.lastCellShown < cellCount()) showCellInfo(state.lastCellShown);
}
