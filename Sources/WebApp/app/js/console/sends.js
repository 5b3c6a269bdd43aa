// The namespace's sends, newest first, and where each one's messages stand: who has answered, whose was
// withdrawn, who has not answered yet — a hundred at a time, filtered by state — with the messages still waiting
// withdrawn at once from here, asked first.

import { api } from "../api.js";
import { append, formatTime, h, replace } from "../dom.js";
import { t } from "../texts.js";
import { consolePage, errorBox, labelled, row, table } from "./common.js";

/// Rows a page, of sends and of a send's messages, to choose from: a send to 100,000 people is read and drawn in
/// pages.
const pageSizes = [25, 100, 1000];

/// `#/console/sends?send=ID` opens that send's messages too.
export async function sendsView(main, [query = ""]) {
  const page = consolePage(main, "#/console/sends", t("consoleSends"));
  const opened = new URLSearchParams(query).get("send");
  const detail = h("div#send-detail", { "aria-live": "polite" });
  const list = h("div#sends");
  const size = h(
    "select#sends-page-size",
    { onchange: () => { load(); if (openedSend) show(openedSend.id, openedSend.state); } },
    pageSizes.map((n) => h("option", { value: n, selected: n === 100 }, String(n))),
  );
  let openedSend = null;

  /// The newest sends; `before` (a send's id) the page older than it, added below the rows shown.
  async function load(before) {
    const pageSize = Number(size.value);
    const sends = await api("GET", `/api/v1/sends?limit=${pageSize}${before ? `&before=${encodeURIComponent(before)}` : ""}`);
    const rows = sends.map((s) =>
      row(
        [formatTime(s.sentAt),
          h("a", { href: "#/console/sends", onclick: (event) => { event.preventDefault(); show(s.sendId); } }, s.title),
          s.sender, String(s.recipients), String(s.answered), String(s.withdrawn), String(s.pending)],
        { dataset: { sendId: s.sendId } },
      ));
    const older = sends.length === pageSize
      ? h("button#sends-older.secondary", { type: "button", onclick: () => load(sends.at(-1).sendId) }, t("consoleOlderSends"))
      : null;
    const shown = list.querySelector("tbody");
    if (before && shown) {
      append(shown, rows);
      const button = list.querySelector("#sends-older");
      if (older) button?.replaceWith(older);
      else button?.remove();
      return;
    }
    replace(
      list,
      sends.length
        ? table(
            t("consoleSends"),
            [t("consoleSentAt"), t("consoleTitle"), t("consoleSender"), t("consoleRecipients"), t("consoleAnswered"),
              t("consoleWithdrawnCount"), t("consolePending")],
            rows,
            "sends",
          )
        : h("p.notice", {}, t("consoleNoSends")),
      older,
    );
  }

  /// One send: its recipients' messages and their states, a page at a time (only those in `state` when chosen),
  /// and a way to withdraw at once those still waiting.
  async function show(sendId, state = "") {
    openedSend = { id: sendId, state };
    const pageSize = Number(size.value);
    const path = `/api/v1/sends/${encodeURIComponent(sendId)}`;
    const pageOf = (from) =>
      api("GET", `${path}?limit=${pageSize}&from=${from}${state ? `&state=${state}` : ""}`);
    try {
      const send = await pageOf(0);
      const outcome = h("div.outcome", { "aria-live": "polite" });
      const filter = h(
        "select#send-state",
        { onchange: () => show(sendId, filter.value) },
        ["", "pending", "answered", "withdrawn"].map((s) =>
          h("option", { value: s, selected: s === state }, s ? t(`consoleMessage_${s}`) : t("consoleAny"))),
      );
      const rows = (messages) =>
        messages.map((m) => row([m.user, t(`consoleMessage_${m.state}`)], { dataset: { user: m.user, state: m.state } }));
      const messages = table(send.title, [t("consoleUser"), t("consoleState")], rows(send.messages), "send-messages");
      const more = h("button#send-more.secondary", { type: "button" }, t("consoleMoreMessages"));
      let next = send.nextFrom;
      more.hidden = next === undefined;
      more.onclick = async () => {
        try {
          const page = await pageOf(next);
          append(messages.querySelector("tbody"), rows(page.messages));
          next = page.nextFrom;
          more.hidden = next === undefined;
        } catch (error) {
          replace(outcome, errorBox(error));
        }
      };
      const ask = () =>
        replace(
          outcome,
          h("p", {}, t("consoleWithdrawPendingQuestion", { count: send.pending })),
          h("button#confirm-withdraw-pending.danger", { type: "button", onclick: withdraw }, t("consoleWithdraw")),
          " ",
          h("button.secondary", { type: "button", onclick: () => replace(outcome) }, t("consoleCancel")),
        );
      // One request, one append: the messages answered meanwhile stay answered.
      const withdraw = async () => {
        try {
          await api("POST", `${path}/withdraw`);
        } catch (error) {
          return replace(outcome, errorBox(error));
        }
        await load();
        await show(sendId, state);
      };
      replace(
        detail,
        h("h2", {}, send.title),
        h("p", {}, t("consoleSendSummary", {
          sender: send.sender, sentAt: formatTime(send.sentAt), count: send.recipients, answered: send.answered,
          withdrawn: send.withdrawn, pending: send.pending,
        })),
        h("form.filters.narrow", { onsubmit: (event) => event.preventDefault() }, labelled(t("consoleState"), filter)),
        messages,
        more,
        send.pending
          ? h("button#withdraw-pending.secondary", { type: "button", onclick: ask },
              t("consoleWithdrawPending", { count: send.pending }))
          : null,
        outcome,
      );
    } catch (error) {
      replace(detail, errorBox(error));
    }
  }

  replace(
    page,
    h("form.filters.narrow", { onsubmit: (event) => event.preventDefault() }, labelled(t("consoleRowsAPage"), size)),
    list,
    detail,
  );
  await load();
  if (opened) await show(opened);
}
