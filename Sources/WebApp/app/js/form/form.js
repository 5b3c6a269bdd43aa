// A form payload (seed 000) as a page: each field of the 24 types, the buttons that submit it, and its answer as
// the server wants it. The rules that decide whether an answer can go are the server's (rules.js); the server
// checks again, and its field errors come back to showErrors().
//
// renderForm(payload, options) → {element, values(), validate(), showErrors(fields)}
//   options.onSubmit: async ({submitValue, values, location}) => void — location {lat, lng} or undefined
//   options.preview: the operator's live preview: everything renders; nothing submits or uploads
//   options.upload: async (blob, kind, extension) => document name
//   options.fetchDocument: async (name) => Blob
// validate() shows the problems on their fields and returns true when the form may be sent.

import { h } from "../dom.js";
import { t } from "../texts.js";
import { captureField } from "./capture.js";
import { dashboardField, documentField, imageField, sectionLabelField, textField as textDisplay } from "./display.js";
import { checkboxField, dateField, droplistField, numberField, radioField, textField } from "./inputs.js";
import { mapField } from "./map.js";
import { markupField } from "./markup.js";
import { applyLabelStyle, describedBy, domId, fieldBox } from "./shell.js";
import { buttonValues, fieldTypes, initialValue, problem, producesValue, string } from "./rules.js";

const builders = {
  audio: captureField,
  barcode: textField,
  camera: captureField,
  checkbox: checkboxField,
  date: dateField,
  datetime: dateField,
  dashboard: dashboardField,
  document: documentField,
  droplist: droplistField,
  image: imageField,
  inputInteger: numberField,
  inputReal: numberField,
  inputString: textField,
  map: mapField,
  markupImage: markupField,
  radioButtons: radioField,
  sectionLabel: sectionLabelField,
  text: textDisplay,
  video: captureField,
};

export function renderForm(payload, options = {}) {
  const fields = (Array.isArray(payload?.fields) ? payload.fields : [])
    .map((field, index) => ({ json: field, index }))
    .filter(({ json }) => json !== null && typeof json === "object" && fieldTypes.has(json.type));
  const summary = h("div.form-summary", { role: "alert", tabindex: "-1", hidden: true });
  const footer = h("div.form-footer");
  const body = h("div.form-fields");
  const element = h("form.muster-form", { novalidate: true, onsubmit: (event) => event.preventDefault() }, summary,
    body, footer);
  let sending = false;
  const buttons = [];

  // Every field with its control and its error line; `entries` keyed by the field's id for values and errors.
  const entries = [];
  for (const { json, index } of fields) {
    if (json.type === "footerButton") {
      footer.append(submitButton(json.buttonLabel, json.value, "footer-button", json));
      continue;
    }
    if (json.type === "inlineButton") {
      const button = submitButton(json.buttonLabel, json.value, "inline-button", json);
      applyLabelStyle(button, json, { size: "buttonLabelSize", color: "buttonLabelColor", style: "buttonLabelStyle" });
      const background = string(json, "buttonBackgroundColor");
      if (/^#[0-9a-fA-F]{6}$/.test(background ?? "")) button.style.backgroundColor = background;
      body.append(fieldBox(json, index, button));
      continue;
    }
    if (json.type === "buttonCluster") {
      const cluster = (Array.isArray(json.values) ? json.values : [])
        .filter((entry) => typeof entry?.label === "string" && Number.isInteger(entry?.value))
        .map((entry) => submitButton(entry.label, entry.value, "cluster-button"));
      const label = string(json, "label");
      const labelId = domId(index, "label");
      body.append(fieldBox(json, index,
        label ? applyLabelStyle(h("p.field-label", { id: labelId }, label), json) : null,
        h("div.button-cluster", { role: "group", "aria-labelledby": label ? labelId : undefined }, cluster)));
      continue;
    }
    if (json.type === "currentDateTime" || json.type === "currentLocation") {
      // No widget (the seed): filled when the form is sent. A box still holds the error, should there be one.
      const what = json.type === "currentLocation" ? t("formCurrentLocation") : t("formCurrentDateTime");
      const box = fieldBox(json, index, h("p.field-label", {}, what));
      box.classList.add("silent");
      box.tabIndex = -1;
      body.append(box);
      entries.push(entry(json, index, { element: box, targets: [], focus: () => box.focus() }));
      continue;
    }
    const built = builders[json.type](json, index, options);
    body.append(built.element);
    if (producesValue(json) && built.value) entries.push(entry(json, index, built));
  }
  // The seed: without buttons of its own, the form gets a Submit button worth 0.
  if (buttonValues(fields.map(({ json }) => json)).length === 0) footer.append(submitButton(t("formSubmit"), 0));

  function entry(json, index, built) {
    const error = h("p.field-error", { id: domId(index, "error"), hidden: true });
    built.element.append(error);
    for (const target of built.targets) describedBy(target, error.id);
    return { json, id: json.id, built, error };
  }

  function submitButton(label, value, kind = "footer-button") {
    const button = h(`button.${kind}`, {
      type: "button",
      disabled: options.preview === true,
      onclick: () => submit(value),
    }, typeof label === "string" && label ? label : t("formSubmit"));
    buttons.push(button);
    return button;
  }

  /// The values the response carries: what was entered, else the default, else null — as the server builds them.
  /// currentDateTime is now; currentLocation the last position the browser gave (the server fills both again).
  let lastPosition = null;
  function values() {
    const answer = {};
    for (const { json, id, built } of entries) {
      if (json.type === "currentDateTime") answer[id] = new Date().toISOString();
      else if (json.type === "currentLocation") answer[id] = lastPosition;
      else {
        const entered = built.value();
        answer[id] = entered ?? initialValue(json) ?? null;
      }
    }
    return answer;
  }

  function clearErrors() {
    summary.hidden = true;
    summary.replaceChildren();
    for (const { error, built } of entries) {
      error.hidden = true;
      error.textContent = "";
      for (const target of built.targets) target.removeAttribute("aria-invalid");
      built.element.classList.remove("invalid");
    }
  }

  /// Shows `problems` ([{field, message}]) on their fields; those of no field here go to the summary. The first
  /// problem's field gets the focus, so a keyboard or screen-reader user lands on it.
  function showErrors(problems) {
    clearErrors();
    const strays = [];
    let first = null;
    for (const { field, message } of problems ?? []) {
      const target = entries.find((candidate) => candidate.id === field);
      if (!target) {
        strays.push(field ? `${field}: ${message}` : message);
        continue;
      }
      target.error.textContent = target.error.textContent ? `${target.error.textContent} ${message}` : message;
      target.error.hidden = false;
      target.built.element.classList.add("invalid");
      for (const element of target.built.targets) element.setAttribute("aria-invalid", "true");
      first ??= target;
    }
    const count = (problems ?? []).length;
    if (count > 0) {
      summary.append(h("p", {}, t("formProblems", { count })));
      if (strays.length) summary.append(h("ul", {}, strays.map((text) => h("li", {}, text))));
      summary.hidden = false;
    }
    if (first) first.built.focus?.();
    else if (count > 0) summary.focus();
  }

  /// The problems the server would find, and uploads still under way.
  function problems(answer) {
    const found = [];
    for (const { json, id, built } of entries) {
      if (built.busy?.()) {
        found.push({ field: id, message: t("formStillUploading") });
        continue;
      }
      // The location is asked for when the form is sent; its absence is reported then.
      if (json.type === "currentLocation" || json.type === "currentDateTime") continue;
      const wrong = problem(json, answer[id]);
      if (wrong) found.push({ field: id, message: t(wrong.key, wrong.values) });
    }
    return found;
  }

  function validate() {
    const found = problems(values());
    showErrors(found);
    return found.length === 0;
  }

  /// Where the person is, for currentLocation fields: asked for only when the form has one.
  async function locate() {
    if (!entries.some(({ json }) => json.type === "currentLocation")) return undefined;
    if (!navigator.geolocation) return undefined;
    try {
      const position = await new Promise((resolve, reject) =>
        navigator.geolocation.getCurrentPosition(resolve, reject, { enableHighAccuracy: true, timeout: 15_000,
          maximumAge: 30_000 }));
      lastPosition = { longitude: position.coords.longitude, latitude: position.coords.latitude };
      return { lat: position.coords.latitude, lng: position.coords.longitude };
    } catch {
      lastPosition = null;
      return undefined;
    }
  }

  async function submit(submitValue) {
    if (sending || options.preview) return;
    if (!validate()) return;
    sending = true;
    for (const button of buttons) button.disabled = true;
    element.setAttribute("aria-busy", "true");
    try {
      const location = await locate();
      const answer = values();
      const missing = entries.filter(({ json, id }) => json.type === "currentLocation" && !answer[id]);
      if (missing.length > 0) {
        showErrors(missing.map(({ id }) => ({ field: id, message: t("formLocationRequired") })));
        return;
      }
      await options.onSubmit?.({ submitValue, values: answer, location });
    } finally {
      sending = false;
      for (const button of buttons) button.disabled = false;
      element.removeAttribute("aria-busy");
    }
  }

  // Asked for early, the browser's prompt comes while the person fills the form, not as they send it.
  if (!options.preview) locate();

  return { element, values, validate, showErrors };
}
