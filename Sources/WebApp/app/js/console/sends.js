// The namespace's sends, newest first, and where each one's messages stand: who has answered, whose was
// withdrawn, who has not answered yet — with the messages still waiting withdrawn from here, asked first.

import { api } from "../api.js";
import { formatTime, h, replace } from "../dom.js";
import { t } from "../texts.js";
import { consolePage, errorBox, row, table } from "./common.js";

/// `#/console/sends?send=ID` opens that send's messages too.
export async function sendsView(main, [query = ""]) {
  const page = consolePage(main, "#/console/sends", t("consoleSends"));
  const opened = new URLSearchParams(query).get("send");
  const detail = h("div#send-detail", { "aria-live": "polite" });
  const list = h("div#sends");

  async function load() {
    const sends = await api("GET", "/api/v1/sends?limit=100");
    replace(
      list,
      sends.length
        ? table(
            t("consoleSends"),
            [t("consoleSentAt"), t("consoleTitle"), t("consoleSender"), t("consoleRecipients"), t("consoleAnswered"),
              t("consoleWithdrawnCount"), t("consolePending")],
            sends.map((s) =>
              row(
                [formatTime(s.sentAt),
                  h("a", { href: "#/console/sends", onclick: (event) => { event.preventDefault(); show(s.sendId); } }, s.title),
                  s.sender, String(s.recipients), String(s.answered), String(s.withdrawn), String(s.pending)],
                { dataset: { sendId: s.sendId } },
              ),
            ),
            "sends",
          )
        : h("p.notice", {}, t("consoleNoSends")),
    );
  }

  /// One send: each recipient's message and its state, and a way to withdraw those still waiting.
  async function show(sendId) {
    try {
      const send = await api("GET", `/api/v1/sends/${encodeURIComponent(sendId)}`);
      const waiting = send.messages.filter((m) => m.state === "pending");
      const outcome = h("div.outcome", { "aria-live": "polite" });
      const ask = () =>
        replace(
          outcome,
          h("p", {}, t("consoleWithdrawPendingQuestion", { count: waiting.length })),
          h("button#confirm-withdraw-pending.danger", { type: "button", onclick: withdraw }, t("consoleWithdraw")),
          " ",
          h("button.secondary", { type: "button", onclick: () => replace(outcome) }, t("consoleCancel")),
        );
      const withdraw = async () => {
        for (const message of waiting) {
          try {
            await api("DELETE", `/api/v1/messages/${encodeURIComponent(message.messageId)}`);
          } catch (error) {
            // Answered meanwhile: it stays answered; anything else is said.
            if (error.status !== 409) return replace(outcome, errorBox(error));
          }
        }
        await load();
        await show(sendId);
      };
      replace(
        detail,
        h("h2", {}, send.title),
        h("p", {}, t("consoleSendSummary", {
          sender: send.sender, sentAt: formatTime(send.sentAt), count: send.recipients, answered: send.answered,
          withdrawn: send.withdrawn, pending: send.pending,
        })),
        table(
          send.title,
          [t("consoleUser"), t("consoleState")],
          send.messages.map((m) =>
            row([m.user, t(`consoleMessage_${m.state}`)], { dataset: { user: m.user, state: m.state } })),
          "send-messages",
        ),
        waiting.length
          ? h("button#withdraw-pending.secondary", { type: "button", onclick: ask },
              t("consoleWithdrawPending", { count: waiting.length }))
          : null,
        outcome,
      );
    } catch (error) {
      replace(detail, errorBox(error));
    }
  }

  replace(page, list, detail);
  await load();
  if (opened) await show(opened);
}
