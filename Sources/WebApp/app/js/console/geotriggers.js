// Geotriggers (seed 003): each with its fences, rule, buffer and message expression.

import { api } from "../api.js";
import { h, replace } from "../dom.js";
import { t } from "../texts.js";
import { consolePage, row, table } from "./common.js";

function fences(fences) {
  if (Array.isArray(fences?.areas)) return t("consoleFenceAreas", { areas: fences.areas.join(", ") });
  if (Array.isArray(fences?.features)) return t("consoleFenceFeatures", { count: fences.features.length });
  return "—";
}

export async function geotriggersView(main) {
  const page = consolePage(main, "#/console/geotriggers", t("consoleGeotriggers"));
  const list = await api("GET", "/api/v1/geotriggers");
  replace(
    page,
    list.length
      ? table(
          t("consoleGeotriggers"),
          [t("consoleName"), t("consoleFences"), t("consoleTrigger"), t("consoleBuffer"), t("consoleExpression")],
          list.map((g) =>
            row(
              [g.name ?? g.id ?? "", fences(g.fences), g.rule ?? "", `${g.bufferDistance ?? 0} m`, h("code", {}, g.messageExpression ?? "")],
              { dataset: { geotrigger: String(g.id ?? g.name ?? "") } },
            ),
          ),
          "geotriggers",
        )
      : h("p.notice", {}, t("consoleNoGeotriggers")),
  );
}
