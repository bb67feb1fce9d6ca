/** Sign in: Auth0 Universal Login where configured; the development sign-in with DEV_AUTH. */
import { useEffect, useState } from "preact/hooks";

import { signInWithAuth0 } from "../../auth/auth0";
import { beginSession } from "../../auth/begin";
import { onNotice, takeNotice } from "../../auth/notice";
import { sessionFromToken } from "../../auth/session";
import { apiBase, config } from "../../config";
import { ProblemBox, Screen } from "../../ui/components";
import { useAction } from "../../ui/resource";

/** A development subject from a display name: `dev|alice`. */
export function devSubject(name: string): string {
  return `dev|${name.trim().toLowerCase().replace(/[^a-z0-9._-]+/g, "-")}`;
}

async function devSignIn(name: string, role: "player" | "author"): Promise<void> {
  if (import.meta.env.VITE_DEV_AUTH === "0") throw new Error("development sign-in is not built in");
  const { devToken } = await import("../../auth/devToken");
  const cfg = config();
  const { audience, rolesClaim } = cfg;
  const token = await devToken(apiBase(), {
    sub: devSubject(name),
    roles: role === "author" ? ["author"] : [],
    audience,
    rolesClaim,
  });
  await beginSession(sessionFromToken(token, "dev", rolesClaim));
}

export function SignIn() {
  const cfg = config();
  const [name, setName] = useState("");
  const [role, setRole] = useState<"player" | "author">("player");
  const action = useAction();
  // Left by a sign-out (the account deleted) or by a sign-in just refused for the account.
  const [notice, setNotice] = useState(takeNotice);
  useEffect(() => onNotice(() => setNotice(takeNotice())), []);
  return (
    <Screen title="Sign in">
      {notice && <p role="status" class="callout">{notice}</p>}
      {cfg.auth0 && (
        <p>
          <button type="button" onClick={() => cfg.auth0 && void signInWithAuth0(cfg.auth0)}>
            Sign in
          </button>
        </p>
      )}
      {cfg.devAuth && (
        <form
          aria-labelledby="dev-signin"
          onSubmit={(e) => {
            e.preventDefault();
            setNotice(null);
            void action.run(() => devSignIn(name, role));
          }}
        >
          <h2 id="dev-signin">Development sign-in</h2>
          <p class="note">
            For a local platform run with <code>DEV_AUTH=1</code> only: you become whoever you
            name here.
          </p>
          <label for="dev-name">Name</label>
          <input
            id="dev-name"
            name="name"
            required
            autoComplete="username"
            value={name}
            onInput={(e) => setName(e.currentTarget.value)}
          />
          <fieldset>
            <legend>Role</legend>
            {(["player", "author"] as const).map((r) => (
              <label key={r} class="choice">
                <input type="radio" name="role" value={r} checked={role === r} onChange={() => setRole(r)} />
                {r === "player" ? "Player" : "Author (and player)"}
              </label>
            ))}
          </fieldset>
          <button type="submit" disabled={action.busy || !name.trim()}>
            Sign in as {name.trim() || "…"}
          </button>
          <ProblemBox problem={action.problem} />
        </form>
      )}
      {!cfg.auth0 && !cfg.devAuth && (
        <p role="alert">No sign-in is configured: set AUTH0_DOMAIN (VITE_AUTH0_DOMAIN) for this build.</p>
      )}
    </Screen>
  );
}
