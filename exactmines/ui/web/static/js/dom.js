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
