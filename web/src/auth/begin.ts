/**
 * Starting a session. Its first request is GET /me, alone: the gateway registers a new
 * player on whichever request comes first and says `registeredNow` only on that one, so
 * if the home screen's requests and the push channel raced, the welcome could go to a
 * request nobody reads.
 */
import { api } from "../api/client";
import { type Session, setSession } from "./session";

export async function beginSession(next: Session): Promise<void> {
  let welcome = false;
  try {
    const { data } = await api.GET("/me", { headers: { Authorization: `Bearer ${next.token}` } });
    welcome = data?.registeredNow === true;
  } catch {
    // The screens ask again and show the problem; the welcome is only a nicety.
  }
  setSession({ ...next, welcome });
}
