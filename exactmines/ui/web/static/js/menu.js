// The controls' menu of a narrow screen: opened and closed by its button, and closed by
// what puts a new board in front of the player (a board loaded, a new game, a new board, a
// replay opened, another size or shape chosen, Analyse or Play), so that the board is not
// left behind the menu, out of reach of a tap.
import { $ } from "./dom.js";

export function setMenu(open) {
  document.body.classList.toggle("menu-open", open);
  $("menu").setAttribute("aria-expanded", String(open));
}

export function closeMenu() { setMenu(false); }

$("menu").addEventListener("click", () => setMenu(!document.body.classList.contains("menu-open")));
$("controls").addEventListener("click", (event) => {
  if (event.target.closest && event.target.closest("#new-game, #new-board, #play-board")) closeMenu();
});
// Another board or shape chosen in the menu deals a new game or draws a new board too.
for (const id of ["upload", "replay-file", "preset", "topology"]) $(id).addEventListener("change", closeMenu);
// So does going to Analyse or Play (Replay keeps it open: its file is opened from there).
for (const id of ["mode-edit", "mode-play"]) $(id).addEventListener("click", closeMenu);
$("paste-dialog").addEventListener("close", () => {
  if ($("paste-dialog").returnValue === "load") closeMenu();
});
