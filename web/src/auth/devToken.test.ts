import { describe, expect, it } from "vitest";

import { claimsOf } from "./session";
import { DEV_ISSUER, DEV_KEY_ID, devClaims, signDevToken } from "./devToken";

describe("the development sign-in's token", () => {
  const request = { sub: "dev|alice", roles: ["author"], audience: "https://api.deckyard.dev", rolesClaim: "https://deckyard.dev/roles", now: 1_764_504_000_000 };

  it("carries the claims `deckyard token` puts in one", () => {
    const claims = devClaims(request);
    expect(claims).toMatchObject({
      iss: DEV_ISSUER,
      sub: "dev|alice",
      aud: "https://api.deckyard.dev",
      iat: 1_764_504_000,
      auth_time: 1_764_504_000,
      exp: 1_764_504_000 + 3600,
      "https://deckyard.dev/roles": ["Author"],
    });
  });

  it("is an RS256 JWT whose signature the development key's public half accepts", async () => {
    const token = await signDevToken(request);
    const [header, payload, signature] = token.split(".") as [string, string, string];
    expect(JSON.parse(atob(header))).toEqual({ alg: "RS256", typ: "JWT", kid: DEV_KEY_ID });
    expect(claimsOf(token).sub).toBe("dev|alice");
    // The public key, derived from the private one as the gateway's JWKS publishes it.
    const { default: pem } = await import("../../../gateway/dev_signing_key.pem?raw");
    const der = Uint8Array.from(atob(pem.replace(/-----[^-]+-----/g, "").replace(/\s+/g, "")), (c) => c.charCodeAt(0));
    const algorithm = { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" };
    const privateKey = await crypto.subtle.importKey("pkcs8", der, algorithm, true, ["sign"]);
    const jwk = await crypto.subtle.exportKey("jwk", privateKey);
    const publicKey = await crypto.subtle.importKey("jwk", { kty: "RSA", n: jwk.n, e: jwk.e }, algorithm, false, ["verify"]);
    const bytes = Uint8Array.from(atob(signature.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0));
    const ok = await crypto.subtle.verify(algorithm, publicKey, bytes, new TextEncoder().encode(`${header}.${payload}`));
    expect(ok).toBe(true);
  });
});
