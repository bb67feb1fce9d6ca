/**
 * Development sign-in (DEV_AUTH=1 on the gateway only): a token from the project's own
 * development issuer for a chosen name and role.
 *
 * The gateway has no route that issues such a token yet. Until it has one
 * (`POST /dev/token`, see web/README.md), this module asks for it first and, when the
 * route is missing, signs the token in the browser with the development key that ships
 * with the project (gateway/dev_signing_key.pem, public knowledge, trusted by a gateway
 * only when DEV_AUTH=1, exactly like `deckyard token`). A build with VITE_DEV_AUTH=0 leaves
 * this module, and the key, out of the bundle.
 */
import devKeyPem from "../../../gateway/dev_signing_key.pem?raw";

export const DEV_ISSUER = "https://dev-issuer.deckyard.local/";
export const DEV_KEY_ID = "deckyard-dev-1";
export const DEV_TTL_SECONDS = 3600;

export interface DevTokenRequest {
  sub: string;
  roles: string[];
  audience: string;
  rolesClaim: string;
  now?: number;
}

function base64url(bytes: Uint8Array): string {
  let text = "";
  bytes.forEach((b) => (text += String.fromCharCode(b)));
  return btoa(text).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function utf8(value: unknown): Uint8Array<ArrayBuffer> {
  return new TextEncoder().encode(JSON.stringify(value));
}

function pemBody(pem: string): Uint8Array<ArrayBuffer> {
  const b64 = pem.replace(/-----[^-]+-----/g, "").replace(/\s+/g, "");
  return Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
}

/** The claims `deckyard token` puts in a development token (gateway/devauth.py mint_token). */
export function devClaims(request: DevTokenRequest): Record<string, unknown> {
  const issued = Math.floor((request.now ?? Date.now()) / 1000);
  const roles = [...new Set(request.roles.map((r) => r.trim()).filter(Boolean))]
    .map((r) => r.charAt(0).toUpperCase() + r.slice(1).toLowerCase())
    .sort();
  return {
    iss: DEV_ISSUER,
    sub: request.sub,
    aud: request.audience,
    iat: issued,
    exp: issued + DEV_TTL_SECONDS,
    auth_time: issued,
    jti: crypto.randomUUID(),
    [request.rolesClaim]: roles,
  };
}

/** An RS256 JWT signed with the development key. */
export async function signDevToken(request: DevTokenRequest, pem: string = devKeyPem): Promise<string> {
  const key = await crypto.subtle.importKey(
    "pkcs8",
    pemBody(pem),
    { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const header = base64url(utf8({ alg: "RS256", typ: "JWT", kid: DEV_KEY_ID }));
  const payload = base64url(utf8(devClaims(request)));
  const input = new TextEncoder().encode(`${header}.${payload}`);
  const signature = new Uint8Array(await crypto.subtle.sign("RSASSA-PKCS1-v1_5", key, input));
  return `${header}.${payload}.${base64url(signature)}`;
}

/**
 * A development token: from the gateway's `POST <api>/dev/token` when it exists,
 * otherwise signed here.
 */
export async function devToken(apiBase: string, request: DevTokenRequest): Promise<string> {
  try {
    const response = await fetch(`${apiBase}/dev/token`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ sub: request.sub, roles: request.roles }),
    });
    if (response.ok) {
      const body = (await response.json()) as { accessToken?: string };
      if (body.accessToken) return body.accessToken;
    }
  } catch {
    /* no such route: sign here */
  }
  return signDevToken(request);
}
