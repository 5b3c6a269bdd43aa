// The inbox: the messages to answer, oldest first, kept current by the live stream. A message leaves it when it
// is answered (here, on another device, or offline: an answer waiting in the outbox hides it already). The list
// is kept in this browser so the inbox opens offline as last seen.

import { api, session, stream } from "../api.js";
import { formatTime, h, replace } from "../dom.js";
import { t } from "../texts.js";
import { onWaitingChange, waiting } from "../offline/outbox.js";

const keptKey = "muster.inbox";

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
  const items = new Map();
  let position = null;
  let live = null;
  try {
    const response = await api("GET", "/api/v1/inbox", { raw: true });
    position = response.headers.get("Muster-Log-Position");
    for (const item of await response.json()) items.set(item.messageId, item);
    session.keep(keptKey, [...items.values()]);
  } catch (error) {
    const kept = JSON.parse(localStorage.getItem(keptKey) ?? "null");
    if (!error.isNetwork || !kept) throw error;
    for (const item of kept) items.set(item.messageId, item);
  }
  let hidden = await answeredOffline();

  function draw() {
    const shown = [...items.values()].filter((item) => !hidden.has(item.messageId));
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

  if (position !== null) {
    live = stream("/api/v1/inbox", {
      lastEventId: position,
      onEvent: ({ event, data }) => {
        if (event === "message") items.set(data.messageId, data);
        else if (event === "answered") items.delete(data.messageId);
        else return;
        keep();
        draw();
      },
    });
  }
  const stopWatching = onWaitingChange(async () => {
    hidden = await answeredOffline();
    draw();
  });
  draw();
  replace(main, h("h1", {}, t("inbox")), list);
  return () => {
    live?.close();
    stopWatching();
  };
}
