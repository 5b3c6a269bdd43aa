// Signing in at an OpenID Connect issuer (`serve --auth oauth`): the authorization code flow with PKCE, as a
// public client (RFC 7636). The issuer's ID token, whose audience is the client id, is the bearer the API checks;
// a refresh token, when the issuer gives one, gets the next.

import { session } from "../api.js";

const pendingKey = "muster.signin";

function base64url(bytes) {
  return btoa(String.fromCharCode(...new Uint8Array(bytes))).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

const randomText = () => base64url(crypto.getRandomValues(new Uint8Array(32)));
const redirectAddress = () => `${location.origin}/`;

/// Sends the browser to the issuer to sign in; it comes back to `/?code=…&state=…`.
export async function signIn(sso) {
  const verifier = randomText();
  const state = randomText();
  const challenge = base64url(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier)));
  sessionStorage.setItem(pendingKey, JSON.stringify({ verifier, state, hash: location.hash }));
  const address = new URL(sso.authorizationEndpoint);
  for (const [name, value] of Object.entries({
    response_type: "code", client_id: sso.clientId, redirect_uri: redirectAddress(), scope: sso.scope, state,
    code_challenge: challenge, code_challenge_method: "S256",
  })) {
    address.searchParams.set(name, value);
  }
  location.assign(address);
}

/// Finishes a sign-in when the issuer sent the browser back: trades the code for tokens and keeps them. False when
/// this page was not opened by the issuer; throws (with the issuer's words) when it refused.
export async function finishSignIn(sso) {
  const answer = new URLSearchParams(location.search);
  if (!answer.has("code") && !answer.has("error")) return false;
  const pending = JSON.parse(sessionStorage.getItem(pendingKey) ?? "null");
  sessionStorage.removeItem(pendingKey);
  history.replaceState(null, "", `/${pending?.hash ?? ""}`);
  if (answer.has("error")) throw new Error(answer.get("error_description") ?? answer.get("error"));
  if (!pending || answer.get("state") !== pending.state) {
    throw new Error("the issuer's answer is not for a sign-in started in this browser tab; sign in again");
  }
  await exchange(sso, {
    grant_type: "authorization_code", code: answer.get("code"), redirect_uri: redirectAddress(),
    client_id: sso.clientId, code_verifier: pending.verifier,
  });
  return true;
}

/// A new ID token for the kept refresh token; throws when the issuer gives none.
export function refreshSignIn(sso, refreshToken) {
  return exchange(sso, { grant_type: "refresh_token", refresh_token: refreshToken, client_id: sso.clientId });
}

async function exchange(sso, form) {
  let response;
  try {
    response = await fetch(sso.tokenEndpoint, { method: "POST", body: new URLSearchParams(form) });
  } catch (error) {
    throw new Error(`the issuer cannot be reached (${error.message})`);
  }
  const body = await response.json().catch(() => ({}));
  if (!response.ok || typeof body.id_token !== "string") {
    throw new Error(body.error_description ?? body.error ?? `the issuer answered HTTP ${response.status} without an ID token`);
  }
  session.set({ accessToken: body.id_token, refreshToken: body.refresh_token, singleSignOn: true });
}
