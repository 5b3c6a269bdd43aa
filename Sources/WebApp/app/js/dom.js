// Building the page: h("tag#id.class", {attribute: value, onclick: fn}, children…). Text is always set as text,
// never parsed as HTML.

export function h(tag, properties = {}, ...children) {
  const [nameAndId, ...classes] = tag.split(".");
  const [name, id] = nameAndId.split("#");
  const element = document.createElement(name);
  if (id) element.id = id;
  if (classes.length) element.className = classes.join(" ");
  for (const [key, value] of Object.entries(properties ?? {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") element.addEventListener(key.slice(2), value);
    else if (key === "dataset") Object.assign(element.dataset, value);
    else if (key in element && typeof value !== "string") element[key] = value;
    else element.setAttribute(key, value === true ? "" : String(value));
  }
  append(element, children);
  return element;
}

export function append(element, children) {
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    element.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return element;
}

/// Replaces everything in `element` with `children`.
export function replace(element, ...children) {
  element.replaceChildren();
  return append(element, children);
}

/// A time as the reader's locale writes it.
export function formatTime(iso) {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? String(iso ?? "") : date.toLocaleString();
}
