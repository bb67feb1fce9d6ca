/**
 * Provably fair rolls, verified in the browser: a port of the pure part of
 * games/kit/fair.py (docs/fairness.md) on WebCrypto's HMAC-SHA256 and SHA-256.
 *
 * Draw j of a roll reads 32-bit big-endian words from
 *   HMAC-SHA256(server seed bytes, "{clientSeed}:{nonce}:{purpose}/{j}")        (block 0)
 *   HMAC-SHA256(server seed bytes, "{clientSeed}:{nonce}:{purpose}/{j}:{b}")    (block b >= 1)
 * takes the first word u < 2^32 - (2^32 mod W) (rejection sampling), r = u mod W, and picks
 * the first option whose running weight exceeds r. Nothing here talks to the server.
 */

const WORD_SPACE = 2 ** 32;
const CLIENT_SEED = /^[A-Za-z0-9_.-]{1,64}$/;
const PURPOSE = /^[a-z0-9][a-z0-9._-]{0,79}$/;
const HEX_SEED = /^[0-9a-f]{64}$/;

export interface Draw {
  key: string;
  options: string[];
  weights: number[];
  outcome: string;
}

export interface Roll {
  id?: string;
  purpose: string;
  serverSeedHash: string;
  serverSeed: string | null;
  clientSeed: string;
  nonce: number;
  draws: Draw[];
  rolledAt?: string;
}

export interface Verdict {
  nonce: number;
  purpose: string;
  status: "ok" | "pending" | "failed";
  problems: string[];
}

const encoder = new TextEncoder();

export function hexToBytes(hex: string): Uint8Array<ArrayBuffer> {
  if (!/^(?:[0-9a-fA-F]{2})*$/.test(hex)) throw new Error("not hex");
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return bytes;
}

export function bytesToHex(bytes: ArrayBuffer | Uint8Array): string {
  return Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, "0")).join("");
}

export async function seedHash(seed: Uint8Array<ArrayBuffer>): Promise<string> {
  return bytesToHex(await crypto.subtle.digest("SHA-256", seed));
}

export function message(clientSeed: string, nonce: number, purpose: string, block = 0): string {
  const text = `${clientSeed}:${nonce}:${purpose}`;
  return block === 0 ? text : `${text}:${block}`;
}

async function hmacKey(seed: Uint8Array<ArrayBuffer>): Promise<CryptoKey> {
  return crypto.subtle.importKey("raw", seed, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
}

export async function hmacHex(seed: Uint8Array<ArrayBuffer>, text: string): Promise<string> {
  return bytesToHex(await crypto.subtle.sign("HMAC", await hmacKey(seed), encoder.encode(text)));
}

/** The endless word stream of one draw (``purpose`` is the draw's: "p/j"). */
async function* words(key: CryptoKey, clientSeed: string, nonce: number, purpose: string): AsyncGenerator<number> {
  for (let block = 0; ; block++) {
    const digest = await crypto.subtle.sign("HMAC", key, encoder.encode(message(clientSeed, nonce, purpose, block)));
    const view = new DataView(digest);
    for (let at = 0; at < view.byteLength; at += 4) yield view.getUint32(at, false);
  }
}

/** An integer in [0, total), unbiased: the first word under the largest multiple of total. */
export async function below(stream: AsyncGenerator<number>, total: number): Promise<number> {
  if (!Number.isInteger(total) || total < 1 || total > WORD_SPACE)
    throw new Error("a draw's total weight is between 1 and 2^32");
  const limit = WORD_SPACE - (WORD_SPACE % total);
  for (;;) {
    const { value } = await stream.next();
    if ((value as number) < limit) return (value as number) % total;
  }
}

export async function weightedIndex(stream: AsyncGenerator<number>, weights: number[]): Promise<number> {
  if (weights.length === 0 || weights.some((w) => !Number.isInteger(w) || w < 0))
    throw new Error("a draw needs non-negative integer weights");
  const total = weights.reduce((a, b) => a + b, 0);
  const r = await below(stream, total);
  let running = 0;
  for (const [i, weight] of weights.entries()) {
    running += weight;
    if (r < running) return i;
  }
  throw new Error("r is below the total");
}

/** The outcome index a draw gives under a seed (for the worked examples and the verifier). */
export async function drawIndex(
  seed: Uint8Array<ArrayBuffer>,
  clientSeed: string,
  nonce: number,
  drawPurpose: string,
  weights: number[],
): Promise<number> {
  return weightedIndex(words(await hmacKey(seed), clientSeed, nonce, drawPurpose), weights);
}

/** One exported roll recomputed from its revealed seed (games/kit/fair.py, verify_roll). */
export async function verifyRoll(roll: Roll): Promise<Verdict> {
  const { nonce, purpose } = roll;
  const where = `roll nonce ${nonce} (${purpose})`;
  if (!Number.isInteger(nonce) || typeof purpose !== "string")
    return { nonce: -1, purpose: String(purpose), status: "failed", problems: [`${where}: no nonce or purpose`] };
  if (roll.serverSeed === null || roll.serverSeed === undefined) return { nonce, purpose, status: "pending", problems: [] };
  if (!HEX_SEED.test(roll.serverSeed))
    return { nonce, purpose, status: "failed", problems: [`${where}: the server seed is not 64 hex digits`] };
  const seed = hexToBytes(roll.serverSeed);
  const actual = await seedHash(seed);
  if (actual !== roll.serverSeedHash)
    return {
      nonce,
      purpose,
      status: "failed",
      problems: [
        `${where}: the server seed does not match the hash shown before the roll (SHA-256 of the seed is ${actual}, ` +
          `the record says ${roll.serverSeedHash}): the seed was altered`,
      ],
    };
  const problems: string[] = [];
  if (!CLIENT_SEED.test(roll.clientSeed) || !PURPOSE.test(purpose))
    problems.push(`${where}: malformed client seed or purpose`);
  else {
    const key = await hmacKey(seed);
    for (const [index, draw] of (roll.draws ?? []).entries()) {
      const at = `${where}, draw ${index} (${draw.key})`;
      if (draw.options.length !== draw.weights.length) {
        problems.push(`${at}: ${draw.options.length} options but ${draw.weights.length} weights`);
        continue;
      }
      try {
        const stream = words(key, roll.clientSeed, nonce, `${purpose}/${index}`);
        const expected = draw.options[await weightedIndex(stream, draw.weights)];
        if (expected !== draw.outcome)
          problems.push(
            `${at}: the seeds give "${expected}" but the record says "${draw.outcome}": ` +
              "its outcome, nonce or client seed was altered",
          );
      } catch (error) {
        problems.push(`${at}: malformed (${String(error)})`);
      }
    }
  }
  return { nonce, purpose, status: problems.length ? "failed" : "ok", problems };
}

/** Every roll checked, and a nonce used once under a server seed. */
export async function verifyHistory(rolls: Roll[]): Promise<Verdict[]> {
  const verdicts = await Promise.all(rolls.map(verifyRoll));
  const seen = new Map<string, number>();
  return verdicts.map((verdict, position) => {
    const roll = rolls[position] as Roll;
    const key = `${roll.serverSeedHash}:${roll.nonce}`;
    const first = seen.get(key);
    if (first === undefined) {
      seen.set(key, position);
      return verdict;
    }
    const repeated =
      `roll nonce ${roll.nonce} (${roll.purpose}): the nonce was already used under this server seed ` +
      `(rolls ${first + 1} and ${position + 1} of the history)`;
    return { ...verdict, status: "failed", problems: [...verdict.problems, repeated] };
  });
}

const SNAKE = /_([a-z])/g;

function camelKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(camelKeys);
  if (value && typeof value === "object")
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k.replace(SNAKE, (_, c: string) => c.toUpperCase()), camelKeys(v)]),
    );
  return value;
}

/** The rolls of an export, as `deckyard verify` reads it: a page ({items}), pages, or rolls;
 * camelCase or snake_case members. Throws on anything else. */
export function rollsOf(document: unknown): Roll[] {
  let list: unknown = document;
  if (list && typeof list === "object" && !Array.isArray(list)) list = (list as { items?: unknown }).items ?? [];
  if (!Array.isArray(list)) throw new Error("expected a list of rolls or an object with 'items'");
  const rolls: Roll[] = [];
  for (const item of list) {
    if (item && typeof item === "object" && "items" in item) rolls.push(...rollsOf(item));
    else rolls.push(camelKeys(item) as Roll);
  }
  return rolls;
}
