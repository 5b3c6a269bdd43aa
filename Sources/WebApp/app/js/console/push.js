// Push delivery: the namespace's push sources (their public settings and fingerprints) and the deliveries'
// status, filtered by message, user or status.

import { api } from "../api.js";
import { formatTime, h, replace } from "../dom.js";
import { t } from "../texts.js";
import { consolePage, errorBox, labelled, row, table } from "./common.js";

export async function pushView(main) {
  const page = consolePage(main, "#/console/push", t("consolePush"));
  const sources = await api("GET", "/api/v1/push/sources");
  const messageId = h("input#deliveries-message", { type: "text", autocomplete: "off" });
  const user = h("input#deliveries-user", { type: "text", autocomplete: "off" });
  const status = h(
    "select#deliveries-status",
    {},
    ["", "pending", "delivered", "failed", "expired"].map((s) => h("option", { value: s }, s || t("consoleAny"))),
  );
  const deliveries = h("div#deliveries", { "aria-live": "polite" });

  async function load() {
    const query = new URLSearchParams();
    if (messageId.value.trim()) query.set("messageId", messageId.value.trim());
    if (user.value.trim()) query.set("user", user.value.trim());
    if (status.value) query.set("status", status.value);
    try {
      const list = await api("GET", `/api/v1/deliveries${query.size ? `?${query}` : ""}`);
      replace(
        deliveries,
        list.length
          ? table(
              t("consoleDeliveries"),
              [t("consoleUser"), t("consoleDeviceId"), t("consoleStatus"), t("consoleAttempts"), t("consoleSentAt"), t("consoleLast")],
              list.map((d) =>
                row(
                  [d.user, `${d.deviceId} (${d.platform})`,
                    d.kind === "withdrawal" ? t("consoleWithdrawalStatus", { status: d.status }) : d.status,
                    String(d.attempts), formatTime(d.sentAt),
                    [d.lastStatus, d.lastReason].filter((x) => x !== undefined && x !== null).join(" ")],
                  { dataset: { status: d.status } },
                ),
              ),
              "deliveries",
            )
          : h("p.notice", {}, t("consoleNoDeliveries")),
      );
    } catch (error) {
      replace(deliveries, errorBox(error));
    }
  }

  replace(
    page,
    h("h2", {}, t("consolePushSources")),
    sources.length
      ? table(
          t("consolePushSources"),
          [t("consoleName"), t("consoleKind"), t("consoleDetails"), t("consoleFingerprint")],
          sources.map((s) =>
            row(
              [s.name, s.kind, Object.entries(s.details ?? {}).map(([k, v]) => h("div", {}, `${k}: ${v}`)), h("code", {}, s.fingerprint ?? "")],
              { dataset: { source: s.name } },
            ),
          ),
          "sources",
        )
      : h("p.notice", {}, t("consoleNoSources")),
    h("h2", {}, t("consoleDeliveries")),
    h(
      "form.filters",
      { onsubmit: (event) => { event.preventDefault(); load(); } },
      labelled(t("consoleMessageId"), messageId),
      labelled(t("consoleUser"), user),
      labelled(t("consoleStatus"), status),
      h("button", { type: "submit" }, t("consoleShow")),
    ),
    deliveries,
  );
  await load();
}
