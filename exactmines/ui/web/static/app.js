/* exactmines page: a board editor and a game, with the exact overlay from the server.
 *
 * Plain JavaScript, no library and no build step. The server does every piece of
 * Minesweeper reasoning (/api/overlay, /api/games/...); this file draws, edits and asks.
 * Exact values stay exact: probabilities are fraction strings, layout counts BigInts;
 * floats are used only to pick a colour and round a percentage.
 */
"use strict";
(() => {
  const $ = (id) => document.getElementById(id);
  const boardEl = $("board");
  // The page draws one element per cell: past this many, a browser gets slow to edit.
  const MAX_CELLS = 40000;
  const wrapEl = $("board-wrap");

  // The colour scale of `analyze --image`: matplotlib's YlOrRd (9 ColorBrewer stops,
  // a 256-entry table, linear between stops), so a cell here and in the picture match.
  const YLORRD = [[255, 255, 204], [255, 237, 160], [254, 217, 118], [254, 178, 76],
    [253, 141, 60], [252, 78, 42], [227, 26, 28], [189, 0, 38], [128, 0, 38]];
  function colourOf(p) {
    const index = Math.min(Math.max(Math.floor(p * 256), 0), 255);
    const x = (index / 255) * (YLORRD.length - 1);
    const k = Math.min(Math.floor(x), YLORRD.length - 2);
    const f = x - k;
    const rgb = [0, 1, 2].map((j) => (YLORRD[k][j] * (1 - f) + YLORRD[k + 1][j] * f));
    return rgb;
  }
  const luminance = (rgb) => (0.299 * rgb[0] + 0.587 * rgb[1] + 0.114 * rgb[2]) / 255;

  // -- exact numbers ----------------------------------------------------------------
  function parseFraction(text) {
    if (text === null || text === undefined) return null;
    const [n, d] = text.split("/");
    return { num: BigInt(n), den: d === undefined ? 1n : BigInt(d), text };
  }
  function fractionFloat(f) {
    // 12 significant places from exact integers: never Infinity/Infinity on huge counts.
    return Number((f.num * 1000000000000n) / f.den) / 1e12;
  }
  function percentLabel(f) {
    // The rounded percentage of `--image`: Python's round (halves to even), from the exact
    // fraction, kept between 1 and 99 so that only certain cells read 0 or 100.
    const scaled = f.num * 100n;
    let q = scaled / f.den;
    const twice = 2n * (scaled - q * f.den);
    if (twice > f.den || (twice === f.den && q % 2n === 1n)) q += 1n;
    return String(Math.min(Math.max(Number(q), 1), 99));
  }
  function percentText(f) {
    const p = fractionFloat(f) * 100;
    if (f.num === 0n) return "0%";
    if (f.num === f.den) return "100%";
    return (p < 0.01 ? p.toExponential(2) : p.toFixed(p < 1 ? 3 : 2)) + "%";
  }
  function bigText(text, keep = 40) {
    return text.length <= keep ? text : `${text.slice(0, keep)}… (${text.length} digits)`;
  }

  // -- state ------------------------------------------------------------------------
  const state = {
    mode: "edit",
    width: 9, height: 9, mines: 10,
    grid: [],            // edit: one character per cell (H F M 0-8)
    tool: "look",
    cursor: 0,
    overlayOn: true,
    overlay: null,       // the last /api/overlay answer ...
    overlayKey: null,    // ... and the position it belongs to
    cellInfo: new Map(), // index -> {p, verdict} of that answer
    seq: 0,
    controller: null,
    game: null,
    hintMove: null,
    autoplay: false,
    zoom: 28,
    backends: ["auto"],
    lastCellShown: null,
  };
  let cells = [];
  const shown = { cls: [], text: [], label: [], p: [] };

  // -- errors and requests ----------------------------------------------------------
  function showError(message) {
    const box = $("error");
    box.textContent = message;
    box.hidden = false;
  }
  function clearError() { $("error").hidden = true; $("error").textContent = ""; }

  async function api(path, body, signal) {
    const options = body === undefined ? { method: "GET", signal } : {
      method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body), signal,
    };
    const response = await fetch(path, options);
    let data;
    try { data = await response.json(); } catch (e) { data = { error: `HTTP ${response.status}` }; }
    if (!response.ok) {
      const error = new Error(data.error || `HTTP ${response.status}`);
      error.status = response.status;
      throw error;
    }
    return data;
  }

  // -- the board ----------------------------------------------------------------------
  function rows() {
    if (state.mode === "play") return state.game ? state.game.rows : [];
    const out = [];
    for (let r = 0; r < state.height; r++) {
      out.push(state.grid.slice(r * state.width, (r + 1) * state.width).join(""));
    }
    return out;
  }
  function mineText() {
    const header = `${state.width}x${state.height}` + (state.mines === null ? "" : `x${state.mines}`);
    return [header, ...rows()].join("\n") + "\n";
  }
  function positionKey() {
    if (state.mode === "play") {
      const g = state.game;
      return g ? `game:${g.id}:${g.clicks.length}` : "game:none";
    }
    return `${state.width}x${state.height}x${state.mines}:${rows().join("/")}`;
  }

  function buildBoard(width, height) {
    if (cells.length === width * height && boardEl.style.getPropertyValue("--cols") === String(width)) return;
    boardEl.textContent = "";
    boardEl.style.setProperty("--cols", String(width));
    const fragment = document.createDocumentFragment();
    cells = [];
    for (let i = 0; i < width * height; i++) {
      const div = document.createElement("div");
      div.className = "cell covered";
      div.setAttribute("role", "gridcell");
      div.id = `c${i}`;
      div.dataset.i = String(i);
      div.dataset.row = String(Math.floor(i / width));
      div.dataset.col = String(i % width);
      fragment.appendChild(div);
      cells.push(div);
    }
    boardEl.appendChild(fragment);
    shown.cls = new Array(width * height).fill("cell covered");
    shown.text = new Array(width * height).fill("");
    shown.label = new Array(width * height).fill("");
    shown.p = new Array(width * height).fill(null);
    state.cursor = Math.min(state.cursor, width * height - 1);
    boardEl.setAttribute("aria-activedescendant", `c${state.cursor}`);
    boardEl.setAttribute("aria-rowcount", String(height));
    boardEl.setAttribute("aria-colcount", String(width));
  }

  function fitZoom() {
    // The room beside the panel (or the page's width when the panel goes below the board);
    // never below 18 px a cell, so numbers stay readable: a wider board scrolls.
    const main = document.querySelector("main");
    const column = getComputedStyle(main).flexDirection === "column";
    const room = Math.max(main.clientWidth - (column ? 0 : $("panel").offsetWidth + 16) - 18, 160);
    state.zoom = Math.max(18, Math.min(36, Math.floor(room / state.width) - 1));
    applyZoom();
  }
  function applyZoom() {
    document.documentElement.style.setProperty("--cell", `${state.zoom}px`);
    boardEl.classList.toggle("small", state.zoom < 16);
  }

  function overlayValid() {
    return state.overlayOn && state.overlay !== null && state.overlayKey === positionKey();
  }

  // What one cell shows: [class, text, words for screen readers, exact probability].
  function look(i, ch) {
    const width = state.width;
    const where = `row ${Math.floor(i / width)}, col ${i % width}`;
    if (ch >= "0" && ch <= "8") {
      return ch === "0" ? ["cell zero", "", `${where}: 0`, null]
        : [`cell revealed n${ch}`, ch, `${where}: ${ch}`, null];
    }
    if (ch === "X") return ["cell exploded", "✸", `${where}: the mine clicked`, null];
    if (ch === "M" && state.mode === "play") return ["cell shown-mine", "✱", `${where}: mine`, null];
    const hidden = ch === "M" ? " hidden-mine" : "";
    const covered = ch === "F" ? "flag" : `covered${hidden}`;
    const base = ch === "F" ? "F" : "";
    if (!overlayValid() || (state.mode === "play" && state.game && state.game.over)) {
      return [`cell ${covered}`, base, `${where}: ${ch === "F" ? "flag" : "covered"}`, null];
    }
    const analysis = state.overlay.analysis;
    const info = state.cellInfo.get(i);
    const fault = state.overlay.fault;
    if (ch === "F" && (state.mode === "edit" || !info)) {
      return ["cell flag", "F", `${where}: flag`, null];
    }
    const flagged = ch === "F" ? " (flagged)" : "";
    if (analysis.consistent === false || !info) {
      const why = analysis.consistent === false ? "position inconsistent" : "not analysed";
      return [`cell nc${hidden}`, "?", `${where}: covered, ${why}${flagged}`, null];
    }
    const p = info.p;
    if (info.verdict === "safe") return [`cell safe${hidden}`, "S", `${where}: certainly safe${flagged}`, p];
    if (info.verdict === "mine") return [`cell certain-mine${hidden}`, "M", `${where}: certain mine${flagged}`, p];
    if (p === null) {
      const why = analysis.probabilities_computed ? "no probability (total mine count unknown)"
        : "probability not computed within the time limit";
      return [`cell nc${hidden}`, "?", `${where}: ${why}${flagged}`, null];
    }
    return [`cell prob${hidden}`, percentLabel(p), `${where}: mine probability ${p.text}${flagged}`, p];
  }

  function render() {
    const rs = rows();
    const width = state.width;
    const rec = new Set();
    const faults = new Set();
    if (overlayValid()) {
      const move = state.overlay.recommendation;
      if (move && !(state.mode === "play" && state.game && state.game.over)) {
        for (const [r, c] of move.cells) rec.add(r * width + c);
      }
      if (state.overlay.fault) for (const [r, c] of state.overlay.fault.clues) faults.add(r * width + c);
    }
    if (state.hintMove && state.mode === "play") {
      for (const [r, c] of state.hintMove.cells) rec.add(r * width + c);
    }
    for (let r = 0; r < rs.length; r++) {
      const row = rs[r];
      for (let c = 0; c < row.length; c++) {
        const i = r * width + c;
        let [cls, text, label, p] = look(i, row[c]);
        if (rec.has(i)) cls += " rec";
        if (faults.has(i)) cls += " fault";
        if (i === state.cursor) cls += " cursor";
        const el = cells[i];
        if (shown.cls[i] !== cls) { el.className = cls; shown.cls[i] = cls; }
        if (shown.text[i] !== text) { el.textContent = text; shown.text[i] = text; }
        if (shown.label[i] !== label) { el.setAttribute("aria-label", label); shown.label[i] = label; }
        const ptext = p ? p.text : null;
        if (shown.p[i] !== ptext) {
          if (ptext === null) {
            el.removeAttribute("data-p");
            el.style.removeProperty("background-color");
            el.style.removeProperty("color");
          } else {
            el.dataset.p = ptext;
          }
          shown.p[i] = ptext;
        }
        if (cls.startsWith("cell prob") && p) {
          const rgb = colourOf(fractionFloat(p));
          const css = `rgb(${rgb.map((v) => Math.round(v)).join(", ")})`;
          if (el.style.backgroundColor !== css) {
            el.style.backgroundColor = css;
            el.style.color = luminance(rgb) < 0.5 ? "white" : "black";
          }
        } else if (el.style.backgroundColor) {
          el.style.removeProperty("background-color");
          el.style.removeProperty("color");
        }
      }
    }
    boardEl.setAttribute("aria-activedescendant", `c${state.cursor}`);
  }

  // -- the panel ----------------------------------------------------------------------
  function el(tag, props, ...children) {
    const node = document.createElement(tag);
    if (props) {
      for (const [key, value] of Object.entries(props)) {
        if (key === "class") node.className = value;
        else if (key === "title") node.title = value;
        else node.setAttribute(key, value);
      }
    }
    for (const child of children) {
      if (child === null || child === undefined) continue;
      node.append(child instanceof Node ? child : String(child));
    }
    return node;
  }
  function entries(pairs) {
    const dl = el("dl");
    for (const [term, value] of pairs) dl.append(el("dt", null, term), el("dd", null, value));
    return dl;
  }

  function renderSummary() {
    const box = $("summary");
    box.textContent = "";
    const mines = state.mode === "play" ? (state.game ? state.game.mines : null) : state.mines;
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

  function showCellInfo(i) {
    state.lastCellShown = i;
    const box = $("cell-info");
    box.textContent = "";
    box.append(el("h2", null, "Cell"), ...describeCell(i).map((line, k) =>
      el("p", k === 0 ? { class: "muted" } : { class: "exact" }, line)));
  }

  function showTooltip(i, x, y) {
    const tip = $("tooltip");
    tip.textContent = "";
    for (const line of describeCell(i)) tip.append(el("div", null, line));
    tip.hidden = false;
    const w = tip.offsetWidth, h = tip.offsetHeight;
    tip.style.left = `${Math.max(4, Math.min(x + 14, window.innerWidth - w - 4))}px`;
    tip.style.top = `${Math.max(4, Math.min(y + 14, window.innerHeight - h - 4))}px`;
  }
  function hideTooltip() { $("tooltip").hidden = true; }

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
    const table = el("table", null, el("thead", null, el("tr", null,
      el("th", null, "#"), el("th", null, "cell"), el("th", null, "by"), el("th", null, "risk"))));
    const body = el("tbody");
    g.clicks.forEach((click, k) => {
      const p = parseFraction(click.probability);
      const risk = p === null ? el("span", { class: "muted" }, "not computed")
        : el("span", { class: "exact", title: p.text }, `${percentText(p)}${p.den !== 1n ? ` (${bigText(p.text, 24)})` : ""}`);
      body.append(el("tr", click.mine ? { class: "boom" } : null,
        el("td", { class: "num" }, k + 1), el("td", null, `${click.row},${click.col}`),
        el("td", null, click.by), el("td", null, risk, click.mine ? " — mine!" : "")));
    });
    table.append(body);
    box.append(el("div", { id: "clicks" }, table));
    const list = $("clicks");
    list.scrollTop = list.scrollHeight;
  }

  function renderPanel() {
    renderSummary();
    renderAdvice();
    if (state.mode === "play") renderGame();
    if (state.lastCellShown !== null && state.lastCellShown < cells.length) showCellInfo(state.lastCellShown);
  }

  // -- overlay ------------------------------------------------------------------------
  function overlayBody() {
    const body = { backend: $("backend").value, time_limit: Number($("time-limit").value) || undefined };
    if (state.mode === "play") {
      // What the player sees, without the player's flags (never trusted).
      body.grid = state.game.rows.map((row) => row.replace(/[FMX]/g, "H"));
      body.mines = state.game.mines;
    } else {
      body.grid = rows();
      if (state.mines !== null) body.mines = state.mines;
    }
    return body;
  }

  async function refreshOverlay() {
    const key = positionKey();
    if (!state.overlayOn || (state.mode === "play" && (!state.game || state.game.over))) {
      boardEl.dataset.state = "idle";
      render(); renderPanel();
      return;
    }
    if (state.overlayKey === key && state.overlay) { render(); renderPanel(); return; }
    const mine = ++state.seq;
    if (state.controller) state.controller.abort();
    const controller = new AbortController();
    state.controller = controller;
    boardEl.dataset.state = "busy";
    $("busy").textContent = "analysing…";
    render(); renderPanel();  // the old numbers go at once: they belong to another position
    let answer;
    try {
      answer = await api("/api/overlay", overlayBody(), controller.signal);
    } catch (error) {
      if (mine !== state.seq) return;  // a newer position is on its way
      boardEl.dataset.state = "error";
      $("busy").textContent = "";
      showError(error.message);
      return;
    }
    if (mine !== state.seq || key !== positionKey()) return;  // stale: drop it
    clearError();
    state.overlay = answer;
    state.overlayKey = key;
    state.cellInfo = new Map();
    for (const cell of answer.analysis.cells) {
      state.cellInfo.set(cell.row * state.width + cell.col,
        { p: parseFraction(cell.probability), verdict: cell.verdict });
    }
    boardEl.dataset.state = "ready";
    boardEl.dataset.key = key;
    $("busy").textContent = "";
    render(); renderPanel();
  }

  // -- editing ------------------------------------------------------------------------
  function newBoard(width, height, mines) {
    if (!(width >= 1 && height >= 1 && width * height <= MAX_CELLS)) {
      showError(`board size ${width}x${height}: at least 1x1 and at most ${MAX_CELLS} cells here`);
      return;
    }
    if (mines !== null && !(mines >= 0 && mines <= width * height)) {
      showError(`${mines} mines do not fit on ${width}x${height}`);
      return;
    }
    clearError();
    state.width = width; state.height = height; state.mines = mines;
    state.grid = new Array(width * height).fill("H");
    startEditing();
  }
  function startEditing() {
    syncSizeInputs();
    buildBoard(state.width, state.height);
    fitZoom();
    writeFragment();
    refreshOverlay();
  }
  function syncSizeInputs() {
    $("width").value = state.width; $("height").value = state.height;
    $("mines").value = state.mines === null ? "" : state.mines;
    const key = `${state.width}x${state.height}x${state.mines}`;
    $("preset").value = ["9x9x10", "16x16x40", "30x16x99"].includes(key) ? key : "custom";
  }
  function setCell(i, ch) {
    if (state.grid[i] === ch) return;
    state.grid[i] = ch;
    writeFragment();
    refreshOverlay();
  }
  function applyTool(i, tool) {
    if (tool === "look") { showCellInfo(i); return; }
    setCell(i, tool === "F" && state.grid[i] === "F" ? "H" : tool);
  }

  function loadMineText(text) {
    const lines = text.split(/\r?\n/).map((line) => line.replace(/[ \t\r]+$/, ""));
    let k = 0;
    while (k < lines.length && (lines[k] === "" || lines[k].startsWith("#"))) k++;
    const header = /^\s*(\d+)x(\d+)(?:x(\d+))?$/i.exec(lines[k] || "");
    if (!header) { showError("expected .mine text"); return; }
    const width = Number(header[1]), height = Number(header[2]);
    if (width * height > MAX_CELLS) {
      showError(`${width}x${height}: more than the ${MAX_CELLS} cells this page draws; use exactmines analyze`);
      return;
    }
    state.width = width; state.height = height;
    state.mines = header[3] === undefined ? null : Number(header[3]);
    state.grid = [];
    for (let r = 0; r < height; r++) {
      for (const ch of lines[k + 1 + r]) state.grid.push(ch === "?" ? "M" : ch);
    }
    setMode("edit", false);
    startEditing();
  }

  // -- the URL fragment: the position (or the game's settings) ------------------------
  function writeFragment() {
    let fragment;
    if (state.mode === "play") {
      const g = state.game;
      if (!g || g.fixed_board) return;
      fragment = `play:${g.width}x${g.height}x${g.mines}:${g.rule}:${g.seed}${g.noguess ? ":noguess" : ""}`;
    } else {
      fragment = `${state.width}x${state.height}${state.mines === null ? "" : `x${state.mines}`}:${rows().join("/")}`;
    }
    if (location.hash.slice(1) !== fragment) history.replaceState(null, "", `#${fragment}`);
  }
  function readFragment() {
    const fragment = decodeURIComponent(location.hash.slice(1));
    let m = /^play:(\d+)x(\d+)x(\d+):(safe|opening|unprotected):(\d+)(:noguess)?$/.exec(fragment);
    if (m) {
      $("width").value = m[1]; $("height").value = m[2]; $("mines").value = m[3];
      $("rule").value = m[4]; $("seed").value = m[5]; $("noguess").checked = Boolean(m[6]);
      setMode("play", false);
      newGame();
      return true;
    }
    m = /^(\d+)x(\d+)(?:x(\d+))?:([0-8HFM/]*)$/.exec(fragment);
    if (!m) return false;
    const width = Number(m[1]), height = Number(m[2]);
    const lines = m[4].split("/");
    if (lines.length !== height || lines.some((line) => line.length !== width) || width * height > MAX_CELLS) {
      showError("the link's position does not match its size, or is too large: an empty 9x9 board instead");
      newBoard(9, 9, 10);
      return true;
    }
    state.width = width; state.height = height;
    state.mines = m[3] === undefined ? null : Number(m[3]);
    state.grid = lines.join("").split("");
    setMode("edit", false);
    startEditing();
    return true;
  }

  // -- playing ------------------------------------------------------------------------
  let gameQueue = Promise.resolve();
  function gameRequest(run) {
    // One game request at a time, in order: a click never overtakes the one before.
    const next = gameQueue.then(run, run);
    gameQueue = next.catch(() => undefined);
    return next;
  }
  function setGame(game) {
    const sized = !state.game || state.game.width !== game.width || state.game.height !== game.height;
    state.game = game;
    state.width = game.width; state.height = game.height;
    if (!game.fixed_board) {
      $("width").value = game.width; $("height").value = game.height; $("mines").value = game.mines;
      const key = `${game.width}x${game.height}x${game.mines}`;
      $("preset").value = ["9x9x10", "16x16x40", "30x16x99"].includes(key) ? key : "custom";
    }
    if (sized || cells.length !== game.width * game.height) { buildBoard(game.width, game.height); fitZoom(); }
    writeFragment();
    render(); renderPanel();
    return refreshOverlay();
  }
  async function newGame(board) {
    stopAuto();
    const seedText = $("seed").value.trim();
    const body = board ? { board, rule: "safe" } : {
      width: Number($("width").value), height: Number($("height").value),
      mines: Number($("mines").value), rule: $("rule").value,
      seed: seedText === "" ? null : Number(seedText), noguess: $("noguess").checked,
    };
    if (seedText !== "" && !/^\d+$/.test(seedText)) { showError(`seed ${seedText}: a whole number, 0 or more`); return; }
    try {
      const game = await gameRequest(() => api("/api/games", body));
      clearError();
      state.hintMove = null;
      state.game = null;
      if (!board) $("seed").value = String(game.seed);
      await setGame(game);
    } catch (error) { showError(error.message); }
  }
  async function gameAction(action, body) {
    if (!state.game) return null;
    const id = state.game.id;
    try {
      const game = await gameRequest(() => api(`/api/games/${id}/${action}`, body || {}));
      clearError();
      state.hintMove = action === "hint" ? game.move : null;
      await setGame(game);
      return game;
    } catch (error) { showError(error.message); stopAuto(); return null; }
  }
  function reveal(i) { return gameAction("reveal", { row: Math.floor(i / state.width), col: i % state.width }); }
  function flag(i) { return gameAction("flag", { row: Math.floor(i / state.width), col: i % state.width }); }

  function stopAuto() {
    state.autoplay = false;
    $("auto").setAttribute("aria-pressed", "false");
    $("auto").textContent = "Auto-play";
  }
  async function toggleAuto() {
    if (state.autoplay) { stopAuto(); return; }
    if (!state.game) await newGame();
    state.autoplay = true;
    $("auto").setAttribute("aria-pressed", "true");
    $("auto").textContent = "Stop";
    while (state.autoplay && state.game && !state.game.over) {
      const game = await gameAction("step");
      if (!game) break;
      await new Promise((done) => setTimeout(done, 0));
    }
    stopAuto();
  }

  // -- modes --------------------------------------------------------------------------
  function setMode(mode, start = true) {
    stopAuto();
    state.mode = mode;
    document.body.dataset.mode = mode;
    $("mode-edit").setAttribute("aria-pressed", String(mode === "edit"));
    $("mode-play").setAttribute("aria-pressed", String(mode === "play"));
    state.overlay = null; state.overlayKey = null; state.hintMove = null;
    hideTooltip();
    if (!start) return;
    if (mode === "play") {
      if (state.game) { buildBoard(state.game.width, state.game.height); fitZoom(); setGame(state.game); }
      else newGame();
    } else {
      if (state.grid.length !== state.width * state.height || state.grid.length === 0) {
        newBoard(9, 9, 10);
        return;
      }
      startEditing();
    }
  }

  // -- input --------------------------------------------------------------------------
  function cellIndex(target) {
    const cell = target.closest ? target.closest(".cell") : null;
    return cell && cell.dataset.i !== undefined ? Number(cell.dataset.i) : null;
  }
  function moveCursor(i) {
    state.cursor = i;
    render();
    cells[i].scrollIntoView({ block: "nearest", inline: "nearest" });
    showCellInfo(i);
  }

  boardEl.addEventListener("click", (event) => {
    const i = cellIndex(event.target);
    if (i === null) return;
    state.cursor = i;
    if (state.mode === "edit") { applyTool(i, state.tool); showCellInfo(i); render(); return; }
    if ($("flag-mode").checked) flag(i); else reveal(i);
  });
  boardEl.addEventListener("contextmenu", (event) => {
    const i = cellIndex(event.target);
    if (i === null) return;
    event.preventDefault();
    if (state.mode === "edit") setCell(i, state.grid[i] === "F" ? "H" : "F");
    else flag(i);
  });
  boardEl.addEventListener("mouseover", (event) => {
    const i = cellIndex(event.target);
    if (i === null) return;
    showTooltip(i, event.clientX, event.clientY);
    showCellInfo(i);
  });
  boardEl.addEventListener("mousemove", (event) => {
    const tip = $("tooltip");
    if (!tip.hidden) {
      const i = cellIndex(event.target);
      if (i !== null) showTooltip(i, event.clientX, event.clientY);
    }
  });
  boardEl.addEventListener("mouseleave", hideTooltip);
  wrapEl.addEventListener("scroll", hideTooltip);

  boardEl.addEventListener("keydown", (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const width = state.width, height = state.height;
    let r = Math.floor(state.cursor / width), c = state.cursor % width;
    const jump = event.shiftKey ? 5 : 1;
    const moves = { ArrowUp: [-jump, 0], ArrowDown: [jump, 0], ArrowLeft: [0, -jump], ArrowRight: [0, jump] };
    if (moves[event.key]) {
      r = Math.max(0, Math.min(height - 1, r + moves[event.key][0]));
      c = Math.max(0, Math.min(width - 1, c + moves[event.key][1]));
      moveCursor(r * width + c);
      event.preventDefault();
      return;
    }
    if (event.key === "Home" || event.key === "End") {
      moveCursor(r * width + (event.key === "Home" ? 0 : width - 1));
      event.preventDefault();
      return;
    }
    const key = event.key.toLowerCase();
    const i = state.cursor;
    if (state.mode === "edit") {
      let ch = null;
      if (/^[0-8]$/.test(key)) ch = key;
      else if (key === "h" || key === " " || key === "backspace" || key === "delete") ch = "H";
      else if (key === "f") ch = state.grid[i] === "F" ? "H" : "F";
      else if (key === "m") ch = state.grid[i] === "M" ? "H" : "M";
      if (ch !== null) { setCell(i, ch); showCellInfo(i); event.preventDefault(); event.stopPropagation(); }
      return;
    }
    if (key === "enter" || key === " ") { reveal(i); event.preventDefault(); event.stopPropagation(); }
    else if (key === "f") { flag(i); event.preventDefault(); event.stopPropagation(); }
  });

  document.addEventListener("keydown", (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const target = event.target;
    if (target.closest && target.closest("input, textarea, select, dialog")) return;
    const key = event.key.toLowerCase();
    const actions = {
      o: () => { $("overlay").checked = !$("overlay").checked; $("overlay").dispatchEvent(new Event("change")); },
      "+": () => zoomBy(1.25), "=": () => zoomBy(1.25), "-": () => zoomBy(0.8),
      n: () => (state.mode === "edit" ? $("new-board").click() : $("new-game").click()),
    };
    if (state.mode === "edit") actions.p = () => $("paste").click();
    else Object.assign(actions, { i: () => $("hint").click(), s: () => $("step").click(), a: () => $("auto").click() });
    if (actions[key]) { actions[key](); event.preventDefault(); }
  });

  function zoomBy(factor) {
    state.zoom = Math.max(8, Math.min(64, Math.round(state.zoom * factor)));
    applyZoom();
  }

  // -- toolbar ------------------------------------------------------------------------
  $("mode-edit").addEventListener("click", () => setMode("edit"));
  $("mode-play").addEventListener("click", () => setMode("play"));
  $("preset").addEventListener("change", () => {
    const value = $("preset").value;
    if (value === "custom") return;
    const [w, h, m] = value.split("x").map(Number);
    $("width").value = w; $("height").value = h; $("mines").value = m;
    if (state.mode === "edit") newBoard(w, h, m); else newGame();
  });
  $("new-board").addEventListener("click", () => {
    const minesText = $("mines").value.trim();
    newBoard(Number($("width").value), Number($("height").value), minesText === "" ? null : Number(minesText));
  });
  $("mines").addEventListener("change", () => {
    if (state.mode !== "edit") return;
    const text = $("mines").value.trim();
    state.mines = text === "" ? null : Number(text);
    writeFragment();
    refreshOverlay();
  });
  $("new-game").addEventListener("click", () => newGame());
  $("tools").addEventListener("click", (event) => {
    const button = event.target.closest("button[data-tool]");
    if (!button) return;
    state.tool = button.dataset.tool;
    for (const b of $("tools").querySelectorAll("button")) b.setAttribute("aria-pressed", String(b === button));
  });
  $("overlay").addEventListener("change", () => {
    state.overlayOn = $("overlay").checked;
    refreshOverlay();
  });
  $("backend").addEventListener("change", () => { state.overlayKey = null; refreshOverlay(); });
  $("time-limit").addEventListener("change", () => { state.overlayKey = null; refreshOverlay(); });
  $("zoom-in").addEventListener("click", () => zoomBy(1.25));
  $("zoom-out").addEventListener("click", () => zoomBy(0.8));
  $("hint").addEventListener("click", () => gameAction("hint"));
  $("step").addEventListener("click", () => gameAction("step"));
  $("auto").addEventListener("click", () => toggleAuto());

  $("paste").addEventListener("click", () => {
    $("paste-text").value = "";
    $("paste-dialog").showModal();
    $("paste-text").focus();
  });
  $("paste-dialog").addEventListener("close", async () => {
    if ($("paste-dialog").returnValue !== "load") return;
    const text = $("paste-text").value;
    try {
      const answer = await api("/api/import", { text });
      clearError();
      loadMineText(answer.text);
    } catch (error) { showError(error.message); }
  });
  $("upload").addEventListener("change", async () => {
    const file = $("upload").files[0];
    if (!file) return;
    const bytes = new Uint8Array(await file.arrayBuffer());
    let binary = "";
    for (let k = 0; k < bytes.length; k += 0x8000) binary += String.fromCharCode(...bytes.subarray(k, k + 0x8000));
    try {
      const answer = await api("/api/import", { name: file.name, data: btoa(binary) });
      clearError();
      loadMineText(answer.text);
    } catch (error) { showError(error.message); }
    $("upload").value = "";
  });
  async function download(kind) {
    try {
      const answer = await api("/api/export", { text: mineText(), to: kind });
      clearError();
      let blob;
      if (answer.encoding === "base64") {
        const raw = atob(answer.data);
        blob = new Blob([Uint8Array.from(raw, (ch) => ch.charCodeAt(0))], { type: "application/octet-stream" });
      } else {
        blob = new Blob([answer.data], { type: "text/plain" });
      }
      const link = el("a", { href: URL.createObjectURL(blob), download: `position-${state.width}x${state.height}${answer.suffix}` });
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(link.href), 1000);
    } catch (error) { showError(error.message); }
  }
  $("download-mine").addEventListener("click", () => download("mine"));
  $("download-mbf").addEventListener("click", () => download("mbf"));
  $("play-board").addEventListener("click", async () => {
    const text = mineText();
    setMode("play", false);
    await newGame(text);
    if (!state.game) setMode("edit");
  });
  window.addEventListener("hashchange", () => readFragment());
  window.addEventListener("resize", hideTooltip);

  // -- start --------------------------------------------------------------------------
  async function start() {
    try {
      const health = await api("/api/health");
      const select = $("backend");
      select.textContent = "";
      for (const name of health.backends) select.append(el("option", { value: name }, name));
      select.value = "auto";
      $("time-limit").value = health.time_limit;
      $("time-limit").max = health.max_time_limit;
    } catch (error) { showError(`the server does not answer: ${error.message}`); }
    if (!readFragment()) newBoard(9, 9, 10);
  }
  window.exactmines = { state, colourOf, positionKey };  // for the console, and tests
  start();
})();
