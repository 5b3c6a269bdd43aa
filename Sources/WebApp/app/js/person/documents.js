// The Documents tab: what this person uploaded (photos, audio and video of their answers), newest first; one
// opens in the page, fetched with the bearer token (a document is never public) and shown from a blob URL, and
// one can be removed (asked first), which frees the room it took of the person's storage quota.

import { api } from "../api.js";
import { formatTime, h, replace } from "../dom.js";
import { t } from "../texts.js";

/// The path of a document's name (`rcs/image/<uuid>.jpg`), each part escaped.
const documentPath = (name) => `/api/v1/documents/${name.split("/").map(encodeURIComponent).join("/")}`;

/// A document's content as a Blob (with its type), fetched with the session's token.
export async function fetchDocument(name) {
  const response = await api("GET", documentPath(name), { raw: true });
  return response.blob();
}

/// Uploads a captured file, as the form's `upload(blob, kind, extension)`; resolves with the document's name
/// (`rcs/image/<uuid>.jpg`) for the answer's value.
export async function uploadDocument(blob, kind, extension) {
  const query = new URLSearchParams();
  if (kind) query.set("kind", kind);
  if (extension) query.set("extension", extension);
  const uploaded = await api("POST", `/api/v1/documents?${query}`, {
    body: blob,
    headers: { "Content-Type": blob.type || "application/octet-stream" },
  });
  return uploaded.name;
}

/// A size in the binary units the server's limits use (a field's maxSizeK is in KiB), so the two can be compared.
function size(bytes) {
  const units = ["B", "KiB", "MiB", "GiB"];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${unit === 0 ? value : value.toFixed(1)} ${units[unit]}`;
}

export async function documentsView(main) {
  const documents = await api("GET", "/api/v1/documents");
  const viewer = h("section.viewer", { "aria-live": "polite" });
  const removal = h("section#document-removal.removal", { "aria-live": "polite" });
  let url = null;

  /// Asks before removing `document`, then takes it out of the list (and the viewer) and says so.
  function askRemoval(document) {
    const file = document.name.split("/").pop();
    const remove = async () => {
      try {
        await api("DELETE", documentPath(document.name));
        list.querySelector(`li.document[data-name="${CSS.escape(document.name)}"]`)?.remove();
        if (!list.querySelector("li.document")) list.append(h("li.empty", {}, t("noDocuments")));
        if (viewer.dataset.name === document.name) {
          if (url) URL.revokeObjectURL(url);
          url = null;
          replace(viewer);
        }
        replace(removal, h("p.ok", { role: "status" }, t("documentRemoved", { file })));
      } catch (error) {
        replace(removal, h("p.error", { role: "alert" }, t("failed", { message: error.message })));
      }
    };
    replace(
      removal,
      h("p", {}, t("documentRemoveQuestion", { file })),
      h("button.danger", { type: "button", dataset: { confirmDocumentRemoval: document.name }, onclick: remove },
        t("documentRemove")),
      " ",
      h("button.secondary", { type: "button", onclick: () => replace(removal) }, t("formCancel")),
    );
  }

  async function open(document) {
    replace(viewer, h("p.notice", {}, t("loading")));
    try {
      const blob = await fetchDocument(document.name);
      if (url) URL.revokeObjectURL(url);
      url = URL.createObjectURL(blob);
      const type = blob.type || document.contentType;
      const media = type.startsWith("image/")
        ? h("img", { src: url, alt: document.name })
        : type.startsWith("audio/")
        ? h("audio", { src: url, controls: true })
        : type.startsWith("video/")
        ? h("video", { src: url, controls: true, playsInline: true })
        : null;
      viewer.dataset.bytes = String(blob.size);
      viewer.dataset.name = document.name;
      replace(viewer, h("h2", {}, document.name), media,
        h("a", { href: url, download: document.name.split("/").pop() }, t("download")));
    } catch (error) {
      replace(viewer, h("p.error", { role: "alert" }, t("failed", { message: error.message })));
    }
  }

  const items = documents.length === 0
    ? h("li.empty", {}, t("noDocuments"))
    : documents.map((document) =>
      h(
        "li.document",
        { dataset: { name: document.name } },
        h("button.link", { type: "button", onclick: () => open(document) }, h("strong", {}, document.name.split("/").pop()),
          h("span", {}, `${t(`kind_${document.kind}`)} · ${size(document.size)}`)),
        h("time", { datetime: document.uploadedAt }, formatTime(document.uploadedAt)),
        h("button.secondary", {
          type: "button",
          dataset: { removeDocument: document.name },
          "aria-label": t("documentRemoveNamed", { file: document.name.split("/").pop() }),
          onclick: () => askRemoval(document),
        }, t("documentRemove")),
      )
    );
  const list = h("ul.inbox.documents", { "aria-label": t("documents") }, items);
  replace(main, h("h1", {}, t("documents")), removal, list, viewer);
  return () => {
    if (url) URL.revokeObjectURL(url);
  };
}
