// The Muster HTTP API (/api/v1) as the app uses it: the session (tokens kept in this browser), requests that
// refresh an expired access token once, errors with the server's code and field errors, and live streams.

const sessionKey = "muster.session";
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
  clear() {
    localStorage.removeItem(sessionKey);
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

let refreshing = null;

async function refresh() {
  const current = session.get();
  if (!current?.refreshToken) throw new APIError(401, { code: "unauthenticated", message: "not logged in" });
  refreshing ??= (current.singleSignOn ? refreshAtIssuer(current) : refreshHere(current)).finally(() => {
    refreshing = null;
  });
  return refreshing;
}

function refreshHere(current) {
  return send("POST", "/api/v1/auth/refresh", { json: { refreshToken: current.refreshToken }, auth: false })
    .then((tokens) => session.set({ ...current, ...tokens }));
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
  session.set({ ...session.get(), isAdmin: current.isAdmin, username: current.username });
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

/// One API request; an expired access token is refreshed once and the request sent again.
export async function api(method, path, options = {}) {
  try {
    return await send(method, path, options);
  } catch (error) {
    if (error.status !== 401 || error.code !== "token_expired" || options.auth === false) throw error;
    try {
      await refresh();
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
