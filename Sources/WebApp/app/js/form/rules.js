// The server's response rules (Sources/Forms/Response and Sources/Forms/Validation), written again for the browser
// so a person learns what is wrong before sending. The server stays the authority: it checks every answer again.

/// The field types that always put a value into the response (FieldType.requiresID); a map does when it has an id.
const valueTypes = new Set([
  "audio", "barcode", "camera", "checkbox", "currentDateTime", "currentLocation", "date", "datetime", "droplist",
  "inputInteger", "inputReal", "inputString", "markupImage", "radioButtons", "video",
]);

/// The 24 types of seed 000; any other is ignored, as the seed says.
export const fieldTypes = new Set([
  ...valueTypes, "buttonCluster", "dashboard", "document", "footerButton", "image", "inlineButton", "map",
  "sectionLabel", "text",
]);

const isObject = (value) => value !== null && typeof value === "object" && !Array.isArray(value);
const isNumber = (value) => typeof value === "number" && Number.isFinite(value);

/// A property as the server reads it: an explicit null counts as absent.
export function property(field, key) {
  const value = field[key];
  return value === null ? undefined : value;
}

export const string = (field, key) => (typeof property(field, key) === "string" ? field[key] : undefined);
export const number = (field, key) => (isNumber(property(field, key)) ? field[key] : undefined);
export const flag = (field, key) => property(field, key) === true;

/// Whether the field's value goes into the response's `values` (Field.producesValue).
export function producesValue(field) {
  return typeof field.id === "string" && (valueTypes.has(field.type) || field.type === "map");
}

/// `{longitude, latitude}` from either of the seed's forms (MapPoint), or null.
export function mapPoint(value) {
  if (!isObject(value)) return null;
  let longitude;
  let latitude;
  if (value.type === "Point") {
    if (!Array.isArray(value.coordinates) || value.coordinates.length !== 2) return null;
    [longitude, latitude] = value.coordinates;
  } else {
    ({ longitude, latitude } = value);
  }
  if (!isNumber(longitude) || !isNumber(latitude)) return null;
  if (longitude < -180 || longitude > 180 || latitude < -90 || latitude > 90) return null;
  return { longitude, latitude };
}

/// A number field's settings with the seed's defaults (NumberField).
export function numberSettings(field) {
  return {
    isInteger: field.type === "inputInteger",
    slider: property(field, "flavor") === "slider",
    minValue: number(field, "minValue") ?? 0,
    maxValue: number(field, "maxValue") ?? 100,
    defaultValue: number(field, "default"),
  };
}

/// The enumerated values of a droplist or radioButtons field as `[{label, value}]` (ChoiceField.values): all
/// strings is the simple form, anything else the labelled one, whose malformed entries the server drops.
export function choices(field) {
  const raw = Array.isArray(field.values) ? field.values : [];
  if (raw.every((entry) => typeof entry === "string")) return raw.map((entry) => ({ label: entry, value: entry }));
  return raw
    .filter((entry) => isObject(entry) && typeof entry.label === "string"
      && (typeof entry.value === "string" || isNumber(entry.value)))
    .map(({ label, value }) => ({ label, value }));
}

/// The value the server fills in when the person leaves the field alone (Field.initialValue), or undefined.
export function initialValue(field) {
  switch (field.type) {
    case "checkbox":
      return property(field, "default") === true;
    case "barcode":
    case "inputString":
    case "date":
    case "datetime":
      return string(field, "default");
    case "droplist":
    case "radioButtons":
      return property(field, "default");
    case "inputInteger":
    case "inputReal": {
      const settings = numberSettings(field);
      return settings.slider ? settings.defaultValue ?? settings.minValue : settings.defaultValue;
    }
    case "map":
      return mapPoint(property(field, "default")) ?? undefined;
    default:
      return undefined;
  }
}

/// Whether the response may carry null for the field (Field.acceptsNull): an optional field without a default,
/// or any checkbox; a slider always has a value.
export function acceptsNull(field) {
  const optional = flag(field, "optional");
  switch (field.type) {
    case "checkbox":
      return true;
    case "audio":
    case "camera":
    case "video":
    case "markupImage":
      return optional;
    case "barcode":
    case "inputString":
    case "date":
    case "datetime":
    case "droplist":
    case "radioButtons":
    case "map":
      return optional && initialValue(field) === undefined;
    case "inputInteger":
    case "inputReal":
      return !numberSettings(field).slider && optional && numberSettings(field).defaultValue === undefined;
    default:
      return false;
  }
}

/// The media kind a capture field's document belongs to (MediaKind).
export function mediaKind(type) {
  return { audio: "audio", video: "video", camera: "image", markupImage: "image" }[type];
}

/// Whether `name` is `rcs/<kind>/<file>` with no further folders or spaces (MediaKind.isDocumentName).
export function isDocumentName(name, kind) {
  const prefix = `rcs/${kind}/`;
  if (typeof name !== "string" || !name.startsWith(prefix)) return false;
  const file = name.slice(prefix.length);
  return file.length > 0 && !file.includes("/") && !/\s/.test(file);
}

function isCalendarDate(year, month, day) {
  if (month < 1 || month > 12) return false;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const lengths = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
  return day >= 1 && day <= lengths[month - 1];
}

/// `YYYY-MM-DD` (ISODate.isDate).
export function isDate(text) {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  return match !== null && isCalendarDate(Number(match[1]), Number(match[2]), Number(match[3]));
}

/// `YYYY-MM-DDTHH:MM`, optional `:SS` and fraction, optional `Z` or `±HH:MM` (ISODate.isDateTime).
export function isDateTime(text) {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(?:Z|[+-](\d{2}):(\d{2}))?$/.exec(text);
  if (match === null || !isCalendarDate(Number(match[1]), Number(match[2]), Number(match[3]))) return false;
  const [hour, minute, second, zoneHour, zoneMinute] = [4, 5, 6, 7, 8].map((i) => Number(match[i] ?? 0));
  return hour < 24 && minute < 60 && second < 61 && zoneHour < 24 && zoneMinute < 60;
}

/// What is wrong with `value` as the field's response value, as a text key of texts.js and its values, or null
/// (Field.check(answer:)). `value` is what the response will carry: the answer, else the default, else null.
export function problem(field, value) {
  if (value === null || value === undefined) {
    return acceptsNull(field) ? null : { key: requiredKey(field) };
  }
  switch (field.type) {
    case "audio":
    case "camera":
    case "markupImage":
    case "video":
      return isDocumentName(value, mediaKind(field.type)) ? null : { key: "formBadDocument" };
    case "barcode":
    case "inputString":
      return typeof value === "string" ? null : { key: "formNotText" };
    case "checkbox":
      return typeof value === "boolean" ? null : { key: "formNotBoolean" };
    case "currentDateTime":
      return typeof value === "string" && isDateTime(value) ? null : { key: "formBadDateTime" };
    case "date":
      return typeof value === "string" && isDate(value) ? null : { key: "formBadDate" };
    case "datetime":
      return typeof value === "string" && isDateTime(value) ? null : { key: "formBadDateTime" };
    case "currentLocation":
    case "map":
      return mapPoint(value) ? null : { key: "formBadLocation" };
    case "droplist":
    case "radioButtons":
      return choices(field).some((choice) => choice.value === value) ? null : { key: "formNotInValues" };
    case "inputInteger":
    case "inputReal": {
      const { isInteger, minValue, maxValue } = numberSettings(field);
      if (!isNumber(value)) return { key: "formNotNumber" };
      if (isInteger && !Number.isInteger(value)) return { key: "formNotInteger" };
      if (minValue <= maxValue && (value < minValue || value > maxValue)) {
        return { key: "formOutOfRange", values: { min: minValue, max: maxValue } };
      }
      return null;
    }
    default:
      return null;
  }
}

/// The words for a missing value: each kind of field asks for it its own way.
function requiredKey(field) {
  switch (field.type) {
    case "audio":
    case "video":
      return "formRecordingRequired";
    case "camera":
      return "formPhotoRequired";
    case "markupImage":
      return "formMarkupRequired";
    case "droplist":
    case "radioButtons":
      return "formChoiceRequired";
    case "map":
      return "formPointRequired";
    case "currentLocation":
      return "formLocationRequired";
    default:
      return "formRequired";
  }
}

/// The `submitValue`s the payload's buttons declare; empty when the app adds its own Submit button (value 0).
export function buttonValues(fields) {
  return fields.flatMap((field) => {
    if (field.type === "footerButton" || field.type === "inlineButton") {
      return Number.isInteger(field.value) ? [field.value] : [];
    }
    if (field.type === "buttonCluster" && Array.isArray(field.values)) {
      return field.values.filter((button) => Number.isInteger(button?.value)).map((button) => button.value);
    }
    return [];
  });
}
