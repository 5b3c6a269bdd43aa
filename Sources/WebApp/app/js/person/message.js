// A message opened: its form (js/form/), answered with the button the person presses. The answer goes through
// the outbox (kept and sent later when offline); the server's field errors come back onto their fields, and a
// message answered already (409) says so.

import { api, device, session } from "../api.js";
import { formatTime, h, replace } from "../dom.js";
import { t } from "../texts.js";
import { submitAnswer } from "../offline/outbox.js";
import { renderForm } from "../form/form.js";
import { fetchDocument, uploadDocument } from "./documents.js";
import { registerDeviceNotice, unregisteredDevice } from "../push.js";

const keptKey = "muster.messages";
/// How many of the inbox's newest messages are kept to open offline.
const keepAtMost = 50;
let fetching = Promise.resolve();

const messagePath = (messageId) => `/api/v1/messages/${encodeURIComponent(messageId)}`;

function keptMessages() {
  try {
    return JSON.parse(localStorage.getItem(keptKey)) ?? {};
  } catch {
    return {};
  }
}

function keepMessage(message) {
  session.keep(keptKey, { ...keptMessages(), [message.messageId]: message });
}

/// Keeps the inbox's messages (`ids`, oldest first) in this browser so they open, and can be answered, offline:
/// the newest `keepAtMost`, fetched one at a time in the background; the others are forgotten.
export function keepMessages(ids) {
  const wanted = ids.slice(-keepAtMost);
  const kept = keptMessages();
  session.keep(keptKey, Object.fromEntries(wanted.filter((id) => kept[id]).map((id) => [id, kept[id]])));
  const missing = wanted.filter((id) => !kept[id]).reverse();
  if (missing.length === 0) return;
  fetching = fetching.then(async () => {
    for (const id of missing) {
      if (keptMessages()[id] || !session.get()) continue;
      try {
        keepMessage(await api("GET", messagePath(id)));
      } catch (error) {
        if (error.isNetwork || error.status === 401) return; // offline or logged out: the next list tries again
      }
    }
  });
}

export async function messageView(main, [messageId]) {
  const path = messagePath(messageId);
  let message;
  try {
    message = await api("GET", path);
    keepMessage(message);
  } catch (error) {
    if (!error.isNetwork) throw error;
    message = keptMessages()[messageId];
    if (!message) {
      replace(main, h("a.back", { href: "#/inbox" }, t("back")),
        h("p.notice", { role: "status" }, t("messageNotKept")));
      return;
    }
  }
  const back = h("a.back", { href: "#/inbox" }, t("back"));
  const heading = h("h1", { tabindex: "-1" }, message.title);
  const status = h("div.form-status", { role: "status" });

  function done(text, kind) {
    const box = h(`div.confirmation.${kind}`, { tabindex: "-1" }, h("p", {}, text),
      h("a.button", { href: "#/inbox" }, t("formBackToInbox")));
    replace(main, back, heading, box);
    box.focus();
  }

  async function send(answer) {
    status.textContent = t("formSending");
    try {
      const outcome = await submitAnswer(`${path}/response`, { ...device(), ...answer }, message.title);
      done(outcome.queued ? t("queuedAnswer") : t("sentAnswer"), outcome.queued ? "queued" : "sent");
    } catch (error) {
      status.textContent = "";
      if (error.status === 422 && error.fields?.length) {
        form.showErrors(error.fields);
      } else if (error.status === 409) {
        done(t("formAlreadyAnswered"), "answered");
      } else if (unregisteredDevice(error)) {
        form.showErrors([]);
        replace(status, registerDeviceNotice(() => send(answer)));
      } else {
        form.showErrors([{ field: "", message: t("failed", { message: error.message }) }]);
      }
    }
  }

  const form = renderForm(message.payload, {
    upload: uploadDocument,
    fetchDocument,
    onSubmit: ({ submitValue, values, location }) => send({ submitValue, values, ...(location ? { location } : {}) }),
  });
  replace(
    main,
    back,
    heading,
    h("p.message-meta", {}, h("span", {}, message.sender ?? ""), " ",
      h("time", { datetime: message.sentAt }, formatTime(message.sentAt))),
    message.body ? h("p.message-body", {}, message.body) : null,
    form.element,
    status,
  );
}
