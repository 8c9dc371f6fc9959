/* "Copy JSMinesweeper link": the board drawn here (every mine marked M or F) as a link to
 * JSMinesweeper's player, made by the server (/api/export, to "link"), shown beside the
 * button as soon as the server answers, then copied to the clipboard. The link never waits
 * for the clipboard: a browser may keep it closed (not a secure context, refused) or leave
 * the write unanswered (headless Chromium without focus), and the link is there to be opened
 * or copied by hand either way; the label says "copied" only once the write succeeded. */
import { api } from "./api.js";
import { $, clearError, showError } from "./dom.js";
import { mineText } from "./editor.js";

async function copyJsmLink() {
  const shown = $("jsm-link");
  shown.hidden = true;
  let link;
  try {
    link = (await api("/api/export", { text: mineText(), to: "link" })).data;
  } catch (error) {
    showError(error.message);
    return;
  }
  clearError();
  shown.href = link;
  shown.textContent = "open in JSMinesweeper";
  shown.hidden = false;
  try {
    await navigator.clipboard.writeText(link);
    if (shown.href === link) shown.textContent = "link copied: open in JSMinesweeper";
  } catch { /* no clipboard: the link shown is the answer */ }
}

$("copy-jsm-link").addEventListener("click", copyJsmLink);
