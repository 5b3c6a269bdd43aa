// Areas (seed 004): geofences on a map, beacon regions listed, each with its validity, opening hours, rules,
// the rules' counters and, for the users those counters name, today's notification quota.

import { api } from "../api.js";
import { h, replace } from "../dom.js";
import { t } from "../texts.js";
import { consolePage, row, table } from "./common.js";
import { createMap } from "./map.js";

export async function areasView(main) {
  const page = consolePage(main, "#/console/areas", t("consoleAreas"));
  replace(page, h("p.notice", {}, t("loading")));
  const [geofences, beacons, counters, settings] = await Promise.all([
    api("GET", "/api/v1/geofences"),
    api("GET", "/api/v1/beacons"),
    api("GET", "/api/v1/counters"),
    api("GET", "/api/v1/settings").catch(() => []),
  ]);
  const limit = settings.find((s) => s.key === "dailyNotificationLimit")?.value;
  const users = [...new Set(counters.map((c) => c.user))].sort();
  const quotas = await Promise.all(
    users.map((user) => api("GET", `/api/v1/quota/${encodeURIComponent(user)}`).catch(() => null)),
  );

  const mapElement = h("div#areas-map.map");
  replace(
    page,
    mapElement,
    h("p.notice", {}, t(limit ? "consoleDailyLimit" : "consoleNoDailyLimit", { limit })),
    quotaTable(quotas.filter(Boolean)),
    h("h2", {}, t("consoleGeofences", { count: geofences.length })),
    geofences.length ? geofences.map((area) => areaCard(area, "geofence", counters)) : h("p.notice", {}, t("consoleNone")),
    h("h2", {}, t("consoleBeacons", { count: beacons.length })),
    beacons.length ? beacons.map((area) => areaCard(area, "beacon", counters)) : h("p.notice", {}, t("consoleNone")),
  );

  let map = null;
  try {
    const made = await createMap(mapElement, { label: t("consoleAreasMap") });
    map = made.map;
    const { L } = made;
    const layers = [];
    for (const area of geofences) {
      const lat = Number(area.lat);
      const lng = Number(area.lng);
      if (!Number.isFinite(lat) || !Number.isFinite(lng)) continue;
      const radius = Number(area.radius) * 1000; // kilometres in the Ubudu format; Leaflet takes metres
      const circle = L.circle([lat, lng], { radius: Number.isFinite(radius) ? radius : 0, className: "area-circle" });
      const marker = L.circleMarker([lat, lng], { radius: 6, className: "area-marker", fillOpacity: 0.9 });
      const name = `${area.name ?? area.id} (${area.id})`;
      // Leaflet puts a string in as HTML: the name is the area's text, so each tooltip gets a text node of its own.
      circle.bindTooltip(() => h("span", {}, name));
      marker.bindTooltip(() => h("span", {}, name));
      for (const layer of [circle, marker]) {
        layer.addTo(map);
        layers.push(layer);
      }
      circle.getElement?.()?.setAttribute("data-area", String(area.id));
      marker.getElement?.()?.setAttribute("data-area", String(area.id));
    }
    if (layers.length) map.fitBounds(L.featureGroup(layers).getBounds().pad(0.2), { maxZoom: 17 });
  } catch (error) {
    replace(mapElement, h("p.error", { role: "alert" }, t("consoleMapFailed", { message: error.message })));
  }
  return () => map?.remove();
}

function quotaTable(quotas) {
  if (!quotas.length) return null;
  return table(
    t("consoleQuotaToday"),
    [t("consoleUser"), t("consoleDate"), t("consoleNotifications"), t("consoleRemaining")],
    quotas.map((q) =>
      row([q.user, q.date, String(q.notifications), q.limit == null ? t("consoleUnlimited") : `${q.remaining} / ${q.limit}`], {
        dataset: { quotaUser: q.user },
      }),
    ),
    "quota",
  );
}

const days = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"];

function clock(seconds) {
  const s = Number(seconds) || 0;
  return `${String(Math.floor(s / 3600)).padStart(2, "0")}:${String(Math.floor((s % 3600) / 60)).padStart(2, "0")}`;
}

/// The week's opening hours, "mon 09:00–19:00, …"; closed days (open = close) said so.
function hours(schedule) {
  const week = schedule?.week;
  if (!week || !Object.keys(week).length) return t("consoleAlwaysOpen");
  return days
    .filter((day) => week[day])
    .map((day) => {
      const { open, close } = week[day];
      return Number(open) === Number(close) ? `${day} ${t("consoleClosed")}` : `${day} ${clock(open)}–${clock(close)}`;
    })
    .join(", ");
}

function limits(rule) {
  const parts = [];
  for (const key of ["min_events", "max_events", "min_group_events", "max_group_events", "latch_time", "maximum_proximity"]) {
    const value = rule?.[key];
    const none = value === undefined || value === null || value === "" || Number(value) < 0;
    if (!none) parts.push(`${key.replaceAll("_", " ")} ${value}`);
  }
  return parts.join(", ") || "—";
}

function actions(action = {}) {
  const parts = [];
  if (action.notify_user) parts.push(`${t("consoleNotifyUser")}: ${action.notify_user}`);
  if (action.open_url) parts.push(`${t("consoleOpenURL")}: ${action.open_url}`);
  if (action.open_pbk) parts.push(`${t("consoleOpenPBK")}: ${action.open_pbk}`);
  if (action.notify_server) parts.push(`${t("consoleNotifyServer")}: ${action.notify_server}`);
  return parts.length ? parts.map((p) => h("div", {}, p)) : "—";
}

function areaCard(area, kind, counters) {
  const id = String(area.id);
  const mine = counters.filter((c) => c.area === id);
  const where =
    kind === "geofence"
      ? t("consoleGeofenceWhere", { lat: area.lat, lng: area.lng, radius: Number(area.radius) * 1000 })
      : t("consoleBeaconWhere", { uuid: area.proximity_uid ?? "", major: area.major || "*", minor: area.minor || "*" });
  const rules = area.rules_actions ?? [];
  return h(
    "article.area-card",
    { dataset: { area: id, kind }, "aria-labelledby": `area-${kind}-${id}` },
    h("h3", { id: `area-${kind}-${id}` }, area.name || id, " ", h("span.notice", {}, `#${id}`)),
    h("p", {}, where),
    area.address ? h("p.notice", {}, area.address) : null,
    h(
      "p.notice",
      {},
      t("consoleValidity", { start: area.start || "—", end: area.end || "—", zone: area.timezone?.zone ?? "UTC" }),
    ),
    h("p.notice", {}, t("consoleHours", { hours: hours(area.schedule) })),
    rules.length
      ? table(
          t("consoleRulesOf", { name: area.name || id }),
          [t("consoleRule"), t("consoleTrigger"), t("consoleLimits"), t("consoleActions"), t("consoleCounters")],
          rules.map((ra) => {
            const ruleId = String(ra.id);
            const counted = mine.filter((c) => c.rule === ruleId);
            return row(
              [
                h("a", { href: `#/console/audit?area=${encodeURIComponent(id)}&rule=${encodeURIComponent(ruleId)}` }, ruleId),
                ra.rule?.trigger ?? "",
                limits(ra.rule),
                actions(ra.action),
                counted.length ? counted.map((c) => h("div", {}, `${c.user}: ${c.count}`)) : "0",
              ],
              { dataset: { rule: ruleId } },
            );
          }),
          "rules",
        )
      : h("p.notice", {}, t("consoleNoRules")),
    h("p", {}, h("a", { href: `#/console/audit?area=${encodeURIComponent(id)}` }, t("consoleAuditOfArea"))),
  );
}
