// Sending answers. (For now straight to the server; answers given offline are to be kept in IndexedDB and sent
// in order, once, when the connection returns.)

import { api } from "../api.js";

/// Sends an answer: `path` is the response route (`/api/v1/messages/{id}/response` or
/// `/api/v1/requests/{name}/response`), `body` its JSON. Resolves `{sent: true, answer}` with the server's
/// response object, or `{queued: true}` when it is kept to send later. A refusal (422 with field errors, 409…)
/// is thrown as the APIError.
export async function submitAnswer(path, body) {
  const answer = await api("POST", path, { json: body });
  return { sent: true, answer };
}
