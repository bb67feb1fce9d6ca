/**
 * Starting a session. Its first request is GET /me, alone: the gateway registers a new
 * player on whichever request comes first and says `registeredNow` only on that one, so
 * if the home screen's requests and the push channel raced, the welcome could go to a
 * request nobody reads. It is also where a deleted or locked account is turned away: the
 * session is never stored, and the sign-in page says why (no screen, no navigation).
 */
import { api } from "../api/client";
import { accountNotice } from "./notice";
import { type Session, setSession } from "./session";
import { signOut } from "./signOut";

/** Stores the session, or, when the server refuses the account, signs out with the reason. */
export async function beginSession(next: Session): Promise<void> {
  let welcome = false;
  try {
    const { data, error } = await api.GET("/me", { headers: { Authorization: `Bearer ${next.token}` } });
    const refused = accountNotice(error);
    if (refused) {
      signOut(next, refused);
      return;
    }
    welcome = data?.registeredNow === true;
  } catch {
    // The screens ask again and show the problem; the welcome is only a nicety.
  }
  setSession({ ...next, welcome });
}
