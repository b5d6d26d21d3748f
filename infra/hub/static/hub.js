// The one client of the hub state API that every mock UI uses (DESIGN.md §3.3).
//
// Contract: the UI reads the session's state once on load (GET state?sid=S; a session never set
// has none, so then the defaults from GET go?sid=S) and writes the WHOLE state back with
// set_current after every user change (no merge, so deletions are real). Writes are queued so
// they land in the order the user made them; `idle()` resolves when all have landed (browser tests
// await it before reading /go). Each write names the version it was made on (If-Match): if
// anything else wrote the session meanwhile, the hub refuses it (412) and the UI reloads what the
// hub holds instead of overwriting it. Writes ask for the app's schema check (`strict`).
import { toast } from "./dom.js";

const SID_RE = /^[A-Za-z0-9_-]{1,128}$/;

/** The session id from ?sid=, or "default" (written back into the URL so reloads keep it). */
export function sessionId() {
  const params = new URLSearchParams(location.search);
  const sid = params.get("sid");
  if (sid && SID_RE.test(sid)) return sid;
  params.set("sid", "default");
  history.replaceState(null, "", `${location.pathname}?${params}${location.hash}`);
  return "default";
}

async function errorText(response) {
  try {
    const body = await response.json();
    return `${body.error}${body.hint ? ` (${body.hint})` : ""}`;
  } catch {
    return `HTTP ${response.status}`;
  }
}

export class StateClient {
  constructor() {
    this.sid = sessionId();
    this.state = null;
    this.version = 0; // the session's version this.state was read at (ETag of /state)
    this.queue = Promise.resolve();
    this.pending = 0;
    this.listeners = new Set();
    window.cuagymHub = this; // test and debugging handle: `await window.cuagymHub.idle()`
  }

  url(endpoint) {
    // Relative to the page (/<app>/), so the hub can sit behind a path prefix.
    return `${endpoint}?sid=${encodeURIComponent(this.sid)}`;
  }

  async load() {
    const response = await fetch(this.url("state"), { cache: "no-store" });
    if (!response.ok) throw new Error(await errorText(response));
    const version = Number.parseInt((response.headers.get("ETag") ?? '"0"').replaceAll('"', ""), 10);
    const { stored_state: stored } = await response.json();
    // A session never set has no stored state (null): it shows the app's defaults, which /go has.
    this.state = stored ?? (await this.defaults());
    this.version = version;
    this.setSync("saved");
    return this.state;
  }

  async defaults() {
    const response = await fetch(this.url("go"), { cache: "no-store" });
    if (!response.ok) throw new Error(await errorText(response));
    return (await response.json()).current_state;
  }

  /** Run `mutate(state)`, persist the result, and re-render. Returns what `mutate` returned. */
  commit(mutate) {
    const result = mutate(this.state);
    this.save();
    this.emit();
    return result;
  }

  save() {
    const body = JSON.stringify({ action: "set_current", state: this.state, strict: true });
    this.pending += 1;
    this.setSync("saving");
    this.queue = this.queue
      .then(async () => {
        const response = await fetch(this.url("post"), {
          method: "POST",
          headers: { "Content-Type": "application/json", "If-Match": `"${this.version}"` },
          body,
        });
        if (!response.ok) throw new Error(await errorText(response));
        this.version = (await response.json()).version;
      })
      .catch(async (err) => {
        // The server refused the change: show why and fall back to what it holds.
        toast(`Could not save: ${err.message}`, "error");
        await this.load();
        this.emit();
      })
      .finally(() => {
        this.pending -= 1;
        if (this.pending === 0) this.setSync("saved");
      });
  }

  idle() {
    return this.queue;
  }

  /** Upload files to this session; resolves to [{original_name, stored_name, size, content_type, url}]. */
  async upload(fileList) {
    const form = new FormData();
    for (const file of fileList) form.append("file", file, file.name);
    const response = await fetch(this.url("upload"), { method: "POST", body: form });
    if (!response.ok) throw new Error(await errorText(response));
    return (await response.json()).files;
  }

  subscribe(listener) {
    this.listeners.add(listener);
  }

  emit() {
    for (const listener of this.listeners) listener(this.state);
  }

  setSync(status) {
    document.documentElement.dataset.sync = status;
  }
}

/** Next id in a family of ids like "m0042": one more than the largest number in use. */
export function nextId(collection, prefix, width = 4) {
  let max = 0;
  for (const id of Object.keys(collection || {})) {
    if (!id.startsWith(prefix)) continue;
    const n = Number.parseInt(id.slice(prefix.length), 10);
    if (Number.isFinite(n) && n > max) max = n;
  }
  return `${prefix}${String(max + 1).padStart(width, "0")}`;
}

/** Show a fatal load error in place of the app (the hub is down, or the sid is refused). */
export function showFatal(root, err) {
  root.replaceChildren();
  const box = document.createElement("div");
  box.className = "fatal";
  box.textContent = `Could not load this workspace: ${err.message}`;
  root.append(box);
}
