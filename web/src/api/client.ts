/**
 * The typed API client: openapi-fetch over the types generated from web/openapi.json
 * (`npm run api`). Screens call `api.GET("/quest/collection")` and get the document's
 * types; `unwrap` turns a problem answer into an ApiError.
 */
import createClient, { type Middleware } from "openapi-fetch";

import { accountNotice } from "../auth/notice";
import { session } from "../auth/session";
import { signOut } from "../auth/signOut";
import { apiBase } from "../config";
import { noteServerDate } from "../lib/clock";
import { ApiError, toProblem } from "./problems";
import type { components, paths } from "./schema";

export type Schemas = components["schemas"];

const authAndClock: Middleware = {
  onRequest({ request }) {
    const token = session()?.token;
    // A request that names its token (the first of a session) keeps it.
    if (token && !request.headers.has("Authorization")) {
      request.headers.set("Authorization", `Bearer ${token}`);
    }
    return request;
  },
  async onResponse({ request, response }) {
    noteServerDate(response.headers.get("Date"));
    if (response.status === 403) await signOutIfAccountRefused(request, response);
    return response;
  },
};

/**
 * A call of this session answered that the account itself is refused (`account_deleted`,
 * or `account_locked` while its deletion runs, as when it was deleted from another tab):
 * nothing more can be done with this token, so it is dropped and the sign-in page says why.
 * A request that named another token (the first of a new session) is left to its caller.
 */
async function signOutIfAccountRefused(request: Request, response: Response): Promise<void> {
  const current = session();
  if (!current || request.headers.get("Authorization") !== `Bearer ${current.token}`) return;
  const notice = accountNotice(await response.clone().json().catch(() => null));
  if (notice) signOut(current, notice);
}

function makeClient() {
  const client = createClient<paths>({ baseUrl: apiBase() });
  client.use(authAndClock);
  return client;
}

export let api = makeClient();

/** After the configuration is loaded (config.json may move the API elsewhere). */
export function rebuildClient(): void {
  api = makeClient();
}

interface FetchResult<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/** The answer's data, or an ApiError carrying the problem (a dropped connection too). */
export async function unwrap<T>(call: Promise<FetchResult<T>>): Promise<T> {
  let result: FetchResult<T>;
  try {
    result = await call;
  } catch {
    throw new ApiError(toProblem(null, 0));
  }
  if (result.error !== undefined || !result.response.ok)
    throw new ApiError(toProblem(result.error, result.response.status));
  return result.data as T;
}

/** The items of a list answered whole (every list is a page, `{items, next}`; a list
 * bounded by the rules, such as your decks or a game's pack kinds, comes in one page). */
export async function listed<T>(call: Promise<FetchResult<{ items: T[]; next: string | null }>>): Promise<T[]> {
  return (await unwrap(call)).items;
}

/** Every item of a paged list, following `next` page after page (a list that grows, read
 * whole where a screen shows it whole: the Authors' content). */
export async function allPages<T>(
  page: (cursor: string | undefined) => Promise<FetchResult<{ items: T[]; next: string | null }>>,
): Promise<T[]> {
  const found: T[] = [];
  let cursor: string | undefined;
  do {
    const answer = await unwrap(page(cursor));
    found.push(...answer.items);
    cursor = answer.next ?? undefined;
  } while (cursor !== undefined);
  return found;
}

/** A fresh key per user action, so a retried request is applied once. */
export function idempotencyKey(): string {
  return crypto.randomUUID();
}
