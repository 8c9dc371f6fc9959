/* The server's JSON API (/api/...): one function for every request the page makes. */

/** GET (no body) or POST (a JSON body) `path`; the parsed JSON answer, or an Error with the
 * server's one-line message, the HTTP `status` and `retryAfter` (its Retry-After header:
 * seconds to wait when busy). A request that never reached the server has no status. */
export async function api(path, body, signal) {
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
    error.retryAfter = response.headers.get("Retry-After");
    throw error;
  }
  return data;
}
