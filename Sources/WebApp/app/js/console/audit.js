// The audit timeline of a user, an area or a rule: what happened, oldest first, with the reason of every decision.

import { api } from "../api.js";
import { formatTime, h, replace } from "../dom.js";
import { t } from "../texts.js";
import { consolePage, labelled } from "./common.js";

const keys = ["user", "area", "rule"];

export async function auditView(main, [query = ""]) {
  const page = consolePage(main, "#/console/audit", t("consoleAudit"));
  const params = new URLSearchParams(query);
  const inputs = Object.fromEntries(
    keys.map((key) => [key, h(`input#audit-${key}`, { type: "text", value: params.get(key) ?? "", autocomplete: "off" })]),
  );
  const form = h(
    "form.audit-filter",
    {
      onsubmit: (event) => {
        event.preventDefault();
        const next = new URLSearchParams();
        for (const key of keys) if (inputs[key].value.trim()) next.set(key, inputs[key].value.trim());
        location.hash = `#/console/audit${next.size ? `?${next}` : ""}`;
      },
    },
    keys.map((key) => labelled(t(`consoleAudit_${key}`), inputs[key])),
    h("button", { type: "submit" }, t("consoleShow")),
  );
  const filter = new URLSearchParams();
  for (const key of keys) if (params.get(key)) filter.set(key, params.get(key));
  const timeline = h("ol#audit.timeline");
  replace(page, form, timeline);
  const entries = await api("GET", `/api/v1/audit${filter.size ? `?${filter}` : ""}`);
  if (!entries.length) {
    replace(timeline, h("li.notice", {}, t("consoleNothingAudited")));
    return;
  }
  replace(
    timeline,
    entries.map((entry) =>
      h(
        `li.entry${entry.fired === true ? ".fired" : entry.fired === false ? ".not-fired" : ""}`,
        { dataset: { what: entry.what, position: String(entry.position) } },
        h("time", { datetime: entry.time }, formatTime(entry.time)),
        h("strong", {}, entry.what),
        h("span", {}, entry.detail),
        entry.reason ? h("span.reason", {}, t("consoleReason", { reason: entry.reason })) : null,
        entry.fired !== undefined && entry.fired !== null ? h("span.decision", {}, entry.fired ? t("consoleFired") : t("consoleNotFired")) : null,
      ),
    ),
  );
}
