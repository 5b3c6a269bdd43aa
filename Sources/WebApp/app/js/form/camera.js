// The camera in a modal dialog (a <dialog>: focus stays inside, Escape closes it): a live preview the photo,
// markup and barcode fields take a picture from or scan. The camera is released whenever the dialog closes.

import { h } from "../dom.js";
import { t } from "../texts.js";

/// Opens the camera; resolves what `act` resolves, or null when the person cancels or there is no camera.
/// `act({video, dialog, done})` sets up the dialog's own buttons and calls `done(result)` to close it.
export function withCamera(title, act, constraints = { video: { facingMode: "environment" }, audio: false }) {
  return new Promise((resolve) => {
    const video = h("video.camera-preview", { autoplay: true, muted: true, playsInline: true });
    video.muted = true;
    const status = h("p.capture-status", { role: "status" });
    const actions = h("div.actions");
    const dialog = h("dialog.camera", { "aria-label": title }, h("h2", {}, title), video, status, actions);
    let stream = null;
    let result = null;
    const done = (value) => {
      result = value;
      dialog.close();
    };
    dialog.addEventListener("close", () => {
      for (const track of stream?.getTracks() ?? []) track.stop();
      dialog.remove();
      resolve(result);
    });
    actions.append(h("button.secondary", { type: "button", onclick: () => done(null) }, t("formCancel")));
    document.body.append(dialog);
    dialog.showModal();
    navigator.mediaDevices
      .getUserMedia(constraints)
      .then(async (media) => {
        stream = media;
        if (!dialog.open) {
          for (const track of media.getTracks()) track.stop();
          return;
        }
        video.srcObject = media;
        await video.play().catch(() => {});
        act({ video, dialog, actions, status, done, stream: media });
      })
      .catch((error) => {
        status.textContent = t("formNoCamera", { message: error.message });
      });
  });
}

/// The picture the preview shows now, as a JPEG.
export function snapshot(video, quality = 0.85) {
  const canvas = document.createElement("canvas");
  canvas.width = video.videoWidth || 640;
  canvas.height = video.videoHeight || 480;
  canvas.getContext("2d").drawImage(video, 0, 0, canvas.width, canvas.height);
  return new Promise((resolve) => canvas.toBlob(resolve, "image/jpeg", quality));
}

/// Takes one photo with the camera; resolves a JPEG blob, or null.
export function takePhoto() {
  return withCamera(t("formTakePhoto"), ({ video, actions, done }) => {
    const shoot = h("button", { type: "button", onclick: async () => done(await snapshot(video)) }, t("formShoot"));
    actions.prepend(shoot);
    shoot.focus();
  });
}
