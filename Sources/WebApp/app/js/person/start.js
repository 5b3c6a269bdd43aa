// The Start tab (the seed's ArsRCSRequest): forms a person fills in and sends unasked. The list is kept in this
// browser, so a request can be started and answered offline; the answer then waits in the outbox.

import { api, device, session } from "../api.js";
import { h, replace } from "../dom.js";
import { t } from "../texts.js";
import { submitAnswer } from "../offline/outbox.js";
import { fetchDocument, uploadDocument } from "./documents.js";
import { registerDeviceNotice, unregisteredDevice } from "../push.js";

const keptKey = "muster.requests";

/// The request templates: from the server, else (offline) as last seen.
async function templates() {
  try {
    const list = await api("GET", "/api/v1/requests");
    session.keep(keptKey, list);
    return list;
  } catch (error) {
    if (!error.isNetwork) throw error;
    const kept = JSON.parse(localStorage.getItem(keptKey) ?? "null");
    if (!kept) throw error;
    return kept;
  }
}

export async function startView(main) {
  const list = await templates();
  const items = list.length === 0
    ? h("li.empty", {}, t("noRequests"))
    : list.map((request) =>
      h(
        "li.request",
        { dataset: { request: request.name } },
        h("a", { href: `#/start/${encodeURIComponent(request.name)}` }, h("strong", {}, request.title),
          h("span", {}, request.body)),
      )
    );
  replace(main, h("h1", {}, t("start")), h("ul.inbox.requests", { "aria-label": t("start") }, items));
}

export async function startFormView(main, [encodedName]) {
  const name = decodeURIComponent(encodedName);
  const request = (await templates()).find((r) => r.name === name);
  if (!request) {
    replace(main, h("a", { href: "#/start" }, t("back")), h("p.notice", {}, t("notFound", { what: name })));
    return;
  }
  const status = h("p.status", { role: "status" });
  const notice = h("div.notice-slot");
  const { renderForm } = await import("../form/form.js");
  async function send(answer) {
    status.className = "status";
    status.textContent = "";
    notice.replaceChildren();
    try {
      const outcome = await submitAnswer(`/api/v1/requests/${encodeURIComponent(name)}/response`, {
        ...device(), ...answer,
      }, request.title || name);
      status.className = "status ok";
      status.textContent = outcome.queued ? t("queuedAnswer") : t("sentAnswer");
      form.element.hidden = true;
      status.append(" ", h("a", { href: "#/start" }, t("startAnother")));
    } catch (error) {
      if (unregisteredDevice(error)) {
        replace(notice, registerDeviceNotice(() => send(answer)));
        return;
      }
      if (error.fields?.length) form.showErrors(error.fields);
      status.className = "status error";
      status.textContent = t("answerRefused", { message: error.message });
    }
  }
  const form = renderForm(request.payload, {
    onSubmit: ({ submitValue, values, location }) => send({
      submitValue: submitValue ?? 0,
      values: values ?? {},
      ...(location ? { location } : {}),
    }),
    preview: false,
    upload: uploadDocument,
    fetchDocument,
  });
  replace(main, h("a", { href: "#/start" }, t("back")), h("h1", {}, request.title),
    request.body ? h("p.subtitle", {}, request.body) : null, form.element, notice, status);
}
