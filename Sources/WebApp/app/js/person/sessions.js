// Where the person is logged in (the account menu's "Sessions"): each session's device and expiry, and "End" on
// every one but this — a lost phone is logged out at its next request.

import { api } from "../api.js";
import { formatTime, h, replace } from "../dom.js";
import { t } from "../texts.js";
import { errorBox } from "../console/common.js";

export async function sessionsView(main, _match, context) {
  const sessions = await api("GET", "/api/v1/sessions");
  const outcome = h("div", { "aria-live": "polite" });
  const end = async (session) => {
    try {
      await api("DELETE", `/api/v1/sessions/${encodeURIComponent(session.sessionId)}`);
      await sessionsView(main, _match, context);
    } catch (error) {
      replace(outcome, errorBox(error));
    }
  };
  replace(
    main,
    h(
      "section.account",
      {},
      h("h2", {}, t("sessionsTitle")),
      h(
        "ul.sessions",
        {},
        sessions.map((session) =>
          h(
            "li",
            { dataset: { sessionId: session.sessionId } },
            h("strong", {}, session.deviceId ?? t("sessionsNoDevice")),
            " ",
            h("small.hint", {}, t("sessionsUntil", { time: formatTime(session.expiresAt) })),
            " ",
            session.isCurrent
              ? h("em.current", {}, t("sessionsThisOne"))
              : h("button.secondary", { type: "button", onclick: () => end(session) }, t("sessionsEnd")),
          ),
        ),
      ),
      outcome,
    ),
  );
}
