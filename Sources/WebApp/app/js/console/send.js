// Compose and send: the payload as JSON with buttons adding a field of each type, a live preview drawn by the
// person's own form code (js/form/form.js), recipients, and the answers to the sent message arriving live.

import { api, stream } from "../api.js";
import { formatTime, h, replace } from "../dom.js";
import { t } from "../texts.js";
import { consolePage, errorBox, labelled } from "./common.js";
import { fieldTypes, newField } from "./fields.js";

/// A response topic of its own for each message composed here, so its answers are told apart.
function freshTopic() {
  return `/console/${new Date().toISOString().slice(0, 10)}/${crypto.randomUUID().slice(0, 8)}`;
}

/// The topic's stream route: each segment encoded (`#` as `%23`).
function topicPath(topic) {
  return `/api/v1/topics/${topic.split("/").filter(Boolean).map(encodeURIComponent).join("/")}`;
}

/// The person's form renderer, loaded when first needed; null when it is not there (the outline is shown).
let formModule;
async function loadForm() {
  if (formModule === undefined) {
    formModule = await import("../form/form.js").catch(() => null);
  }
  return formModule;
}

export async function sendView(main) {
  const page = consolePage(main, location.hash || "#/console/send", t("consoleSend"));
  const closers = new Set();

  // Recipients.
  const [users, groups] = await Promise.all([
    api("GET", "/api/v1/users").catch(() => []),
    api("GET", "/api/v1/groups").catch(() => []),
  ]);
  const userList = h("datalist#console-users", {}, users.map((u) => h("option", { value: u.username })));
  const groupList = h("datalist#console-groups", {}, groups.map((g) => h("option", { value: g.name })));
  const to = h("input#send-to", { type: "text", list: "console-users", autocomplete: "off" });
  const toGroups = h("input#send-groups", { type: "text", list: "console-groups", autocomplete: "off" });
  const everyone = h("input#send-all", { type: "checkbox" });
  everyone.addEventListener("change", () => {
    to.disabled = everyone.checked;
    toGroups.disabled = everyone.checked;
  });
  const title = h("input#send-title", { type: "text", required: true });
  const body = h("input#send-body", { type: "text" });

  // The payload.
  const payloadText = h("textarea#payload", { rows: 18, spellcheck: false, "aria-describedby": "payload-status" });
  payloadText.value = JSON.stringify({ responseTopic: freshTopic(), fields: [] }, null, 2);
  const payloadStatus = h("p#payload-status.notice", { role: "status" });
  const addButtons = h(
    "div.field-buttons",
    { role: "group", "aria-label": t("consoleAddField") },
    fieldTypes.map((type) =>
      h("button.secondary", { type: "button", dataset: { fieldType: type }, onclick: () => addField(type) }, `+ ${type}`),
    ),
  );
  const preview = h("div#preview.preview", { "aria-live": "polite", "aria-label": t("consolePreview") });

  function parsed() {
    try {
      const value = JSON.parse(payloadText.value);
      if (!value || typeof value !== "object" || Array.isArray(value)) throw new Error(t("consolePayloadObject"));
      payloadStatus.className = "notice";
      payloadStatus.textContent = t("consolePayloadFields", { count: Array.isArray(value.fields) ? value.fields.length : 0 });
      return value;
    } catch (error) {
      payloadStatus.className = "error";
      payloadStatus.textContent = t("consolePayloadInvalid", { message: error.message });
      return null;
    }
  }

  function addField(type) {
    const payload = parsed();
    if (!payload) return;
    payload.fields = [...(Array.isArray(payload.fields) ? payload.fields : []), newField(type, payload)];
    payloadText.value = JSON.stringify(payload, null, 2);
    update();
  }

  let previewRun = 0;
  async function update() {
    const payload = parsed();
    if (!payload) return;
    const run = ++previewRun;
    const form = await loadForm();
    if (run !== previewRun) return;
    if (form?.renderForm) {
      try {
        const rendered = form.renderForm(payload, {
          preview: true,
          onSubmit: () => {},
          fetchDocument: (name) => api("GET", `/api/v1/documents/${name}`, { raw: true }).then((r) => r.blob()),
        });
        replace(preview, rendered.element);
      } catch (error) {
        replace(preview, h("p.error", {}, t("consolePreviewFailed", { message: error.message })));
      }
    } else {
      replace(preview, outline(payload));
    }
  }
  let timer;
  payloadText.addEventListener("input", () => {
    clearTimeout(timer);
    timer = setTimeout(update, 250);
  });

  // Sending and saving.
  const outcome = h("div#send-outcome", { "aria-live": "polite" });
  const responses = h("ol#responses.responses");
  const responsesState = h("p#responses-state.notice", { role: "status" }, t("consoleNoMessageYet"));
  const sendButton = h("button#send-form", { type: "button", onclick: send }, t("consoleSendButton"));
  const payloadName = h("input#payload-name", { type: "text", autocomplete: "off" });
  const saveButton = h("button#save-payload.secondary", { type: "button", onclick: save }, t("consoleSavePayload"));
  const loadButton = h("button#load-payload.secondary", { type: "button", onclick: load }, t("consoleLoadPayload"));
  const removeButton = h("button#remove-payload.secondary", { type: "button", onclick: removePayload }, t("consoleRemovePayload"));

  const list = (input) => input.value.split(",").map((s) => s.trim()).filter(Boolean);

  async function send() {
    const payload = parsed();
    if (!payload) {
      payloadText.focus();
      return;
    }
    const request = { title: title.value, body: body.value, payload };
    if (everyone.checked) request.all = true;
    else {
      if (list(to).length) request.to = list(to);
      if (list(toGroups).length) request.groups = list(toGroups);
    }
    sendButton.disabled = true;
    replace(outcome, h("p.notice", {}, t("loading")));
    try {
      // The log's head before the send: the stream starts there, so no answer can slip in before it opens.
      const { head } = await api("GET", "/healthz");
      const sent = await api("POST", "/api/v1/notifications", { json: request });
      replace(
        outcome,
        h("p.ok", { dataset: { messageIds: sent.messageIds.join(" ") } },
          t("consoleSent", { count: sent.recipients.length, recipients: sent.recipients.join(", ") })),
        h("button#withdraw-sent.secondary", { type: "button", onclick: () => askWithdrawal(sent) }, t("consoleWithdraw")),
        " ",
        h("a#send-standing", { href: `#/console/sends?send=${encodeURIComponent(sent.sendId)}` }, t("consoleWhoAnswered")),
      );
      watch(payload.responseTopic, head);
      // The next message gets a topic of its own.
      payload.responseTopic = freshTopic();
      payloadText.value = JSON.stringify(payload, null, 2);
    } catch (error) {
      replace(outcome, errorBox(error));
    } finally {
      sendButton.disabled = false;
    }
  }

  /// Sent to the wrong people: asks, then withdraws the send's messages not answered yet, in one request (the
  /// answers given stay, and are counted).
  function askWithdrawal(sent) {
    const withdraw = async () => {
      const path = `/api/v1/sends/${encodeURIComponent(sent.sendId)}`;
      try {
        const { withdrawn } = await api("POST", `${path}/withdraw`);
        const { answered } = await api("GET", `${path}?limit=1`);
        replace(outcome, h("p#withdrawn.ok", { role: "status" }, t("consoleWithdrawn", { withdrawn, answered })));
      } catch (error) {
        replace(outcome, errorBox(error));
      }
    };
    replace(
      outcome,
      h("p", {}, t("consoleWithdrawQuestion", { count: sent.messageIds.length })),
      h("button#confirm-withdrawal.danger", { type: "button", onclick: withdraw }, t("consoleWithdraw")),
      " ",
      h("button.secondary", { type: "button", onclick: () => replace(outcome) }, t("consoleCancel")),
    );
  }

  let watching = null;
  function watch(topic, head) {
    watching?.close();
    closers.delete(watching);
    replace(responses);
    responsesState.textContent = t("consoleWaiting", { topic });
    watching = stream(topicPath(topic), {
      lastEventId: head,
      onState: (state) => {
        if (state === "reconnecting") responsesState.textContent = t("consoleReconnecting");
        if (state === "open") responsesState.textContent = t("consoleWaiting", { topic });
      },
      onEvent: ({ event, data }) => {
        if (event !== "response" || !data) return;
        responses.append(responseItem(data));
      },
    });
    closers.add(watching);
  }

  async function save() {
    const payload = parsed();
    const name = payloadName.value.trim();
    if (!name) {
      replace(outcome, h("p.error", { role: "alert" }, t("consoleNameNeeded")));
      payloadName.focus();
      return;
    }
    if (!payload) return;
    try {
      const saved = await api("PUT", `/api/v1/payloads/${encodeURIComponent(name)}`, { json: payload });
      replace(outcome, h("p.ok", {}, t(saved.replaced ? "consoleReplaced" : "consoleSaved", { name })));
    } catch (error) {
      replace(outcome, errorBox(error));
    }
  }

  /// Removes the named payload: new sends can no longer name it; what was sent by it still shows it.
  async function removePayload() {
    const name = payloadName.value.trim();
    if (!name) {
      payloadName.focus();
      return;
    }
    try {
      await api("DELETE", `/api/v1/payloads/${encodeURIComponent(name)}`);
      replace(outcome, h("p.ok", {}, t("consolePayloadRemoved", { name })));
    } catch (error) {
      replace(outcome, errorBox(error));
    }
  }

  async function load() {
    const name = payloadName.value.trim();
    if (!name) {
      payloadName.focus();
      return;
    }
    try {
      const payload = await api("GET", `/api/v1/payloads/${encodeURIComponent(name)}`);
      payloadText.value = JSON.stringify(payload, null, 2);
      update();
    } catch (error) {
      replace(outcome, errorBox(error));
    }
  }

  replace(
    page,
    h(
      "div.compose",
      {},
      h(
        "section.editor",
        { "aria-labelledby": "editor-heading" },
        h("h2#editor-heading", {}, t("consoleMessage")),
        userList,
        groupList,
        h(
          "fieldset.recipients",
          {},
          h("legend", {}, t("consoleRecipients")),
          labelled(t("consoleToUsers"), to, t("consoleCommaSeparated")),
          labelled(t("consoleToGroups"), toGroups, t("consoleCommaSeparated")),
          h("div.check", {}, everyone, h("label", { for: "send-all" }, t("consoleEveryone"))),
        ),
        labelled(t("consoleTitle"), title),
        labelled(t("consoleBody"), body),
        labelled(t("consolePayload"), payloadText),
        payloadStatus,
        h("h3", {}, t("consoleAddField")),
        addButtons,
        h("div.actions", {}, sendButton),
        h("div.save", {}, labelled(t("consolePayloadName"), payloadName), h("div.actions", {}, saveButton, loadButton, removeButton)),
        outcome,
      ),
      h(
        "section.preview-pane",
        { "aria-labelledby": "preview-heading" },
        h("h2#preview-heading", {}, t("consolePreview")),
        preview,
        h("h2", {}, t("consoleResponses")),
        responsesState,
        responses,
      ),
    ),
  );
  update();
  return () => {
    clearTimeout(timer);
    for (const closer of closers) closer?.close();
  };
}

/// One answer as it arrived: who, from which device, the button and the values.
function responseItem(response) {
  const values = Object.entries(response.values ?? {});
  return h(
    "li.response",
    { dataset: { username: response.username ?? "" } },
    h(
      "p",
      {},
      h("strong", {}, response.username ?? "?"),
      " ",
      h("span.notice", {}, t("consoleFromDevice", { device: response.deviceName ?? response.deviceId ?? "?" })),
      " ",
      h("time", {}, formatTime(new Date().toISOString())),
    ),
    h("p.notice", {}, t("consoleSubmitValue", { value: response.submitValue ?? 0 })),
    values.length
      ? h("dl", {}, values.map(([key, value]) => [h("dt", {}, key), h("dd", {}, typeof value === "string" ? value : JSON.stringify(value))]))
      : h("p.notice", {}, t("consoleNoValues")),
  );
}

/// The payload's fields listed, when the person's form code is not available to draw them.
function outline(payload) {
  const fields = Array.isArray(payload.fields) ? payload.fields : [];
  return h(
    "div.outline",
    {},
    h("p.notice", {}, t("consolePreviewOutline")),
    fields.length
      ? h("ol", {}, fields.map((f) => h("li", {}, `${f?.type ?? "?"}${f?.id ? ` (${f.id})` : ""}: ${f?.label ?? f?.buttonLabel ?? ""}`)))
      : h("p.notice", {}, t("consoleNoFields")),
  );
}
