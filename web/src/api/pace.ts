/**
 * The server limits how fast one player changes things (429 ``rate_limited``, with
 * ``retryAfter`` seconds). A refused change did nothing, so a screen that makes several
 * changes in a row (opening packs, placing cards) waits as it is told and sends it again.
 */
import { ApiError } from "./problems";

/** Runs a change; when the server limits the pace (429 rate_limited), waits as it says and tries again. */
export async function whenAllowed<T>(say: (text: string) => void, change: () => Promise<T>): Promise<T> {
  for (;;) {
    try {
      return await change();
    } catch (error) {
      if (!(error instanceof ApiError) || error.code !== "rate_limited") throw error;
      const seconds = Number(error.problem.retryAfter ?? 1) || 1;
      say(`The server asks to slow down: going on in ${seconds} s…`);
      await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
    }
  }
}

