/**
 * Where the API is and how to sign in: build-time values (web/.env, VITE_*) overridden by
 * an optional `config.json` served next to index.html (the gateway will serve it; the
 * browser test writes one).
 */

/**
 * The API's version prefix (the document's `servers`; the gateway also answers the
 * unversioned paths for older clients). The generated client's paths never carry it, so
 * nothing else changes with a version.
 */
export const API_PREFIX = "/v1";

/** The push channel's path under the prefix (a WebSocket; polling when it is missing). */
export const STREAM_PATH = "/stream";

export interface Auth0Config {
  domain: string;
  clientId: string;
}

export interface ClientConfig {
  /** Origin of the API, "" for the page's own. */
  apiOrigin: string;
  /** A {z}/{x}/{y} tile template, "" for no map (the list still works). */
  tilesUrl: string;
  tilesAttribution: string;
  /** The API identifier access tokens are issued for (Auth0's audience, the dev issuer's too). */
  audience: string;
  /** The token claim that lists the RBAC roles (Author). */
  rolesClaim: string;
  auth0: Auth0Config | null;
  devAuth: boolean;
  /** Seconds between refreshes when the push channel is not available. */
  pollSeconds: number;
}

const env = import.meta.env;

export function buildTimeConfig(): ClientConfig {
  const domain = (env.VITE_AUTH0_DOMAIN ?? "").trim();
  return {
    apiOrigin: (env.VITE_API_ORIGIN ?? "").trim(),
    tilesUrl: (env.VITE_TILES_URL ?? "").trim(),
    tilesAttribution: (env.VITE_TILES_ATTRIBUTION ?? "").trim(),
    audience: env.VITE_AUTH0_AUDIENCE || "https://api.deckyard.dev",
    rolesClaim: env.VITE_AUTH0_ROLES_CLAIM || "https://deckyard.dev/roles",
    auth0: domain ? { domain, clientId: env.VITE_AUTH0_CLIENT_ID ?? "" } : null,
    devAuth: DEV_AUTH_BUILT,
    pollSeconds: 5,
  };
}

/** False when built with VITE_DEV_AUTH=0: the development sign-in is then left out. */
export const DEV_AUTH_BUILT = (env.VITE_DEV_AUTH ?? "1") !== "0";

/** Runtime overrides win over build-time values; unknown members are ignored. */
export function mergeConfig(base: ClientConfig, runtime: Partial<ClientConfig>): ClientConfig {
  const merged = { ...base };
  if (typeof runtime.apiOrigin === "string") merged.apiOrigin = runtime.apiOrigin;
  if (typeof runtime.tilesUrl === "string") merged.tilesUrl = runtime.tilesUrl;
  if (typeof runtime.tilesAttribution === "string")
    merged.tilesAttribution = runtime.tilesAttribution;
  if (typeof runtime.audience === "string" && runtime.audience) merged.audience = runtime.audience;
  if (typeof runtime.rolesClaim === "string" && runtime.rolesClaim) merged.rolesClaim = runtime.rolesClaim;
  if (runtime.auth0 !== undefined) merged.auth0 = runtime.auth0;
  if (typeof runtime.devAuth === "boolean") merged.devAuth = runtime.devAuth && DEV_AUTH_BUILT;
  if (typeof runtime.pollSeconds === "number" && runtime.pollSeconds > 0)
    merged.pollSeconds = runtime.pollSeconds;
  return merged;
}

let current: ClientConfig = buildTimeConfig();

export function config(): ClientConfig {
  return current;
}

/** Reads config.json when there is one; a missing or broken file keeps the build's values. */
export async function loadConfig(fetcher: typeof fetch = fetch): Promise<ClientConfig> {
  try {
    const response = await fetcher(new URL("config.json", document.baseURI).toString());
    if (response.ok) current = mergeConfig(current, (await response.json()) as Partial<ClientConfig>);
  } catch {
    /* no runtime config: the build's */
  }
  return current;
}

/** The API's base URL: origin + prefix. */
export function apiBase(cfg: ClientConfig = current): string {
  return cfg.apiOrigin.replace(/\/$/, "") + API_PREFIX;
}

/** ws(s)://host/prefix/stream, from the API's origin or the page's. */
export function streamUrl(cfg: ClientConfig = current, page: Location = window.location): string {
  const origin = cfg.apiOrigin || page.origin;
  return origin.replace(/^http/, "ws").replace(/\/$/, "") + API_PREFIX + STREAM_PATH;
}
