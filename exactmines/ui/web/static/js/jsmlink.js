/* "Copy JSMinesweeper link": the board drawn here (every mine marked M or F) as a link to
 * JSMinesweeper's player, made by the server (/api/export, to "link"), copied to the
 * clipboard and shown beside the button, so that it can be opened or copied by hand where
 * the browser keeps the clipboard closed. */
import { api } from "./api.js";
import { $, clearError, showError } from "./dom.js";
import { mineText } from "./editor.js";

async function copyJsmLink() {
  const shown = $("jsm-link");
  shown.hidden = true;
  try {
    const answer = await api("/api/export", { text: mineText(), to: "link" });
    clearError();
    let copied = false;
    try {
      await navigator.clipboard.writeText(answer.data);
      copied = true;
    } catch { /* no clipboard (not a secure context, or refused): the link is shown */ }
    shown.href = answer.data;
    shown.textContent = copied ? "link copied: open in JSMinesweeper" : "open in JSMinesweeper";
    shown.hidden = false;
  } catch (error) { showError(error.message); }
}

$("copy-jsm-link").addEventListener("click", copyJsmLink);
