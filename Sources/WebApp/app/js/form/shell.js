// What every field has around its control: a label styled as the payload says, an id the label and the error
// point at, and an error line the control names with aria-describedby.

import { h } from "../dom.js";
import { property, string } from "./rules.js";

const colour = /^#[0-9a-fA-F]{6}$/;

/// Applies the seed's four label styling properties. Only those the payload sets are applied: the app's own
/// styles stand for the rest, so an unstyled form reads like the rest of the app.
export function applyLabelStyle(element, field, { size = "size", color = "color", style = "style" } = {}) {
  const fontSize = Number(property(field, size));
  if (Number.isFinite(fontSize) && fontSize > 0) element.style.fontSize = `${fontSize}px`;
  if (["left", "right", "center"].includes(field.align)) element.style.textAlign = field.align;
  if (colour.test(string(field, color) ?? "")) element.style.color = field[color];
  const fontStyle = string(field, style);
  if (fontStyle === "bold" || fontStyle === "bold-italic") element.style.fontWeight = "700";
  if (fontStyle === "italic" || fontStyle === "bold-italic") element.style.fontStyle = "italic";
  return element;
}

/// The DOM ids of field number `index`: field ids come from the payload and may hold any character, so they only
/// go into data attributes.
export function domId(index, part = "input") {
  return `field-${index}-${part}`;
}

/// The field's label for the control `forId`, or null when the payload gives none.
export function fieldLabel(field, forId, tag = "label") {
  const text = string(field, "label");
  if (!text) return null;
  return applyLabelStyle(h(`${tag}.field-label`, tag === "label" ? { for: forId } : { id: forId || undefined }, text), field);
}

/// A field's box: `data-field-id` and `data-type` say which field it is (the tests and the styles use them).
export function fieldBox(field, index, ...children) {
  return h(
    "div.field",
    { dataset: { fieldId: typeof field.id === "string" ? field.id : "", type: field.type, index: String(index) } },
    children,
  );
}

/// Adds `id` to the element's aria-describedby, keeping the ids already there.
export function describedBy(element, id) {
  const ids = new Set((element.getAttribute("aria-describedby") ?? "").split(" ").filter(Boolean));
  ids.add(id);
  element.setAttribute("aria-describedby", [...ids].join(" "));
}
