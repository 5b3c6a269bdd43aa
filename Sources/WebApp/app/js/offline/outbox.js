// Sending answers, and keeping the ones given offline. An answer that cannot reach the server (no connection) is
// kept in IndexedDB and sent when the connection returns — on the `online` event, when the app starts and on a
// retry timer — in the order given, one at a time. Each answer carries a `responseId`: the server records an id
// once and answers a resend of it with the response it recorded, so an answer whose reply was lost is never
// recorded twice. A kept answer the server refuses when it finally arrives (answered meanwhile on another device, the
// form withdrawn) is not sent again; the person is told which one and why, until they dismiss it.

import { api } from "../api.js";
import { objectStore } from "./database.js";

const firstRetry = 2000;
const lastRetry = 60000;

const listeners = new Set();
const refusalListeners = new Set();
/// Where the refused kept answers wait to be seen: `[{user, label, message, at}]`, across reloads.
const refusedKey = "muster.refusedAnswers";
let flushing = null;
let timer = null;
let retryIn = firstRetry;
/// Whether the last request for an answer never reached the server (the browser may still say it is online).
let unreachable = false;

const { transact } = objectStore("muster-outbox", "answers", { keyPath: "seq", autoIncrement: true });

/// The answers waiting to be sent, oldest first: `{seq, path, body, user, keptAt}`.
export async function waiting() {
  const user = currentUser();
  const all = (await transact("readonly", (store) => store.getAll())) ?? [];
  return all.filter((entry) => entry.user === user);
}

/// Tells `listener(count, unreachable)` how many answers wait and whether the server could not be reached, now
/// and whenever that changes. Returns a function that stops it.
export function onWaitingChange(listener) {
  listeners.add(listener);
  notify();
  return () => listeners.delete(listener);
}

async function notify() {
  if (listeners.size === 0) return;
  let count = 0;
  try {
    count = (await waiting()).length;
  } catch {
    // No IndexedDB (a private window may refuse it): nothing waits.
  }
  for (const listener of listeners) listener(count, unreachable);
}

function currentUser() {
  try {
    return JSON.parse(localStorage.getItem("muster.session"))?.username ?? null;
  } catch {
    return null;
  }
}

/// The kept answers the server refused, this person's, oldest first: `{label, message, at}`.
export function refusedAnswers() {
  const user = currentUser();
  return readRefused().filter((refusal) => refusal.user === user);
}

/// Tells `listener(refusals)` the refused kept answers (as `refusedAnswers()`), now and whenever they change.
/// Returns a function that stops it.
export function onRefusedChange(listener) {
  refusalListeners.add(listener);
  listener(refusedAnswers());
  return () => refusalListeners.delete(listener);
}

/// The person has read them: forgets this person's refused answers.
export function dismissRefused() {
  const user = currentUser();
  writeRefused(readRefused().filter((refusal) => refusal.user !== user));
}

function readRefused() {
  try {
    return JSON.parse(localStorage.getItem(refusedKey)) ?? [];
  } catch {
    return [];
  }
}

function writeRefused(refusals) {
  try {
    localStorage.setItem(refusedKey, JSON.stringify(refusals));
  } catch {
    // Storage refused (full, or a private window): the refusal is still shown until the page closes.
  }
  const mine = refusals.filter((refusal) => refusal.user === currentUser());
  for (const listener of refusalListeners) listener(mine);
}

/// Sends an answer: `path` is the response route (`/api/v1/messages/{id}/response` or
/// `/api/v1/requests/{name}/response`), `body` its JSON, `label` what the person knows it by (the message's title,
/// the request's), named if the server refuses it after it was kept. Resolves `{sent: true, answer}` with the
/// server's response object, or `{queued: true}` when it is kept to send later: offline, or when the session ended
/// on the way (the answer goes once the person logs in again). A refusal (422 with field errors, 409…) is thrown as
/// the APIError.
export async function submitAnswer(path, body, label = "") {
  const answer = { ...body, responseId: body.responseId ?? crypto.randomUUID() };
  const user = currentUser();
  // Answers kept earlier go first: the order given is the order recorded.
  if ((await waitingSafely()).length > 0) await flush();
  // A browser that knows it is offline is not asked to try: the answer is kept at once.
  if (navigator.onLine && (await waitingSafely()).length === 0) {
    try {
      const sent = await api("POST", path, { json: answer });
      reached();
      return { sent: true, answer: sent };
    } catch (error) {
      if (error.status === 401 && user) {
        await transact("readwrite", (store) => store.add({ path, body: answer, label, user, keptAt: Date.now() }));
        return { queued: true };
      }
      if (!error.isNetwork) throw error;
      unreachable = true;
    }
  }
  await transact("readwrite", (store) => store.add({ path, body: answer, label, user, keptAt: Date.now() }));
  notify();
  schedule();
  return { queued: true };
}

async function waitingSafely() {
  try {
    return await waiting();
  } catch {
    return [];
  }
}

/// Sends the kept answers, oldest first, until one cannot reach the server. An answer the server refuses (answered
/// meanwhile on another device, the message withdrawn, the form changed) is not kept: sending it again would be
/// refused again; it joins the refused answers the person is shown. Concurrent calls share one run, so each answer
/// goes out once at a time.
export function flush() {
  flushing ??= run().finally(() => {
    flushing = null;
  });
  return flushing;
}

async function run() {
  let sentAny = false;
  if (!navigator.onLine) return; // the `online` event sends them
  try {
    for (const entry of await waiting()) {
      try {
        await api("POST", entry.path, { json: entry.body });
        reached();
      } catch (error) {
        if (error.isNetwork || error.status >= 500 || error.status === 429) {
          if (error.isNetwork && !unreachable) {
            unreachable = true;
            notify();
          }
          schedule();
          return;
        }
        if (error.status === 401) return; // logged out: kept for the next session of this user
        reached();
        writeRefused([
          ...readRefused(),
          { user: entry.user, label: entry.label || entry.path, message: error.message, at: Date.now() },
        ]);
      }
      await transact("readwrite", (store) => store.delete(entry.seq));
      sentAny = true;
      notify();
    }
  } catch (error) {
    console.warn(`the kept answers could not be read: ${error.message}`);
  } finally {
    if (sentAny) notify();
  }
}

/// The server answered: retries start quick again.
function reached() {
  retryIn = firstRetry;
  if (unreachable) {
    unreachable = false;
    notify();
  }
}

/// Tries again later, waiting twice as long each time up to a minute.
function schedule() {
  if (timer !== null) return;
  timer = setTimeout(() => {
    timer = null;
    flush();
  }, retryIn);
  retryIn = Math.min(retryIn * 2, lastRetry);
}

/// Starts sending kept answers: now, whenever the browser goes online, and on the retry timer.
export function startOutbox() {
  window.addEventListener("online", () => {
    retryIn = firstRetry;
    flush();
  });
  flush();
}
