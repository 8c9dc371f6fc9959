/* The colour scale of `analyze --image`: matplotlib's YlOrRd (9 ColorBrewer stops, a
 * 256-entry table, linear between stops), so a cell here and in the picture match. Pure. */

export const YLORRD = [[255, 255, 204], [255, 237, 160], [254, 217, 118], [254, 178, 76],
  [253, 141, 60], [252, 78, 42], [227, 26, 28], [189, 0, 38], [128, 0, 38]];

/** [r, g, b] (0-255, not rounded) of a mine probability p in [0, 1]. */
export function colourOf(p) {
  const index = Math.min(Math.max(Math.floor(p * 256), 0), 255);
  const x = (index / 255) * (YLORRD.length - 1);
  const k = Math.min(Math.floor(x), YLORRD.length - 2);
  const f = x - k;
  return [0, 1, 2].map((j) => (YLORRD[k][j] * (1 - f) + YLORRD[k + 1][j] * f));
}

/** Perceived brightness in [0, 1]: text is white on colours below 0.5. */
export const luminance = (rgb) => (0.299 * rgb[0] + 0.587 * rgb[1] + 0.114 * rgb[2]) / 255;
