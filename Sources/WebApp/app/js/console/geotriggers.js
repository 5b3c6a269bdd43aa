// Geotriggers (seed 003): each with its fences, rule, buffer, message expression and its monitor, which an
// administrator starts and stops here (a stopped monitor records crossings and notifies no one).

import { api } from "../api.js";
import { h, replace } from "../dom.js";
import { t } from "../texts.js";
import { consolePage, errorBox, row, table } from "./common.js";

function fences(fences) {
  if (Array.isArray(fences?.areas)) return t("consoleFenceAreas", { areas: fences.areas.join(", ") });
  if (Array.isArray(fences?.features)) return t("consoleFenceFeatures", { count: fences.features.length });
  return "—";
}

/// The monitor's state and the button that turns it the other way; the page is drawn again with the answer.
function monitor(g, redraw) {
  const running = g.monitor !== "stopped";
  const turn = running ? "stop" : "start";
  const state = h("span", { dataset: { monitor: running ? "running" : "stopped" } }, t(running ? "consoleMonitorRunning" : "consoleMonitorStopped"));
  const button = h(
    "button.secondary",
    {
      type: "button",
      dataset: { turn },
      "aria-label": `${t(running ? "consoleStopMonitor" : "consoleStartMonitor")} ${g.name ?? g.id}`,
      onclick: async () => {
        button.disabled = true;
        try {
          await api("POST", `/api/v1/geotriggers/${encodeURIComponent(g.id)}/${turn}`);
          await redraw();
        } catch (error) {
          button.disabled = false;
          button.after(errorBox(error));
        }
      },
    },
    t(running ? "consoleStopMonitor" : "consoleStartMonitor"),
  );
  return h("div.monitor", {}, state, " ", button);
}

export async function geotriggersView(main) {
  const page = consolePage(main, "#/console/geotriggers", t("consoleGeotriggers"));
  const draw = async () => {
    const list = await api("GET", "/api/v1/geotriggers");
    replace(
      page,
      list.length
        ? table(
            t("consoleGeotriggers"),
            [t("consoleName"), t("consoleFences"), t("consoleTrigger"), t("consoleBuffer"), t("consoleExpression"), t("consoleMonitor")],
            list.map((g) =>
              row(
                [
                  g.name ?? g.id ?? "",
                  fences(g.fences),
                  g.rule ?? "",
                  `${g.bufferDistance ?? 0} m`,
                  h("code", {}, g.messageExpression ?? ""),
                  monitor(g, draw),
                ],
                { dataset: { geotrigger: String(g.id ?? g.name ?? "") } },
              ),
            ),
            "geotriggers",
          )
        : h("p.notice", {}, t("consoleNoGeotriggers")),
    );
  };
  await draw();
}
