// The capture fields: camera (a photo), audio and video (a clip recorded with MediaRecorder). What is captured is
// uploaded at once with options.upload(blob, kind, extension); the field's value is the document name the server
// gives it (rcs/image/…, rcs/audio/…, rcs/video/…), which is what the server's rules accept for these fields.
// A file picker is always there too: for browsers without a camera or microphone, and for files taken earlier.

import { h } from "../dom.js";
import { t } from "../texts.js";
import { takePhoto } from "./camera.js";
import { domId, fieldBox, fieldLabel } from "./shell.js";
import { mediaKind, number, string } from "./rules.js";

/// The recording formats tried in order: MP4 plays on every phone; WebM and Ogg where MP4 recording is missing.
const recordingTypes = {
  audio: ["audio/mp4", "audio/ogg;codecs=opus", "audio/webm;codecs=opus", "audio/webm"],
  video: ["video/mp4", "video/webm;codecs=vp8,opus", "video/webm"],
};

/// The file extension the upload names for a media type, e.g. `audio/mp4` → `m4a`.
export function extensionOf(type, kind) {
  const base = type.split(";")[0].trim();
  const known = {
    "image/jpeg": "jpg", "image/png": "png", "image/gif": "gif", "image/webp": "webp", "image/heic": "heic",
    "image/heif": "heif", "image/avif": "avif", "audio/mp4": "m4a", "audio/x-m4a": "m4a", "audio/mpeg": "mp3",
    "audio/aac": "aac", "audio/wav": "wav", "audio/x-wav": "wav", "audio/ogg": "ogg", "audio/webm": "webm",
    "audio/flac": "flac", "audio/amr": "amr", "video/mp4": "mp4", "video/quicktime": "mov", "video/webm": "webm",
    "video/3gpp": "3gp", "video/x-matroska": "mkv",
  };
  return known[base] ?? (kind === "image" ? "jpg" : kind === "audio" ? "m4a" : "mp4");
}

/// The captured media's state and its upload: shared by the capture fields and markupImage.
export function uploader(kind, { upload, preview }, status) {
  const state = { name: null, busy: false };
  let generation = 0;
  return {
    state,
    /// Uploads `blob` and makes its document name the value; a later capture wins over an earlier upload.
    async take(blob) {
      const mine = ++generation;
      state.name = null;
      delete status.dataset.state;
      if (preview || typeof upload !== "function") {
        status.textContent = t("formPreviewNoUpload");
        return;
      }
      state.busy = true;
      status.textContent = t("formUploading");
      status.dataset.state = "uploading";
      try {
        // The server wants the media type alone: MediaRecorder's "audio/webm;codecs=opus" is sent as audio/webm.
        const type = (blob.type || "").split(";")[0].trim();
        const body = type === blob.type ? blob : new Blob([blob], { type });
        const name = await upload(body, kind, extensionOf(type, kind));
        if (mine !== generation) return;
        state.name = name;
        status.textContent = t("formUploaded");
        status.dataset.state = "uploaded";
      } catch (error) {
        if (mine !== generation) return;
        status.textContent = t("formUploadFailed", { message: error.message });
        status.dataset.state = "failed";
      } finally {
        if (mine === generation) state.busy = false;
      }
    },
    clear() {
      generation++;
      state.name = null;
      state.busy = false;
      status.textContent = "";
      delete status.dataset.state;
    },
  };
}

/// A file input styled as a button (its label), for choosing media from the device.
export function filePicker(id, accept, capture, onFile, disabled) {
  const input = h("input.file-input", {
    id, type: "file", accept, capture, disabled,
    onchange: () => {
      const [file] = input.files;
      if (file) onFile(file);
      input.value = "";
    },
  });
  return [input, h("label.button.secondary", { for: id }, t("formChooseFile"))];
}

export function captureField(field, index, options) {
  const kind = mediaKind(field.type);
  const labelId = domId(index, "label");
  const status = h("p.capture-status", { id: domId(index, "status"), role: "status" });
  const result = h("div.capture-result");
  const media = uploader(kind, options, status);
  let objectURL = null;

  function show(blob) {
    if (objectURL) URL.revokeObjectURL(objectURL);
    objectURL = URL.createObjectURL(blob);
    const player =
      kind === "image"
        ? h("img.captured", { src: objectURL, alt: t("formCapturedPhoto") })
        : h(`${kind}.captured`, { src: objectURL, controls: true });
    result.replaceChildren(player, remove);
    media.take(blob);
  }

  const remove = h("button.secondary", {
    type: "button",
    onclick: () => {
      media.clear();
      result.replaceChildren();
      if (objectURL) URL.revokeObjectURL(objectURL);
      objectURL = null;
      group.querySelector("button:not([disabled])")?.focus();
    },
  }, t("formRemove"));

  const placeholder = string(field, "placeholder") ?? (kind === "image" ? t("formTakePhoto") : t("formStartRecording"));
  const hasDevices = Boolean(navigator.mediaDevices?.getUserMedia);
  const primary =
    kind === "image"
      ? h("button.capture", {
        type: "button", disabled: options.preview || !hasDevices,
        onclick: async () => {
          const photo = await takePhoto();
          if (photo) show(photo);
          primary.focus();
        },
      }, placeholder)
      : recorder(field, kind, placeholder, options.preview || !hasDevices, show, result);

  const accept = { image: "image/*", audio: "audio/*", video: "video/*" }[kind];
  const capture = kind === "image" ? "environment" : undefined;
  return mediaEntry(field, index, labelId, media,
    [primary, filePicker(domId(index, "file"), accept, capture, show, options.preview)], result, status);
}

/// The entry of a field answered with an uploaded document (camera, audio, video, markupImage): its label, its
/// buttons, what was captured and the upload's status, as one group; its value is the uploaded document's name.
export function mediaEntry(field, index, labelId, media, actions, shown, status) {
  const heading = fieldLabel(field, labelId, "p") ?? h("p.visually-hidden", { id: labelId }, field.id ?? field.type);
  const group = h(
    "div.capture",
    { role: "group", "aria-labelledby": labelId },
    h("div.actions", {}, actions),
    shown,
    status,
  );
  return {
    element: fieldBox(field, index, heading, group),
    value: () => media.state.name,
    busy: () => media.state.busy,
    focus: () => group.querySelector("button:not([disabled])")?.focus(),
    targets: [group],
  };
}

/// The record / stop button of an audio or video field: at most maxDurationSeconds, at a bit rate that keeps the
/// clip within maxSizeK; a video shows what the camera sees while it records.
function recorder(field, kind, placeholder, disabled, onClip, result) {
  const seconds = number(field, "maxDurationSeconds") ?? 10;
  const sizeK = number(field, "maxSizeK") ?? (kind === "video" ? 1000 : 100);
  let session = null;

  const button = h("button.capture", { type: "button", disabled, "aria-pressed": "false", onclick: toggle },
    placeholder);
  const clock = h("span.record-clock", { "aria-hidden": "true" });

  async function toggle() {
    if (session) {
      session.recorder.stop();
      return;
    }
    let stream;
    try {
      stream = await navigator.mediaDevices.getUserMedia({ audio: true, video: kind === "video" });
    } catch (error) {
      result.replaceChildren(h("p.error", {}, t("formNoMicrophone", { message: error.message })));
      return;
    }
    const type = recordingTypes[kind].find((candidate) => MediaRecorder.isTypeSupported(candidate)) ?? "";
    const bits = Math.max(16_000, Math.floor((sizeK * 8192 * 0.9) / Math.max(seconds, 1)));
    const settings = { mimeType: type || undefined };
    if (kind === "video") {
      settings.videoBitsPerSecond = Math.max(bits - 32_000, 100_000);
      settings.audioBitsPerSecond = 32_000;
    } else {
      settings.audioBitsPerSecond = bits;
    }
    const chunks = [];
    const recorder = new MediaRecorder(stream, settings);
    const started = Date.now();
    session = { recorder, stream };
    recorder.addEventListener("dataavailable", (event) => {
      if (event.data.size > 0) chunks.push(event.data);
    });
    recorder.addEventListener("stop", () => {
      for (const track of stream.getTracks()) track.stop();
      clearInterval(session.tick);
      clearTimeout(session.limit);
      session = null;
      button.textContent = placeholder;
      button.setAttribute("aria-pressed", "false");
      clock.textContent = "";
      onClip(new Blob(chunks, { type: recorder.mimeType || type || `${kind}/webm` }));
      button.focus();
    });
    if (kind === "video") {
      const live = h("video.captured", { autoplay: true, playsInline: true });
      live.muted = true;
      live.srcObject = stream;
      result.replaceChildren(live);
    } else {
      result.replaceChildren();
    }
    recorder.start(250);
    button.textContent = t("formStopRecording");
    button.setAttribute("aria-pressed", "true");
    // The clock and the stop at the longest allowed clip are the recording's own limits, not waits.
    session.tick = setInterval(() => {
      clock.textContent = t("formRecordingClock", { done: Math.round((Date.now() - started) / 1000), of: seconds });
    }, 500);
    session.limit = setTimeout(() => session?.recorder.stop(), seconds * 1000);
  }

  return h("span.recorder", {}, button, clock);
}
