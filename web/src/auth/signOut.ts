/**
 * Ending a session: the stored token goes, and an Auth0 session is logged out too, so
 * that "Sign in" asks who you are again instead of handing back the same identity.
 * `notice` is what the sign-in page then says (auth/notice.ts).
 */
import { config } from "../config";
import { signOutOfAuth0 } from "./auth0";
import { leaveNotice } from "./notice";
import { type Session, setSession } from "./session";

export function signOut(current: Pick<Session, "via"> | null, notice?: string): void {
  if (notice) leaveNotice(notice);
  setSession(null);
  const auth0 = config().auth0;
  if (current?.via === "auth0" && auth0) void signOutOfAuth0(auth0);
}
