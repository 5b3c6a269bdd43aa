// What the console's pages share: their navigation, a page frame, tables, and errors shown with their fields.

import { h, replace } from "../dom.js";
import { t } from "../texts.js";

const pages = [
  ["#/console/send", "consoleSend"],
  ["#/console/sends", "consoleSends"],
  ["#/console/areas", "consoleAreas"],
  ["#/console/people", "consolePeople"],
  ["#/console/audit", "consoleAudit"],
  ["#/console/settings", "consoleSettings"],
  ["#/console/push", "consolePush"],
  ["#/console/geotriggers", "consoleGeotriggers"],
];

/// Fills `main` with the console's navigation and the page's heading; returns the element the page fills.
export function consolePage(main, hash, title) {
  main.classList.add("wide", "console");
  const body = h("div.console-body");
  const current = hash === "#/console" ? "#/console/send" : hash;
  replace(
    main,
    h(
      "nav.console-nav",
      { "aria-label": t("consoleNav") },
      pages.map(([href, label]) =>
        h("a", { href, "aria-current": current === href || current.startsWith(`${href}?`) ? "page" : undefined }, t(label)),
      ),
    ),
    h("h1", {}, title),
    body,
  );
  return body;
}

/// A table with a caption (for screen readers and people), a head and rows of cells (text or elements).
export function table(caption, headings, rows, className = "") {
  return h(
    `table.data${className ? `.${className}` : ""}`,
    {},
    h("caption", {}, caption),
    h("thead", {}, h("tr", {}, headings.map((heading) => h("th", { scope: "col" }, heading)))),
    h("tbody", {}, rows),
  );
}

/// One row; `attributes` go on the `<tr>`.
export function row(cells, attributes = {}) {
  return h("tr", attributes, cells.map((cell) => h("td", {}, cell)));
}

/// An error as the server said it, with each field's message.
export function errorBox(error) {
  const fields = error?.fields ?? [];
  return h(
    "div.error.console-error",
    { role: "alert" },
    h("p", {}, t("failed", { message: error?.message ?? String(error) })),
    fields.length ? h("ul", {}, fields.map((f) => h("li", { dataset: { field: f.field } }, `${f.field}: ${f.message}`))) : null,
  );
}

/// A labelled control: `<label for>` with the control after it.
export function labelled(label, control, hint) {
  const hintElement = hint ? h("small.hint", { id: `${control.id}-hint` }, hint) : null;
  if (hintElement) control.setAttribute("aria-describedby", hintElement.id);
  return h("div.control", {}, h("label", { for: control.id }, label), control, hintElement);
}

