/* Small DOM helpers shared by the modules. */

export const $ = (id) => document.getElementById(id);

/** A new element with attributes and children (strings become text, null is skipped). */
export function el(tag, props, ...children) {
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

/** A <dl> of [term, value] pairs. */
export function entries(pairs) {
  const dl = el("dl");
  for (const [term, value] of pairs) dl.append(el("dt", null, term), el("dd", null, value));
  return dl;
}

export function showError(message) {
  const box = $("error");
  box.textContent = message;
  box.hidden = false;
}

export function clearError() { $("error").hidden = true; $("error").textContent = ""; }

/** A file chosen by the person, as base64 (what the API takes for binary files). */
export async function readBase64(file) {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = "";
  for (let k = 0; k < bytes.length; k += 0x8000) binary += String.fromCharCode(...bytes.subarray(k, k + 0x8000));
  return btoa(binary);
}

/** A number that may be long: its short form (shown), the exact value in `data-exact`,
 * shown on hover, focus or click (bigNumbers wires that), and a button that copies it.
 * A short number is shown as it is. */
export function bigNumber(exact, short, props = {}) {
  if (short === exact) return el("span", { class: "exact num", ...props }, exact);
  return el("span", { class: "big", ...props },
    el("span", { class: "short num", tabindex: "0", role: "button", "data-exact": exact,
      "aria-label": `${short}; exact value: ${exact}` }, short),
    el("button", { type: "button", class: "copy", "data-exact": exact, title: "Copy the exact value",
      "aria-label": "Copy the exact value" }, "copy"));
}

/** Show the exact value of a short number (`.short[data-exact]`) in a box beside it when
 * the pointer is on it or it has the focus (a click keeps it open), and copy it with its
 * button. Once for the page, on `root`. */
export function bigNumbers(root) {
  const pop = $("exact-pop");
  let pinned = null;
  const show = (target) => {
    pop.textContent = target.dataset.exact;
    pop.hidden = false;
    const box = target.getBoundingClientRect();
    const width = Math.min(pop.scrollWidth + 2, window.innerWidth - 8);
    pop.style.left = `${Math.max(4, Math.min(box.left, window.innerWidth - width - 4))}px`;
    pop.style.top = `${box.bottom + 4}px`;
  };
  const hide = () => { if (!pinned) pop.hidden = true; };
  root.addEventListener("mouseover", (event) => {
    const target = event.target.closest && event.target.closest(".short[data-exact]");
    if (target && !pinned) show(target);
  });
  root.addEventListener("mouseout", (event) => {
    if (event.target.closest && event.target.closest(".short[data-exact]")) hide();
  });
  root.addEventListener("focusin", (event) => {
    if (event.target.matches(".short[data-exact]")) show(event.target);
  });
  root.addEventListener("focusout", (event) => {
    if (event.target.matches(".short[data-exact]")) { pinned = null; hide(); }
  });
  root.addEventListener("click", async (event) => {
    const target = event.target.closest && event.target.closest("[data-exact]");
    if (!target) { if (pinned && !event.target.closest("#exact-pop")) { pinned = null; hide(); } return; }
    if (target.classList.contains("copy")) {
      await copyText(target.dataset.exact);
      target.textContent = "✓";
      setTimeout(() => { target.textContent = "copy"; }, 1200);
      return;
    }
    pinned = pinned === target ? null : target;
    if (pinned) show(target); else hide();
  });
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape") { pinned = null; hide(); }
  });
}

/** Put text on the clipboard (the Clipboard API, or a selected text area where the page
 * is not allowed it). */
async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
  } catch (e) {
    const area = el("textarea", { class: "offscreen", readonly: "" }, text);
    document.body.append(area);
    area.select();
    document.execCommand("copy");
    area.remove();
  }
}
