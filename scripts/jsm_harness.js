// Runs JSMinesweeper's probability engine (D. N. Hill, MIT licence) on .mine positions, for
// scripts/bench_analyze.py --versus --jsm PATH. This file is exactmines' own; the engine is
// loaded at run time from a checkout of DavidNHill/JSMinesweeper at PATH and never copied.
//
//     node scripts/jsm_harness.js PATH POSITIONS.json
//
// POSITIONS.json is a list of .mine texts. The harness loads them as the page does (its
// loadFile: "F" a flag, a digit a revealed number, anything else covered), then on stdin:
//
//   "run"      one timed pass over every position, each from a fresh board: one JSON line,
//              the CPU seconds (process.cpuUsage: user + system) of each position.
//   "answers"  one JSON line: for each position, the mine probability of every covered,
//              unflagged cell, row-major (null when the engine could not run).
//
// Each position is solved the way solver_main.js's doSolve reaches its probability engine
// in the page's analysis mode: board.resetForAnalysis(true, true) (flags are mines, and
// trivially found mines are set aside), the witnesses and witnessed tiles gathered as
// doSolve does, its shortcuts for no mines left and no safe tile left, then a
// ProbabilityEngine with fullProbability on (the page's "full probability" analysis: no
// stopping at the first safe tile), process(), and every covered tile's probability read
// as pe.getProbability gives it (its box's, else the off-edge one), as doSolve reads them
// for the page.

"use strict";

const fs = require("fs");
const path = require("path");
const readline = require("readline");
const vm = require("vm");

const [root, positionsFile] = process.argv.slice(2);
if (!root || !positionsFile) {
    process.stderr.write("usage: node jsm_harness.js JSMINESWEEPER_CHECKOUT POSITIONS.json\n");
    process.exit(2);
}

// Their browser scripts, in the order the page loads them, in one strict-mode script with the
// two page globals the engine reads (binomialCache, analysisMode) declared before them.
const files = ["Utility/PrimeSieve.js", "Utility/Binomial.js", "client/Tile.js",
    "client/Board.js", "client/solver_main.js", "client/solver_probability_engine.js",
    "client/Brute_force.js"];
let source = "\"use strict\";\nlet binomialCache;\nconst analysisMode = false;\n";
for (const file of files) {
    source += fs.readFileSync(path.join(root, "Minesweeper", file), "utf8") + "\n;\n";
}
// The page's binomial table (main.js: MAX_BINOMIAL_N, then a cache of 5000 above n = 500).
source += "binomialCache = new BinomialCache(5000, 500, new Binomial(65000, 500));\n";
source += "({ Board, ProbabilityEngine, PLAY_STYLE_FLAGS });\n";
const quiet = console.log;
console.log = () => {};  // Binomial's constructor reports its timing
const engine = vm.runInThisContext(source, { filename: "JSMinesweeper" });
console.log = quiet;

function boardOf(text) {
    // As main.js's loadFile: a header WIDTHxHEIGHTxMINES, then one line per row.
    const lines = text.split("\n").map((line) => line.replace(/\r$/, ""))
        .filter((line) => !line.startsWith("#"));
    const [width, height, mines] = lines[0].split("x").map((n) => parseInt(n, 10));
    const board = new engine.Board(1, width, height, mines, "", "safe");
    for (let y = 0; y < height; y++) {
        for (let x = 0; x < width; x++) {
            const ch = lines[y + 1].charAt(x);
            const tile = board.getTileXY(x, y);
            if (ch === "F") {
                tile.toggleFlag();
                board.bombs_left--;
            } else if (ch >= "0" && ch <= "8") {
                tile.setValue(ch.charCodeAt(0) - 48);
            } else {
                tile.setCovered(true);
            }
        }
    }
    return board;
}

const OPTIONS = { playStyle: engine.PLAY_STYLE_FLAGS, verbose: false, fullProbability: true,
    advancedGuessing: true, guessPruning: true, noGuessingMode: false, fullBFDA: false };

// One position: every covered, unflagged tile's probability of being a mine, row-major
// (null: the engine could not run).
function solve(board) {
    board.reset();
    board.resetForAnalysis(true, true);
    const allCoveredTiles = [];
    const witnesses = [];
    const work = new Set();
    let minesLeft = board.num_bombs;
    let squaresLeft = 0;
    for (let i = 0; i < board.tiles.length; i++) {
        const tile = board.getTile(i);
        if (tile.isSolverFoundBomb()) {
            minesLeft--;
            continue;
        } else if (tile.isCovered()) {
            squaresLeft++;
            allCoveredTiles.push(tile);
            continue;
        }
        let needsWork = false;
        for (const adjTile of board.getAdjacent(tile)) {
            if (adjTile.isCovered() && !adjTile.isSolverFoundBomb()) {
                needsWork = true;
                work.add(adjTile.index);
            }
        }
        if (needsWork) {
            witnesses.push(tile);
        }
    }
    const witnessed = [];
    for (const index of work) {
        const tile = board.getTile(index);
        tile.setOnEdge(true);
        witnessed.push(tile);
    }
    // Safety (their probabilities are of being safe) by tile index.
    const safety = new Map();
    if (minesLeft === 0 || minesLeft === squaresLeft) {
        for (const tile of allCoveredTiles) {
            safety.set(tile.index, minesLeft === 0 ? 1 : 0);
        }
    } else {
        const pe = new engine.ProbabilityEngine(board, witnesses, witnessed, squaresLeft,
            minesLeft, OPTIONS);
        if (!pe.validWeb) {
            return null;
        }
        pe.process();
        if (!pe.fullAnalysis || pe.finalSolutionsCount == 0) {
            return null;
        }
        // What pe.getProbability(tile) returns for each tile, read box by box (it searches
        // the boxes for each tile it is asked about: quadratic, and not the engine's work).
        for (const box of pe.boxes) {
            for (const tile of box.tiles) {
                safety.set(tile.index, pe.boxProb[box.uid]);
            }
        }
        for (const tile of allCoveredTiles) {
            if (!safety.has(tile.index)) {
                safety.set(tile.index, pe.offEdgeProbability);
            }
        }
    }
    const out = [];
    for (const tile of board.tiles) {
        if (tile.isCovered() && !tile.isFlagged()) {
            out.push(safety.has(tile.index) ? 1 - safety.get(tile.index) : 1);  // found mines
        }
    }
    return out;
}

const texts = JSON.parse(fs.readFileSync(positionsFile, "utf8"));
for (const text of texts) {  // warm: every position once, untimed
    solve(boardOf(text));
}
process.stdout.write("ready\n");

const input = readline.createInterface({ input: process.stdin });
input.on("line", (line) => {
    const command = line.trim();
    if (command === "run") {
        const boards = texts.map(boardOf);  // fresh boards, made before the clock starts
        const seconds = new Array(boards.length);
        for (let i = 0; i < boards.length; i++) {
            const before = process.cpuUsage();
            solve(boards[i]);
            const spent = process.cpuUsage(before);
            seconds[i] = (spent.user + spent.system) / 1e6;
        }
        process.stdout.write(JSON.stringify(seconds) + "\n");
    } else if (command === "answers") {
        process.stdout.write(JSON.stringify(texts.map((text) => solve(boardOf(text)))) + "\n");
    } else if (command === "quit") {
        input.close();
    }
});
