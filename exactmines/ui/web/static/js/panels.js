/* The side panel (position, recommended click and the best guesses, cell, game or replay)
 * and the tooltip over a cell. */
import { cellCount, render, scrollToCell } from "./board.js";
import { $, bigNumber, el, entries } from "./dom.js";
import { fractionFloat, parseFraction, percentText, shortDigits, shortFraction } from "./numbers.js";
import { plural } from "./words.js";
import { ziniEntry } from "./zini.js";
import { ziniPathSection } from "./zinipath.js";
import { flagsAreMarks, gameOver, overlayFailed, overlayValid, replayEvent, rows, state } from "./state.js";

const CELL_PROMPT = "Point at a covered cell, or move to it with the arrow keys, to see its exact probability.";

/** A value shown short, its exact text on hover or focus (no copy button: for tables). */
function hoverExact(short, exact, props = {}) {
  if (short === exact) return el("span", { class: "num", ...props }, short);
  return el("span", { class: "short num", tabindex: "0", "data-exact": exact, ...props }, short);
}

/** An exact fraction for people: "3/17 (17.65%)", a long one "≈ 0.2128 (21.28%)" with
 * its exact value on demand. */
function fraction(f, props = {}) {
  return el("span", null, bigNumber(f.text, shortFraction(f), props), ` (${percentText(f)})`);
}

const where = (r, c) => `row ${r}, col ${c}`;

/** The certain cells, as the analysis counts them: in a game (or a replay) a flag the
 * player put on a certainly safe cell is named, since no click is advised there (the
 * framed cells and the hint's count are the others). */
function certainWords(a) {
  const words = `${a.safe} safe, ${plural(a.mine, "mine")}`;
  if (!flagsAreMarks()) return words;
  const shown = rows();
  let flagged = 0;
  for (const [i, info] of state.cellInfo) {
    if (info.verdict === "safe" && shown[Math.floor(i / state.width)][i % state.width] === "F") flagged++;
  }
  if (!flagged) return words;
  return el("span", { id: "certain" }, `${a.safe} safe (${flagged} of them flagged: ` +
    `${flagged > 1 ? "wrong flags" : "a wrong flag"}), ${plural(a.mine, "mine")}`);
}

function renderSummary() {
  const box = $("summary");
  box.textContent = "";
  const mines = state.mode === "play" ? (state.game ? state.game.mines : null)
    : state.mode === "replay" ? (state.replay ? state.replay.answer.mines : null) : state.mines;
  const size = `${state.width}x${state.height}, ` +
    (mines === null ? "mine count unknown" : plural(mines, "mine"));
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
  const failed = overlayFailed();
  if (failed !== null) {
    box.append(el("h2", null, "Position"), el("p", null, size),
      el("p", { class: "notice", id: "overlay-failed" }, `Not analysed: ${failed}`));
    return;
  }
  if (!overlayValid()) {
    box.append(el("h2", null, "Position"), el("p", null, size),
      el("p", { class: "muted", id: "analysing" }, "Analysing…"));
    return;
  }
  const a = state.overlay.analysis;
  const consistent = a.consistent === true ? el("span", { class: "verdict-good" }, "yes")
    : a.consistent === false ? el("span", { class: "verdict-bad" }, "no")
      : el("span", null, "not decided within the time limit");
  const layouts = a.layouts === null
    ? el("span", { class: "muted" }, a.consistent === false ? "0" : "not computed within the time limit")
    : bigNumber(a.layouts, shortDigits(a.layouts), { id: "layouts" });
  box.append(el("h2", null, "Position"), entries([
    ["size", size],
    ["consistent", consistent],
    ["layouts", layouts],
    ["unique", a.unique === true ? el("span", { class: "verdict-good" }, "yes")
      : a.unique === false ? "no" : el("span", { id: "unique-undecided" }, "not decided within the time limit")],
    ["certain", certainWords(a)],
    ["engine", `${a.backend}, ${(a.seconds * 1000).toFixed(1)} ms`],
  ]));
  if (!a.probabilities_computed && a.consistent !== false) {
    // The components counted in time have their probabilities: "some" is then said.
    let some = false;
    for (const info of state.cellInfo.values()) if (info.verdict === "unknown" && info.p !== null) { some = true; break; }
    box.append(el("p", { class: "notice", id: "not-computed" },
      (some ? "Some probabilities not computed within the time limit (those of the components not counted in time): "
        : "Probabilities not computed within the time limit: ") + "grey cells (?) have no number. " +
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
  const parts = [el("strong", null, where(r, c)), ` — ${move.reason}`];
  if (move.kind === "certain" && move.cells.length > 1) {
    parts.push(` (and ${plural(move.cells.length - 1, "more certainly safe cell")})`);
  }
  if (move.kind !== "certain" && move.kind !== "first") {
    parts.push(el("br"), "mine probability ", fraction(parseFraction(move.probability)));
  }
  return el("p", { id: "recommendation" }, ...parts);
}

function jumpButton() {
  return el("button", { type: "button", id: "jump", title: "Scroll the board to the recommended cell (R)" },
    "Show it (R)");
}

function endgameWords(odds) {
  if (odds.win === null) {
    return el("p", { id: "endgame", class: "notice" }, `Chance to win: ${odds.note}.`);
  }
  const scope = odds.whole ? "" : " in its isolated region (the rest is played apart)";
  return el("p", { id: "endgame" }, "Chance to win with best play: ",
    fraction(parseFraction(odds.win), { id: "win" }),
    `, exact over ${odds.layouts.toLocaleString("en")} layouts${scope} (endgame search).`);
}

/** The best guesses, as the strategy ranks them: clicking one marks its cell. */
function candidatesTable(list) {
  const withWin = list.some((c) => c.win !== null);
  const head = ["", "cell", "mine", "safe next", "score", ...(withWin ? ["win"] : [])];
  const table = el("table", { id: "candidates" },
    el("caption", null, "Best guesses, as the player ranks them"),
    el("thead", null, el("tr", null, ...head.map((h) => el("th", { scope: "col" }, h)))));
  const body = el("tbody");
  list.forEach((c, k) => {
    const p = parseFraction(c.probability);
    const progress = parseFraction(c.progress);
    const score = parseFraction(c.score);
    const i = c.row * state.width + c.col;
    const cells = [
      el("td", { class: "rank" }, c.chosen ? "▶" : String(k + 1)),
      el("td", null, el("button", { type: "button", class: "pick", "data-cell": String(i),
        title: `Mark ${where(c.row, c.col)} on the board` }, `${c.row},${c.col}`)),
      el("td", { class: "num-cell" }, hoverExact(percentText(p), p.text, { "data-field": "probability" })),
      el("td", { class: "num-cell" }, hoverExact(percentText(progress), progress.text)),
      el("td", { class: "num-cell" }, hoverExact(fractionFloat(score).toFixed(4), score.text)),
    ];
    if (withWin) {
      const win = c.win === null ? null : parseFraction(c.win);
      cells.push(el("td", { class: "num-cell" }, win ? hoverExact(percentText(win), win.text) : "—"));
    }
    const cls = [c.chosen ? "chosen" : "", c.considered ? "" : "below", i === state.picked ? "picked" : ""];
    body.append(el("tr", { class: cls.join(" ").trim(), "data-cell": String(i) }, ...cells));
  });
  table.append(body);
  const notes = [el("span", null, "mine: its exact probability; safe next: the chance it is safe " +
    "and leaves a certainly safe cell; score: what the player ranks by (the chance that it and " +
    "the best next click are both safe, plus a tenth of 'safe next', raised for the 50/50s it " +
    "can settle; a dead cell comes last)")];
  if (list.some((c) => !c.considered)) notes.push(el("span", null, "; greyed: below the player's cut (never chosen)"));
  return el("div", { class: "guesses" }, table, el("p", { class: "muted small" }, ...notes));
}

function markerWords(overlay) {
  const dead = overlay.dead.length, fifty = overlay.fifty_fifties.length;
  if (!dead && !fifty) return null;
  const parts = [];
  if (dead) parts.push(el("span", { class: "key dead-key", "aria-hidden": "true" }, ""),
    ` ${dead} dead cell${dead > 1 ? "s" : ""} (opening one tells nothing) `);
  if (fifty) parts.push(el("span", { class: "key fifty-key", "aria-hidden": "true" }, "½"),
    ` ${fifty} 50/50${fifty > 1 ? "s" : ""} no click can resolve`);
  return el("p", { id: "markers" }, ...parts);
}

function renderAdvice() {
  const box = $("advice");
  box.textContent = "";
  if (state.mode === "play" && (state.hintMove || state.hintNote)) {
    box.append(el("h2", null, "Hint"));
    box.append(state.hintMove ? moveWords(state.hintMove) : el("p", { class: "muted", id: "recommendation" }, state.hintNote));
    if (state.hintMove) box.append(jumpButton());
    return;
  }
  if (!overlayValid()) return;
  if (gameOver()) return;
  const overlay = state.overlay;
  const move = overlay.recommendation;
  box.append(el("h2", null, "Recommended click"));
  if (move) box.append(moveWords(move), jumpButton());
  else box.append(el("p", { class: "muted", id: "recommendation" }, overlay.note || "none"));
  if (overlay.endgame) box.append(endgameWords(overlay.endgame));
  if (overlay.candidates && overlay.candidates.length) box.append(candidatesTable(overlay.candidates));
  const marks = markerWords(overlay);
  if (marks) box.append(marks);
}

/** What is known of cell i, line by line (strings; with `rich`, long exact numbers as
 * nodes that show their exact value). */
function describeCell(i, rich) {
  const width = state.width;
  const [r, c] = [Math.floor(i / width), i % width];
  const ch = rows()[r] ? rows()[r][c] : "H";
  const lines = [where(r, c)];
  if (ch >= "0" && ch <= "8") { lines.push(`revealed: ${ch}`); return lines; }
  if (ch === "X") { lines.push("the mine clicked"); return lines; }
  const flagged = ch === "F" && flagsAreMarks();
  if (flagged) {
    lines.push(`flagged by ${state.mode === "play" ? "you" : "the player"} (a mark: the analysis does not trust it)`);
  }
  if (gameOver()) {  // no overlay is asked after the end: nothing is on its way
    lines.push(ch === "M" ? "a mine: the game is over" : "the game is over: not analysed");
    return lines;
  }
  if (!overlayValid()) {
    const failed = overlayFailed();
    lines.push(!state.overlayOn ? "covered (overlay off)" : failed !== null ? `not analysed: ${failed}` : "analysing…");
    return lines;
  }
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
  const short = shortFraction(p);
  lines.push(rich && short !== p.text
    ? el("span", null, "mine probability ", bigNumber(p.text, short), ` = ${percentText(p)}`)
    : `mine probability ${short} = ${percentText(p)}`);
  if (a.layouts !== null) {
    const total = BigInt(a.layouts);
    const withMine = ((total * p.num) / p.den).toString();
    lines.push(rich && (withMine !== shortDigits(withMine) || a.layouts !== shortDigits(a.layouts))
      ? el("span", null, "a mine in ", bigNumber(withMine, shortDigits(withMine)), " of ",
        bigNumber(a.layouts, shortDigits(a.layouts)), " layouts")
      : `a mine in ${shortDigits(withMine)} of ${shortDigits(a.layouts)} layouts`);
  }
  if (info.verdict === "safe") lines.push(flagged ? "certainly safe: this flag is wrong" : "certainly safe");
  if (info.verdict === "mine") lines.push("certain mine");
  const marks = state.marks;
  if (marks && marks.dead.has(i)) lines.push("dead: opening it tells nothing but that it was safe");
  if (marks && marks.fifty.has(i)) lines.push("in a 50/50 that no click can ever resolve");
  if (marks && marks.rank.has(i)) lines.push(`guess ${marks.rank.get(i)} of the player's list`);
  return lines;
}

/** The Cell section of the panel, for cell i (null: the prompt). */
export function showCellInfo(i) {
  state.lastCellShown = i;
  const box = $("cell-info");
  box.textContent = "";
  if (i === null) { box.append(el("p", { class: "muted" }, CELL_PROMPT)); return; }
  box.append(el("h2", null, "Cell"), ...describeCell(i, true).map((line, k) =>
    el("p", k === 0 ? { class: "muted" } : { class: "exact" }, line)));
}

/** The tooltip for cell i near the point (x, y) of the window. */
export function showTooltip(i, x, y) {
  state.hover = { i, x, y };
  const tip = $("tooltip");
  tip.textContent = "";
  for (const line of describeCell(i, false)) tip.append(el("div", null, line));
  tip.hidden = false;
  const w = tip.offsetWidth, h = tip.offsetHeight;
  tip.style.left = `${Math.max(4, Math.min(x + 14, window.innerWidth - w - 4))}px`;
  tip.style.top = `${Math.max(4, Math.min(y + 14, window.innerHeight - h - 4))}px`;
}

export function hideTooltip() { state.hover = null; $("tooltip").hidden = true; }

/** The game's clock as people read it: "12.3 s", "2 min 05 s". */
export function clockText(seconds) {
  if (seconds < 60) return `${seconds.toFixed(1)} s`;
  const m = Math.floor(seconds / 60);
  return `${m} min ${String(Math.floor(seconds - 60 * m)).padStart(2, "0")} s`;
}

/** The game's seconds now: as the server last said, plus the time since (while it runs). */
export function gameSeconds() {
  const g = state.game;
  if (!g || g.seconds === null || !state.clock) return 0;
  return g.over ? g.seconds : state.clock.seconds + (performance.now() - state.clock.at) / 1000;
}

function renderGame() {
  const box = $("game-info");
  box.textContent = "";
  const g = state.game;
  if (!g) { box.append(el("p", { class: "muted" }, "Start a new game.")); return; }
  const pairs = [
    ["board", `${g.width}x${g.height}, ${plural(g.mines, "mine")}`],
    ["rule", g.fixed_board ? "a given board" : `${g.rule}${g.noguess ? `, no-guess board${g.noguess_method && g.noguess_method !== "auto" ? ` (${g.noguess_method})` : ""}` : ""}, seed ${g.seed}`],
    ["time", el("span", { id: "timer", class: "num" }, clockText(gameSeconds()))],
    ["safe left", String(g.safe_left)],
    ["flags", `${g.flags} of ${g.mines}`],
    ["clicks", String(g.click_count)],
  ];
  if (g.bbbv !== null) pairs.push(["3BV", el("span", { id: "bbbv" }, String(g.bbbv))]);
  if (g.efficiency !== null) {
    const e = parseFraction(g.efficiency);
    pairs.push(["efficiency", el("span", { id: "efficiency", title: `3BV / clicks = ${e.text}` },
      `${(fractionFloat(e) * 100).toFixed(0)}% (3BV ${g.bbbv} in ${plural(g.click_count, "click")})`)]);
  }
  const zini = ziniEntry(g);
  if (zini) pairs.push(zini);
  box.append(el("h2", null, "Game"), entries(pairs));
  const total = parseFraction(g.risk_total);
  const survive = parseFraction(g.survival);
  box.append(el("h2", null, "Risk taken"), entries([
    ["sum of risks", fraction(total, { id: "risk-total" })],
    ["survival", fraction(survive)],
  ]));
  if (!g.risk_complete) box.append(el("p", { class: "notice" }, "Some clicks' risks were not computed within the time limit."));
  box.append(riskTable("clicks", g.clicks.map((click) => ({
    cell: [click.row, click.col], by: click.by, probability: click.probability, mine: click.mine,
  })), "by"));
  const list = $("clicks");
  list.scrollTop = list.scrollHeight;
}

/** The classes of a replay's clicks that are guesses (judge.py's GUESSES). */
const GUESS_CLASSES = ["needless guess", "forced guess"];

/** The risk log of a game or a replay: one row per click, {cell: [r, c], chord (a chord on
 * the number there: the cells it opens), by, probability
 * (a fraction string, or null with `unknown` saying why), mine, current, step (a replay's
 * event: a click on the row goes there, main.js listens)}. */
function riskTable(id, clicks, byTitle) {
  const table = el("table", null, el("thead", null, el("tr", null,
    el("th", null, "#"), el("th", null, "cell"), el("th", null, byTitle), el("th", null, "risk"))));
  const body = el("tbody");
  clicks.forEach((click, k) => {
    const go = click.step !== undefined;
    const p = parseFraction(click.probability);
    const text = p === null ? "" : `${percentText(p)}${p.den !== 1n ? ` (${shortFraction(p)})` : ""}`;
    // A row that goes to its click shows the exact value there, not on a click of its own.
    const risk = p === null ? el("span", { class: "muted" }, click.unknown || "not computed")
      : go ? el("span", { class: "num", title: p.text }, text) : hoverExact(text, p.text);
    const props = { class: [click.mine ? "boom" : "", click.current ? "current" : "", go ? "go" : ""]
      .filter(Boolean).join(" ") };
    if (go) props["data-step"] = String(click.step);
    body.append(el("tr", props,
      el("td", { class: "num" }, k + 1),
      el("td", { class: "where" }, `${click.cell[0]},${click.cell[1]}${click.chord ? " chord" : ""}`,
        click.chord ? el("span", { class: "opens muted" }, `opens ${cellList(click.chord)}`) : ""),
      el("td", null, click.by), el("td", null, risk, click.mine ? " — mine!" : "")));
  });
  table.append(body);
  return el("div", { id, class: "clicks" }, table);
}

/** Cells as the log and the text name them: "2,0 2,1". */
const cellList = (cells) => cells.map(([r, c]) => `${r},${c}`).join(" ");

/** An exact chance in the replay's panel: "0", "1", or a fraction with its percentage. */
function chance(text, props = {}) {
  const p = parseFraction(text);
  if (p === null) return "?";
  return p.den === 1n ? el("span", { class: "exact num", ...props }, p.text) : fraction(p, props);
}

/** A replay's clicks by class in the words of `exactmines replay` (report.replay_classes):
 * "6 clicks opened cells, 4 flags put or taken off: 1 first, 3 safe, 1 needless guess". */
function replayClasses(a) {
  const counted = Object.entries(a.classes).filter(([, n]) => n).map(([name, n]) =>
    `${n} ${n !== 1 && name.includes("guess") ? name.replace("guess", "guesses") : name}`);
  const words = (n, one) => `${n} ${one}${n === 1 ? "" : "s"}`;
  const flags = a.flags ? `, ${words(a.flags, "flag")} put or taken off` : "";
  return `${words(a.clicks, "click")} opened cells${flags}: ${counted.join(", ") || "none judged"}` +
    (a.trust_flags ? " (flags trusted as mines)" : "");
}

/** Replay mode: the game, the event shown and its judgement, the luck, and the risk log of
 * the clicks that opened cells (a row goes to its click). */
function renderReplay() {
  const box = $("replay-info");
  box.textContent = "";
  const r = state.replay;
  if (!r) return;
  const a = r.answer;
  const m = a.ms_toollib;
  // A lost game's 3BV/s is the whole board's 3BV over the time to the loss: no speed.
  const time = `${m.time.toFixed(3)} s, 3BV ${m.bbbv}${m.bbbv_s === null || !a.won ? "" : `, 3BV/s ${m.bbbv_s.toFixed(3)}`}`;
  box.append(el("h2", null, "Replay"), entries([
    ["file", r.name],
    ["program", `${a.software || "unknown"} (.${a.format})`],
    ["player", a.player || "—"],
    ["game", `${a.width}x${a.height}, ${plural(a.mines, "mine")}, ${a.mode}: ${a.won ? "won" : "lost"}`],
    ["ms_toollib", time],
    ["clicks", el("span", { id: "replay-classes" }, replayClasses(a))],
  ]));
  box.append(ziniPathSection(renderPanel) || "");
  const event = replayEvent();
  if (event) {
    const at = `${event.kind} at ${event.cell[0]},${event.cell[1]}, ${event.time.toFixed(3)} s`;
    const pairs = [["event", `${r.step + 1} of ${a.events.length}: ${at}`]];
    if (event.kind === "chord") pairs.push(["opens", el("span", { id: "click-opens" }, cellList(event.opens))]);
    if (event.class === null) pairs.push(["flag", "put on or taken off: no cell opened"]);
    else {
      pairs.push(["class", el("span", { id: "click-class", class: `class-${event.class.replace(/ /g, "-")}` }, event.class)]);
      if (event.probability !== null) pairs.push(["mine chance", chance(event.probability, { id: "click-chance" })]);
      if (event.safest !== null) pairs.push(["safest", chance(event.safest)]);
      if (event.excess !== null) pairs.push(["excess", chance(event.excess)]);
      if (event.mine) pairs.push(["outcome", el("span", { class: "verdict-bad" }, "a mine")]);
    }
    if (event.note) pairs.push(["note", event.note]);
    box.append(el("h2", null, "This click"), entries(pairs));
  }
  // As `exactmines replay` says it: the chance of surviving the guesses survived, or none.
  const survived = a.events.filter((e) => GUESS_CLASSES.includes(e.class) && !e.mine && e.probability !== null).length;
  const guesses = `${survived} ${survived === 1 ? "guess" : "guesses"}`;
  box.append(el("h2", null, "Luck"), entries([
    ["luck", survived ? el("span", null, fraction(parseFraction(a.luck), { id: "luck" }),
      el("span", { id: "luck-words" }, `, the chance of surviving the ${guesses} it survived`))
      : el("span", { id: "luck" }, "1 (no guess survived)")],
    ["-log10", a.luck_log10.toFixed(3)],
  ]));
  const opening = a.events.filter((e) => e.class !== null);
  box.append(riskTable("replay-clicks", opening.map((e) => ({
    cell: e.cell, by: e.class, probability: e.probability, mine: e.mine,
    chord: e.kind === "chord" ? e.opens : undefined,
    unknown: e.class === "first" ? "kept safe" : undefined,
    current: e.index === r.step, step: e.index,
  })), "class"));
  const list = $("replay-clicks");
  const current = list.querySelector("tr.current");
  if (current) {  // the row of the click shown, in the middle of the log (the page stays)
    const below = current.getBoundingClientRect().top - list.getBoundingClientRect().top;
    list.scrollTop += below - list.clientHeight / 2;
  }
}

/** Every section of the panel, and the tooltip if one is up, from the state. */
export function renderPanel() {
  renderSummary();
  renderAdvice();
  if (state.mode === "play") renderGame();
  if (state.mode === "replay") renderReplay();
  const i = state.lastCellShown;
  showCellInfo(i !== null && i < cellCount() ? i : null);
  if (state.hover && !$("tooltip").hidden && state.hover.i < cellCount()) {
    showTooltip(state.hover.i, state.hover.x, state.hover.y);
  }
}

/** Mark cell i on the board (a guess picked in the list) and bring it into view. */
export function pickCell(i) {
  state.picked = state.picked === i ? null : i;
  render();
  renderAdvice();
  if (state.picked !== null) { scrollToCell(i); showCellInfo(i); }
}
