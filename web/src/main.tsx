import "./styles.css";

import { render } from "preact";

import { rebuildClient } from "./api/client";
import { completeAuth0SignIn } from "./auth/auth0";
import { setSession } from "./auth/session";
import { loadConfig } from "./config";
import { App } from "./App";

async function boot(): Promise<void> {
  const cfg = await loadConfig();
  rebuildClient();
  if (cfg.auth0) {
    const signedIn = await completeAuth0SignIn(cfg.auth0).catch(() => null);
    if (signedIn) setSession(signedIn);
  }
  const root = document.getElementById("app");
  if (root) render(<App />, root);
}

void boot();
