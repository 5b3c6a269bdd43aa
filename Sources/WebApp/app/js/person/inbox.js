// The inbox: the messages to answer, oldest first, kept current by the live stream.

import { api, stream } from "../api.js";
import { formatTime, h, replace } from "../dom.js";
import { t } from "../texts.js";

export async function inboxView(main) {
  const list = h("ul.inbox", { "aria-label": t("inbox") });
  const items = new Map();
  const response = await api("GET", "/api/v1/inbox", { raw: true });
  const position = response.headers.get("Muster-Log-Position");
  for (const item of await response.json()) items.set(item.messageId, item);

  function draw() {
    if (items.size === 0) {
      replace(list, h("li.empty", {}, t("emptyInbox")));
      return;
    }
    replace(
      list,
      [...items.values()].reverse().map((item) =>
        h(
          "li.message",
          { dataset: { messageId: item.messageId } },
          h("a", { href: `#/messages/${item.messageId}` }, h("strong", {}, item.title), h("span", {}, item.body)),
          h("time", { datetime: item.sentAt }, formatTime(item.sentAt)),
        ),
      ),
    );
  }

  const live = stream("/api/v1/inbox", {
    lastEventId: position,
    onEvent: ({ event, data }) => {
      if (event === "message") items.set(data.messageId, data);
      else if (event === "answered") items.delete(data.messageId);
      draw();
    },
  });
  draw();
  replace(main, h("h1", {}, t("inbox")), list);
  return () => live.close();
}
