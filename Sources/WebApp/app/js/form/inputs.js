// The fields a person types or picks into: inputString, barcode, inputInteger, inputReal, date, datetime, checkbox,
// droplist and radioButtons. Each returns {element, value(), focus(), targets}: value() is what the person
// entered, null for nothing (the form then falls back on the default, as the server does).

import { h } from "../dom.js";
import { t } from "../texts.js";
import { scanBarcode, canScanBarcodes } from "./barcode.js";
import { applyLabelStyle, domId, fieldBox, fieldLabel } from "./shell.js";
import { acceptsNull, choices, numberSettings, property, string } from "./rules.js";

export function textField(field, index, { preview }) {
  const id = domId(index);
  const barcode = field.type === "barcode";
  const input = h("input", {
    id,
    type: "text",
    value: string(field, "default") ?? "",
    placeholder: string(field, "placeholder") ?? (barcode ? t("formBarcodeHint") : undefined),
    autocomplete: "off",
    inputmode: barcode ? "text" : undefined,
    required: !acceptsNull(field),
  });
  const control = barcode && canScanBarcodes() ? h("div.inline-control", {}, input, scanButton(input, preview)) : input;
  return {
    element: fieldBox(field, index, fieldLabel(field, id) ?? hiddenLabel(id, field), control),
    value: () => (input.value === "" ? null : input.value),
    focus: () => input.focus(),
    targets: [input],
  };
}

function scanButton(input, preview) {
  const button = h("button.secondary", {
    type: "button",
    disabled: preview,
    onclick: async () => {
      const code = await scanBarcode();
      if (code !== null) {
        input.value = code;
        input.dispatchEvent(new Event("input", { bubbles: true }));
        input.focus();
      }
    },
  }, t("formScan"));
  return button;
}

/// A label only screen readers read, for a field the payload gives no label.
function hiddenLabel(id, field) {
  return h("label.visually-hidden", { for: id }, typeof field.id === "string" ? field.id : field.type);
}

export function numberField(field, index) {
  const id = domId(index);
  const { isInteger, slider, minValue, maxValue, defaultValue } = numberSettings(field);
  const label = fieldLabel(field, id) ?? hiddenLabel(id, field);
  if (slider) {
    const start = defaultValue ?? minValue;
    const shown = h("output.slider-value", { for: id }, String(start));
    const input = h("input", {
      id, type: "range", min: String(minValue), max: String(maxValue), step: isInteger ? "1" : "any",
      value: String(start),
      oninput: () => {
        shown.textContent = input.value;
      },
    });
    return {
      element: fieldBox(field, index, label, h("div.inline-control", {}, input, shown)),
      value: () => Number(input.value),
      focus: () => input.focus(),
      targets: [input],
    };
  }
  const units = string(field, "units");
  const unitsId = domId(index, "units");
  const input = h("input", {
    id,
    type: "number",
    inputmode: isInteger ? "numeric" : "decimal",
    step: isInteger ? "1" : "any",
    min: minValue <= maxValue ? String(minValue) : undefined,
    max: minValue <= maxValue ? String(maxValue) : undefined,
    value: defaultValue === undefined ? "" : String(defaultValue),
    placeholder: string(field, "placeholder"),
    "aria-describedby": units ? unitsId : undefined,
    required: !acceptsNull(field),
  });
  return {
    element: fieldBox(field, index, label,
      h("div.inline-control", {}, input, units ? h("span.units", { id: unitsId }, units) : null)),
    // A half-typed number ("1e", "-") is badInput with an empty value: NaN makes the rules say "not a number".
    value: () => (input.validity.badInput ? Number.NaN : input.value === "" ? null : Number(input.value)),
    focus: () => input.focus(),
    targets: [input],
  };
}

/// The browser's zone at the moment `local` (a datetime-local value) names, as `±HH:MM`.
function zoneOf(local) {
  const minutes = -new Date(local).getTimezoneOffset();
  const sign = minutes < 0 ? "-" : "+";
  const pad = (n) => String(Math.floor(Math.abs(n))).padStart(2, "0");
  return `${sign}${pad(minutes / 60)}:${pad(minutes % 60)}`;
}

export function dateField(field, index) {
  const id = domId(index);
  const withTime = field.type === "datetime";
  const preset = string(field, "default");
  // The chooser shows the default's own wall-clock time; left as it is, the default goes back unchanged, zone
  // and all. A time the person picks is in the browser's zone, which the answer then names.
  const shown = preset ? (withTime ? preset.slice(0, 16) : preset) : "";
  const input = h("input", {
    id, type: withTime ? "datetime-local" : "date", value: shown, required: !acceptsNull(field),
  });
  return {
    element: fieldBox(field, index, fieldLabel(field, id) ?? hiddenLabel(id, field), input),
    value: () => {
      if (input.value === "") return null;
      if (!withTime) return input.value;
      if (preset && input.value === shown) return preset;
      return `${input.value}${zoneOf(input.value)}`;
    },
    focus: () => input.focus(),
    targets: [input],
  };
}

export function checkboxField(field, index) {
  const id = domId(index);
  const labelId = domId(index, "label");
  const text = string(field, "checkboxLabel") ?? "";
  const heading = fieldLabel(field, labelId, "p");
  const input = h("input", {
    id, type: "checkbox", checked: property(field, "default") === true,
    "aria-labelledby": text ? undefined : heading ? labelId : undefined,
    "aria-label": text || heading ? undefined : (typeof field.id === "string" ? field.id : t("formCheckbox")),
  });
  return {
    element: fieldBox(field, index, heading, h("div.check", {}, input, text ? h("label", { for: id }, text) : null)),
    value: () => input.checked,
    focus: () => input.focus(),
    targets: [input],
  };
}

export function droplistField(field, index) {
  const id = domId(index);
  const entries = choices(field);
  const preset = property(field, "default");
  const selected = entries.findIndex((entry) => entry.value === preset);
  // The seed's optional droplist starts with a "null" item; a required one without a default starts with a
  // prompt, so nobody answers the first item by not looking.
  const blank = selected < 0 || acceptsNull(field);
  const select = h(
    "select",
    { id, required: !acceptsNull(field) },
    blank ? h("option", { value: "" }, acceptsNull(field) ? t("formNoChoice") : t("formChoose")) : null,
    entries.map((entry, position) => h("option", { value: String(position), selected: position === selected },
      entry.label)),
  );
  if (selected < 0) select.value = "";
  return {
    element: fieldBox(field, index, fieldLabel(field, id) ?? hiddenLabel(id, field), select),
    value: () => (select.value === "" ? null : entries[Number(select.value)].value),
    focus: () => select.focus(),
    targets: [select],
  };
}

export function radioField(field, index) {
  const legendId = domId(index, "legend");
  const entries = choices(field);
  const preset = property(field, "default");
  const name = domId(index, "choice");
  const options = entries.map((entry) => ({ value: entry.value, label: entry.label }));
  // Radios cannot be unticked: an optional group gets a "no answer" choice, as the optional droplist does.
  if (acceptsNull(field)) options.unshift({ value: null, label: t("formNoChoice") });
  const nothingChosen = !options.some((option) => option.value === preset && option.value !== null);
  const radios = options.map((option, position) =>
    h("input", {
      type: "radio",
      name,
      id: domId(index, `choice-${position}`),
      value: String(position),
      checked: option.value === null ? nothingChosen : option.value === preset,
    }));
  const legend = string(field, "label")
    ? applyLabelStyle(h("legend.field-label", { id: legendId }, field.label), field)
    : h("legend.visually-hidden", { id: legendId }, typeof field.id === "string" ? field.id : field.type);
  const group = h(
    "fieldset.choices",
    { role: "radiogroup", "aria-labelledby": legendId },
    legend,
    radios.map((radio, position) => h("div.check", {}, radio, h("label", { for: radio.id }, options[position].label))),
  );
  return {
    element: fieldBox(field, index, group),
    value: () => {
      const chosen = radios.find((radio) => radio.checked);
      return chosen ? options[Number(chosen.value)].value : null;
    },
    focus: () => (radios.find((radio) => radio.checked) ?? radios[0])?.focus(),
    targets: [group],
  };
}
