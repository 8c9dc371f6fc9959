/* A position as the page holds it (one character per cell, row-major: 0-8, H, F, M) and
 * as .mine text. Pure. */

/** The rows of a flat grid of characters. */
export function gridRows(grid, width, height) {
  const out = [];
  for (let r = 0; r < height; r++) out.push(grid.slice(r * width, (r + 1) * width).join(""));
  return out;
}

/** .mine text: the header WIDTHxHEIGHT[xMINES] (no count when mines is null), then the rows. */
export function mineText(width, height, mines, rows) {
  const header = `${width}x${height}` + (mines === null ? "" : `x${mines}`);
  return [header, ...rows].join("\n") + "\n";
}

/** {width, height, mines, grid} from .mine text (comment lines and blank lines before the
 * header skipped, trailing blanks ignored, "?" read as M), or {error: one line} when there is
 * no header or the board has more than maxCells cells. The text comes from the server's
 * /api/import, which has checked every row. */
export function parseMineText(text, maxCells) {
  const lines = text.split(/\r?\n/).map((line) => line.replace(/[ \t\r]+$/, ""));
  let k = 0;
  while (k < lines.length && (lines[k] === "" || lines[k].startsWith("#"))) k++;
  const header = /^\s*(\d+)x(\d+)(?:x(\d+))?$/i.exec(lines[k] || "");
  if (!header) return { error: "expected .mine text" };
  const width = Number(header[1]), height = Number(header[2]);
  if (width * height > maxCells) {
    return { error: `${width}x${height}: more than the ${maxCells} cells this page draws; use exactmines analyze` };
  }
  const grid = [];
  for (let r = 0; r < height; r++) {
    for (const ch of lines[k + 1 + r]) grid.push(ch === "?" ? "M" : ch);
  }
  return { width, height, mines: header[3] === undefined ? null : Number(header[3]), grid };
}
