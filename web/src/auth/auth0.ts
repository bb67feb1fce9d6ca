/**
 * Auth0 Universal Login with PKCE (authorization code flow; @auth0/auth0-spa-js does the
 * code verifier and challenge). The access token is for the API's audience; the gateway
 * verifies it against the tenant's JWKS.
 */
import type { Auth0Client } from "@auth0/auth0-spa-js";

import { type Auth0Config, config } from "../config";
import { type Session, sessionFromToken } from "./session";

let client: Promise<Auth0Client> | null = null;

function auth0(cfg: Auth0Config): Promise<Auth0Client> {
  client ??= import("@auth0/auth0-spa-js").then(({ createAuth0Client }) =>
    createAuth0Client({
      domain: cfg.domain,
      clientId: cfg.clientId,
      authorizationParams: { audience: config().audience, redirect_uri: window.location.origin + window.location.pathname },
      cacheLocation: "memory",
      useRefreshTokens: true,
    }),
  );
  return client;
}

/** To Auth0's page; `max_age: 0` when a fresh sign-in is needed (deleting the account). */
export async function signInWithAuth0(cfg: Auth0Config, fresh = false): Promise<void> {
  const c = await auth0(cfg);
  await c.loginWithRedirect({ authorizationParams: fresh ? { max_age: 0, prompt: "login" } : {} });
}

/** Back from Auth0 (?code=&state=): the session, or null when this is not a callback. */
export async function completeAuth0SignIn(cfg: Auth0Config): Promise<Session | null> {
  const params = new URLSearchParams(window.location.search);
  if (!params.has("code") || !params.has("state")) return null;
  const c = await auth0(cfg);
  await c.handleRedirectCallback();
  window.history.replaceState({}, document.title, window.location.pathname + window.location.hash);
  const token = await c.getTokenSilently();
  return sessionFromToken(String(token), "auth0", config().rolesClaim);
}

export async function signOutOfAuth0(cfg: Auth0Config): Promise<void> {
  const c = await auth0(cfg);
  await c.logout({ logoutParams: { returnTo: window.location.origin + window.location.pathname } });
}
