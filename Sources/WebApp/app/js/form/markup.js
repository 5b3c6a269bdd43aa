// The markupImage field: a picture (from the camera, a file, or the payload's `source`: a document name or a web
// address) drawn on with a finger, pen or mouse on a canvas; "Use this picture" uploads the result as a JPEG image
// document, whose name is the field's value. Left alone, an optional field answers null, as the seed says.

import { h } from "../dom.js";
import { t } from "../texts.js";
import { takePhoto } from "./camera.js";
import { filePicker, mediaEntry, uploader } from "./capture.js";
import { domId } from "./shell.js";
import { isDocumentName, string } from "./rules.js";

const longestSide = 1600;
const pens = [
  { name: "formPenRed", colour: "#d7191c" },
  { name: "formPenYellow", colour: "#ffd400" },
  { name: "formPenBlue", colour: "#1f5bd1" },
];

export function markupField(field, index, options) {
  const labelId = domId(index, "label");
  const status = h("p.capture-status", { role: "status" });
  const media = uploader("image", options, status);
  const source = string(field, "source");
  const editor = h("div.markup-editor");
  const hasCamera = Boolean(navigator.mediaDevices?.getUserMedia);
  const placeholder = string(field, "placeholder")
    ?? (source === "camera" ? t("formMarkupCamera") : t("formMarkupImage"));

  const camera = h("button.capture", {
    type: "button", disabled: options.preview || !hasCamera,
    onclick: async () => {
      const photo = await takePhoto();
      if (photo) await edit(photo);
    },
  }, source === "camera" || !source ? placeholder : t("formTakePhoto"));
  const given = source && source !== "camera" ? h("button.capture", {
    type: "button",
    onclick: () => loadSource(),
  }, placeholder) : null;

  /// The payload's own picture: a document of this server (fetched with the person's token) or a web address.
  async function loadSource() {
    try {
      if (isDocumentName(source, "image") && options.fetchDocument) {
        await edit(await options.fetchDocument(source));
      } else if (/^https?:\/\//.test(source)) {
        const response = await fetch(source, { mode: "cors" });
        await edit(await response.blob());
      } else {
        status.textContent = t("formNoSource");
      }
    } catch (error) {
      status.textContent = t("formSourceFailed", { message: error.message });
    }
  }

  async function edit(blob) {
    media.clear();
    let picture;
    try {
      picture = await createImageBitmap(blob);
    } catch (error) {
      status.textContent = t("formSourceFailed", { message: error.message });
      return;
    }
    const scale = Math.min(1, longestSide / Math.max(picture.width, picture.height));
    const canvas = h("canvas.markup", {
      width: Math.round(picture.width * scale),
      height: Math.round(picture.height * scale),
      "aria-label": t("formMarkupCanvas"),
      role: "img",
    });
    const context = canvas.getContext("2d");
    const paint = () => context.drawImage(picture, 0, 0, canvas.width, canvas.height);
    paint();
    let pen = pens[0].colour;
    let last = null;
    // The canvas shows at the page's width: pointer positions are scaled to its pixels.
    const at = (event) => {
      const box = canvas.getBoundingClientRect();
      return { x: ((event.clientX - box.left) * canvas.width) / box.width,
        y: ((event.clientY - box.top) * canvas.height) / box.height };
    };
    canvas.addEventListener("pointerdown", (event) => {
      canvas.setPointerCapture(event.pointerId);
      last = at(event);
    });
    canvas.addEventListener("pointermove", (event) => {
      if (!last) return;
      const point = at(event);
      context.strokeStyle = pen;
      context.lineWidth = Math.max(4, canvas.width / 150);
      context.lineCap = "round";
      context.beginPath();
      context.moveTo(last.x, last.y);
      context.lineTo(point.x, point.y);
      context.stroke();
      last = point;
    });
    for (const end of ["pointerup", "pointercancel"]) canvas.addEventListener(end, () => { last = null; });
    const penButtons = pens.map((choice, position) => {
      const button = h("button.pen", {
        type: "button", "aria-pressed": position === 0 ? "true" : "false",
        onclick: () => {
          pen = choice.colour;
          for (const other of penButtons) other.setAttribute("aria-pressed", other === button ? "true" : "false");
        },
      }, t(choice.name));
      button.style.borderColor = choice.colour;
      return button;
    });
    const use = h("button.markup-done", {
      type: "button", disabled: options.preview,
      onclick: async () => {
        const jpeg = await new Promise((resolve) => canvas.toBlob(resolve, "image/jpeg", 0.85));
        await media.take(jpeg);
      },
    }, t("formUseMarkup"));
    editor.replaceChildren(
      canvas,
      h("div.actions", {}, penButtons, h("button.secondary", { type: "button", onclick: () => {
        paint();
        media.clear();
      } }, t("formClearMarks")), use),
    );
    use.focus();
  }

  return mediaEntry(field, index, labelId, media,
    [given, camera, filePicker(domId(index, "file"), "image/*", undefined, (file) => edit(file), options.preview)],
    editor, status);
}
