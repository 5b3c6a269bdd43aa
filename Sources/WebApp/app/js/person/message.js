// A message opened: its form (js/form/), answered with the submit button pressed.

import { api, device } from "../api.js";
import { h, replace } from "../dom.js";
import { t } from "../texts.js";
import { submitAnswer } from "../offline/outbox.js";

export async function messageView(main, [messageId]) {
  const message = await api("GET", `/api/v1/messages/${encodeURIComponent(messageId)}`);
  const status = h("p.status", { role: "status" });
  const pre = h("pre", {}, JSON.stringify(message.payload, null, 2));
  const submit = h("button", {
    type: "button",
    onclick: async () => {
      const outcome = await submitAnswer(`/api/v1/messages/${messageId}/response`, { ...device(), values: {} });
      status.textContent = outcome.queued ? t("queuedAnswer") : t("sentAnswer");
    },
  }, t("send"));
  replace(main, h("a", { href: "#/inbox" }, t("back")), h("h1", {}, message.title), h("p", {}, message.body), pre, submit,
    status);
}
