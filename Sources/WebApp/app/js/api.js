// The Muster HTTP API (/api/v1) as the app uses it: the session (tokens kept in this browser), requests that
// refresh an expired access token once, errors with the server's code and field errors, and live streams.

import { forgetReplacement, recordReplacement, replacementOf } from "./handoff.js";

/// Where the session (the tokens, who they belong to) is kept; the app watches it for other tabs' changes.
export const sessionKey = "muster.session";
const deviceKey = "muster.device";

/// A failed request: the HTTP status, the server's error code, its message and its field errors.
export class APIError extends Error {
  constructor(status, error = {}) {
    super(error.message ?? `HTTP ${status}`);
    this.status = status;
    this.code = error.code ?? "unknown";
    this.fields = error.fields ?? [];
  }

  /// Whether the request never reached the server (offline, refused): worth trying again later.
  get isNetwork() {
    return this.status === 0;
  }
}

export const session = {
  get() {
    try {
      return JSON.parse(localStorage.getItem(sessionKey));
    } catch {
      return null;
    }
  },
  set(value) {
    localStorage.setItem(sessionKey, JSON.stringify(value));
  },
  /// Keeps `value` of the person under `key` (a `muster.` key) while they are logged in; clear() removes it.
  keep(key, value) {
    if (localStorage.getItem(sessionKey) === null) return;
    try {
      localStorage.setItem(key, JSON.stringify(value));
    } catch {
      // The browser's storage is full: this is not kept, and the app works on without it.
    }
  },
  /// Ends the session in this browser: the tokens and everything kept of the person (their inbox, request
  /// templates…: every `muster.` key but the device id), so nothing of theirs stays on a shared computer. Answers
  /// waiting in the outbox stay, for their next session (offline/outbox.js).
  clear() {
    for (const key of Object.keys(localStorage)) {
      if (key.startsWith("muster.") && key !== deviceKey) localStorage.removeItem(key);
    }
    forgetReplacement();
  },
};

/// This browser as a device of the user: an id kept across sessions, and a name people recognise.
export function device() {
  let id = localStorage.getItem(deviceKey);
  if (!id) {
    id = `web-${crypto.randomUUID()}`;
    localStorage.setItem(deviceKey, id);
  }
  const brand = navigator.userAgentData?.brands?.find((b) => !/Not.A.Brand|Chromium/i.test(b.brand))?.brand;
  return { deviceId: id, deviceName: `Web browser${brand ? ` (${brand})` : ""}` };
}

/// Listeners told when the session ends (a refresh refused): the app shows the login again.
const endedListeners = new Set();
export function onSessionEnded(listener) {
  endedListeners.add(listener);
}

let renewing = null;

/// Gets past `stale`, the access token the server refused with `error` (401). Every tab of this browser shares the
/// tokens (localStorage), and a refresh token presented twice ends its whole session (Docs/HTTP.md), so this holds
/// a lock across the tabs (Web Locks) and, once it has it, looks at what other tabs did meanwhile: a refresh
/// another tab made (handoff.js) serves this tab too. Else an expired token is refreshed here; any other refusal
/// means the session has ended, and is thrown. Within a tab, the requests waiting on one renewal share it.
function renew(stale, error) {
  renewing ??= acrossTabs(async () => {
    const current = session.get();
    if (!current) throw error; // logged out, here or in another tab
    const handed = current.refreshToken ? await replacementOf(current.refreshToken) : null;
    if (handed) {
      session.set({ ...current, ...handed });
      return;
    }
    if (current.accessToken !== stale) return; // this tab has newer tokens already
    if (error.code !== "token_expired" || !current.refreshToken) throw error;
    const renewed = await (current.singleSignOn ? refreshAtIssuer(current) : refreshHere(current));
    await recordReplacement(current.refreshToken, renewed);
  }).finally(() => {
    renewing = null;
  });
  return renewing;
}

/// Runs `work` holding the browser-wide refresh lock; without Web Locks (an insecure context), as it is.
function acrossTabs(work) {
  return navigator.locks ? navigator.locks.request("muster.refresh", work) : work();
}

/// Our own refresh: the new tokens, kept; resolves with the session they make.
async function refreshHere(current) {
  const tokens = await send("POST", "/api/v1/auth/refresh", {
    json: { refreshToken: current.refreshToken }, auth: false,
  });
  const renewed = { ...current, ...tokens };
  session.set(renewed);
  return renewed;
}

/// Signed in at an OpenID Connect issuer: the issuer refreshes; its refusal ends the session like ours does.
async function refreshAtIssuer(current) {
  const [{ refreshSignIn }, { serverConfiguration }] = await Promise.all([
    import("./person/signin.js"), import("./config.js"),
  ]);
  const { singleSignOn } = await serverConfiguration();
  try {
    await refreshSignIn(singleSignOn, current.refreshToken);
  } catch (error) {
    throw new APIError(401, { code: "unauthenticated", message: error.message });
  }
  const renewed = { ...session.get(), isAdmin: current.isAdmin, username: current.username };
  session.set(renewed);
  return renewed;
}

async function send(method, path, { json, body, headers = {}, auth = true, signal, raw = false } = {}) {
  const init = { method, headers: { ...headers }, signal };
  if (json !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(json);
  } else if (body !== undefined) {
    init.body = body;
  }
  const token = session.get()?.accessToken;
  if (auth && token) init.headers.Authorization = `Bearer ${token}`;
  let response;
  try {
    response = await fetch(path, init);
  } catch (error) {
    if (error.name === "AbortError") throw error;
    throw new APIError(0, { code: "network", message: error.message });
  }
  if (!response.ok) {
    let error = {};
    try {
      error = (await response.json()).error ?? {};
    } catch {
      // Not the API's error body (a proxy's page, say): the status says enough.
    }
    throw new APIError(response.status, error);
  }
  if (raw) return response;
  if (response.status === 204) return null;
  const type = response.headers.get("Content-Type") ?? "";
  return type.includes("json") ? response.json() : response.text();
}

/// One API request. A refused access token is renewed (renew()) and the request sent again once; a session that
/// cannot be renewed has ended: it is forgotten and the listeners told.
export async function api(method, path, options = {}) {
  if (options.auth === false) return send(method, path, options);
  const used = session.get()?.accessToken;
  try {
    return await send(method, path, options);
  } catch (error) {
    if (error.status !== 401 || !used) throw error;
    try {
      await renew(used, error);
    } catch (refreshError) {
      if (refreshError.status === 401) {
        session.clear();
        for (const listener of endedListeners) listener();
      }
      throw refreshError;
    }
    return send(method, path, options);
  }
}

/// Logs in with a password and keeps the tokens; returns who logged in (`/auth/verify`).
export async function logIn(username, password, namespace) {
  const { deviceId } = device();
  const tokens = await send("POST", "/api/v1/auth/token", {
    json: { username, password, deviceId, ...(namespace ? { namespace } : {}) },
    auth: false,
  });
  session.set(tokens);
  return whoAmI();
}

/// Who the kept session belongs to, with `isAdmin`; null when there is no session.
export async function whoAmI() {
  if (!session.get()) return null;
  const me = await api("GET", "/api/v1/auth/verify");
  session.set({ ...session.get(), isAdmin: me.isAdmin === true, username: me.username });
  return me;
}

export async function logOut() {
  try {
    await api("POST", "/api/v1/auth/logout");
  } finally {
    session.clear();
  }
}

/// A live stream (Server-Sent Events) read with fetch, so the bearer token goes in a header. Reconnects after a
/// failure with `Last-Event-ID` set to the last event seen, so nothing recorded meanwhile is missed.
/// `onEvent({event, data, id})` gets each event with `data` parsed as JSON. Returns `{close()}`.
export function stream(path, { lastEventId, onEvent, onState = () => {} }) {
  const controller = new AbortController();
  let lastId = lastEventId;
  let wait = 500;

  async function run() {
    while (!controller.signal.aborted) {
      try {
        const headers = { Accept: "text/event-stream" };
        if (lastId !== undefined && lastId !== null) headers["Last-Event-ID"] = String(lastId);
        const response = await api("GET", path, { headers, signal: controller.signal, raw: true });
        onState("open");
        wait = 500;
        await read(response.body, (message) => {
          if (message.id !== undefined) lastId = message.id;
          onEvent(message);
        });
      } catch (error) {
        if (controller.signal.aborted) return;
        if (error.status === 401 || error.status === 403) {
          onState("closed", error);
          return;
        }
        if (error.status === 400) lastId = undefined; // a position this log does not know: start from now
      }
      onState("reconnecting");
      await new Promise((resolve) => setTimeout(resolve, wait));
      wait = Math.min(wait * 2, 15000);
    }
  }

  run();
  return { close: () => controller.abort() };
}

async function read(body, deliver) {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  let message = {};
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += value;
    let newline;
    while ((newline = buffer.indexOf("\n")) >= 0) {
      const line = buffer.slice(0, newline).replace(/\r$/, "");
      buffer = buffer.slice(newline + 1);
      if (line === "") {
        if (message.data !== undefined) {
          try {
            message.data = JSON.parse(message.data);
          } catch {
            // Not JSON: kept as text.
          }
          deliver(message);
        }
        message = {};
      } else if (!line.startsWith(":")) {
        const colon = line.indexOf(":");
        const field = colon < 0 ? line : line.slice(0, colon);
        const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
        if (field === "data") message.data = message.data === undefined ? value : `${message.data}\n${value}`;
        else if (field === "event") message.event = value;
        else if (field === "id") message.id = value;
      }
    }
  }
}
