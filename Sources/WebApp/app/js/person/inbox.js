// The inbox: the messages to answer, oldest first, kept current by the live stream. A message leaves it when it
// is answered (here, on another device, or offline: an answer waiting in the outbox hides it already) or withdrawn
// by its sender, and its notification leaves the screen with it. The list,
// and its newest messages (message.js), are kept in this browser, so offline the inbox opens as last seen, saying
// so, and its messages open and can be answered; the list is asked for again until the server answers (the
// connection returns, an answer kept offline goes out, or on a timer), and the live stream starts from there.

import { api, session, stream } from "../api.js";
import { formatTime, h, replace } from "../dom.js";
import { t } from "../texts.js";
import { onWaitingChange, waiting } from "../offline/outbox.js";
import { keepMessages } from "./message.js";
import { closeSettledNotifications } from "../push.js";

const keptKey = "muster.inbox";
const firstRetry = 2000;
const lastRetry = 60000;

/// The ids of messages whose answer waits in the outbox.
async function answeredOffline() {
  try {
    const ids = (await waiting()).map((entry) => entry.path.match(/^\/api\/v1\/messages\/([^/]+)\/response$/)?.[1]);
    return new Set(ids.filter(Boolean));
  } catch {
    return new Set();
  }
}

export async function inboxView(main) {
  const list = h("ul.inbox", { "aria-label": t("inbox") });
  const stale = h("p#inbox-stale.notice", { role: "status", hidden: true }, t("inboxAsLastSeen"));
  const items = new Map();
  let live = null;
  let loading = null;
  let retry = null;
  let retryIn = firstRetry;
  let left = false;
  /// Messages whose answer kept offline has gone out since the list was last asked for: answered, as far as we know.
  const sent = new Set();

  function draw() {
    const shown = [...items.values()].filter((item) => !hidden.has(item.messageId) && !sent.has(item.messageId));
    if (shown.length === 0) {
      replace(list, h("li.empty", {}, t("emptyInbox")));
      return;
    }
    replace(
      list,
      shown.reverse().map((item) =>
        h(
          "li.message",
          { dataset: { messageId: item.messageId } },
          h("a", { href: `#/messages/${item.messageId}` }, h("strong", {}, item.title), h("span", {}, item.body)),
          h("time", { datetime: item.sentAt }, formatTime(item.sentAt)),
        ),
      ),
    );
  }

  function keep() {
    session.keep(keptKey, [...items.values()]);
  }

  /// The notifications of messages that left the inbox go from the screen too (a browser without them: nothing).
  function settle() {
    closeSettledNotifications(items.keys()).catch(() => {});
  }

  /// The list from the server, then the live stream from its position. Throws what kept it from the server.
  async function load() {
    const response = await api("GET", "/api/v1/inbox", { raw: true });
    const position = response.headers.get("Muster-Log-Position");
    const fresh = await response.json();
    if (left) return;
    items.clear();
    sent.clear();
    for (const item of fresh) items.set(item.messageId, item);
    keep();
    keepMessages([...items.keys()]);
    settle();
    stale.hidden = true;
    retryIn = firstRetry;
    live?.close();
    live = stream("/api/v1/inbox", {
      lastEventId: position,
      onEvent: ({ event, data }) => {
        if (event === "message") items.set(data.messageId, data);
        else if (event === "answered" || event === "withdrawn") {
          items.delete(data.messageId);
          settle();
        } else return;
        keep();
        keepMessages([...items.keys()]);
        draw();
      },
    });
    draw();
  }

  /// Drawn from the kept list: asks the server again, now and then after a wait growing up to a minute.
  function reload() {
    if (live || loading || left) return;
    clearTimeout(retry);
    retry = null;
    loading = load()
      .catch((error) => {
        if (!error.isNetwork || left) return; // a session that ended shows the login
        retry = setTimeout(reload, retryIn);
        retryIn = Math.min(retryIn * 2, lastRetry);
      })
      .finally(() => {
        loading = null;
      });
  }

  let hidden = await answeredOffline();
  try {
    await load();
  } catch (error) {
    const kept = JSON.parse(localStorage.getItem(keptKey) ?? "null");
    if (!error.isNetwork || !kept) throw error;
    for (const item of kept) items.set(item.messageId, item);
    stale.hidden = false;
    retry = setTimeout(reload, retryIn);
  }

  window.addEventListener("online", reload);
  const stopWatching = onWaitingChange(async (count, unreachable) => {
    const before = hidden;
    hidden = await answeredOffline();
    // An answer kept offline went out: its message stays hidden, and the list is asked for again (a refused
    // answer's message comes back then).
    const gone = [...before].filter((id) => !hidden.has(id));
    if (gone.length > 0) {
      for (const id of gone) sent.add(id);
      live?.close();
      live = null;
    }
    if (!unreachable) reload();
    draw();
  });
  draw();
  replace(main, h("h1", {}, t("inbox")), stale, list);
  return () => {
    left = true;
    clearTimeout(retry);
    live?.close();
    window.removeEventListener("online", reload);
    stopWatching();
  };
}
