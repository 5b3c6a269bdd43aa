// A field of each of seed 000's 24 types with sensible defaults, for the editor's "add a field" buttons. Fields
// that answer get an id not yet used in the payload (`droplist1`, `droplist2`, …).

const templates = {
  sectionLabel: () => ({ label: "Section", size: 20, style: "bold" }),
  text: () => ({ label: "Some text to read." }),
  inputString: () => ({ label: "Your answer", placeholder: "Type here" }),
  inputInteger: () => ({ label: "How many?", minValue: 0, maxValue: 100 }),
  inputReal: () => ({ label: "How much?", minValue: 0, maxValue: 1000, units: "kg" }),
  checkbox: () => ({ label: "Confirm", checkboxLabel: "I confirm", default: false }),
  droplist: () => ({ label: "Pick one", values: ["Red", "Green", "Blue"] }),
  radioButtons: () => ({ label: "Pick one", values: ["Yes", "No"] }),
  date: () => ({ label: "Date" }),
  datetime: () => ({ label: "Date and time" }),
  currentDateTime: () => ({ label: "Now" }),
  currentLocation: () => ({ label: "Where you are" }),
  map: () => ({
    label: "Where?",
    location: { latitude: 48.8566, longitude: 2.3522 },
    markers: [{ label: "Here", latitude: 48.8566, longitude: 2.3522, color: "red" }],
  }),
  barcode: () => ({ label: "Scan the code" }),
  camera: () => ({ label: "Take a photo", optional: true }),
  audio: () => ({ label: "Record a message", maxDurationSeconds: 30, optional: true }),
  video: () => ({ label: "Record a video", maxDurationSeconds: 10, optional: true }),
  markupImage: () => ({ label: "Mark up a photo", source: "camera", optional: true }),
  image: () => ({ label: "A picture", url: "https://example.org/picture.jpg" }),
  document: () => ({ label: "Read this", flavor: "html", url: "https://example.org/" }),
  dashboard: () => ({ label: "Dashboard" }),
  inlineButton: () => ({ buttonLabel: "OK", value: 1 }),
  footerButton: () => ({ buttonLabel: "Send", value: 2 }),
  buttonCluster: () => ({
    label: "Choose",
    values: [
      { label: "Accept", value: 3 },
      { label: "Decline", value: 4 },
    ],
  }),
};

/// The field types in the order the editor offers them.
export const fieldTypes = Object.keys(templates);

/// Whether a field of this type carries an id (it answers a value).
const answering = new Set([
  "audio", "barcode", "camera", "checkbox", "currentDateTime", "currentLocation", "date", "datetime", "droplist",
  "inputInteger", "inputReal", "inputString", "markupImage", "radioButtons", "video",
]);

/// A new field of `type` for `payload` (its ids and button values kept unique).
export function newField(type, payload) {
  const fields = Array.isArray(payload.fields) ? payload.fields : [];
  const field = { type, ...templates[type]() };
  if (answering.has(type)) {
    const ids = new Set(fields.map((f) => f?.id));
    let n = 1;
    while (ids.has(`${type}${n}`)) n += 1;
    field.id = `${type}${n}`;
  }
  // Buttons need distinct submit values: take the next free ones.
  const used = new Set(
    fields.flatMap((f) => [f?.value, ...(Array.isArray(f?.values) ? f.values.map((v) => v?.value) : [])]).filter(Number.isInteger),
  );
  const next = () => {
    let value = 1;
    while (used.has(value)) value += 1;
    used.add(value);
    return value;
  };
  if (type === "inlineButton" || type === "footerButton") field.value = next();
  if (type === "buttonCluster") field.values = field.values.map((v) => ({ ...v, value: next() }));
  return { id: field.id, type: field.type, ...field };
}
