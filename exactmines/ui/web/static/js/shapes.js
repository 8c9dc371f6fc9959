/* The toolbar's Shape menu, filled from the server's list of topologies (/api/health's
 * `topologies`, exactmines/topology.py's SHAPES): a topology the server adds with `page`
 * set appears here, and is drawn and played, with no change to the page. */
import { $, el } from "./dom.js";
import { setTopologies } from "./topology.js";

/** Wait for `health` (the pending /api/health answer), take its topologies and fill the
 * menu; returns whether it did (a server that does not answer leaves the square grid). */
export async function offerTopologies(health) {
  let list;
  try {
    list = (await health).topologies;
  } catch {
    return false;
  }
  if (!Array.isArray(list) || !list.length) return false;
  setTopologies(list);
  const select = $("topology");
  const chosen = select.value;
  select.textContent = "";
  for (const shape of list) select.append(el("option", { value: shape.word, title: shape.title }, shape.word));
  select.value = list.some((shape) => shape.word === chosen) ? chosen : "square";
  return true;
}
