import "./styles.css";

import { render } from "preact";

import { rebuildClient } from "./api/client";
import { completeAuth0SignIn } from "./auth/auth0";
import { beginSession } from "./auth/begin";
import { loadConfig } from "./config";
import { App } from "./App";

async function boot(): Promise<void> {
  const cfg = await loadConfig();
  rebuildClient();
  if (cfg.auth0) {
    const signedIn = await completeAuth0SignIn(cfg.auth0).catch(() => null);
    if (signedIn) await beginSession(signedIn);
  }
  const root = document.getElementById("app");
  if (root) render(<App />, root);
}

void boot();
