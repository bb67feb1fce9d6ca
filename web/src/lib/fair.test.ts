import { describe, expect, it } from "vitest";

import { type Draw, drawIndex, hexToBytes, hmacHex, message, type Roll, rollsOf, seedHash, verifyHistory } from "./fair";

// docs/fairness.md, "Worked example (computed by games/kit/fair.py)".
const SEED = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";
const HASH = "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd";

function workedRoll(): Roll {
  return {
    purpose: "quest.reward",
    serverSeedHash: HASH,
    serverSeed: SEED,
    clientSeed: "my-client-seed",
    nonce: 0,
    draws: [
      { key: "count", options: ["1", "2"], weights: [80, 20], outcome: "1" },
      { key: "rarity.0", options: ["Common", "Rare", "Epic", "Legendary"], weights: [45, 40, 14, 1], outcome: "Rare" },
      { key: "card.0", options: ["d1", "d2", "d3"], weights: [1, 1, 1], outcome: "d3" },
    ],
  };
}

describe("the fair derivation (docs/fairness.md worked example)", () => {
  it("hashes the seed and gives the documented digests", async () => {
    const seed = hexToBytes(SEED);
    expect(await seedHash(seed)).toBe(HASH);
    expect(message("my-client-seed", 0, "quest.reward/0")).toBe("my-client-seed:0:quest.reward/0");
    expect(await hmacHex(seed, "my-client-seed:0:quest.reward/0")).toBe(
      "13c850ffccacca8a72e36f3c3f6624fef26bcd6e08776c35525c93eac2ea0d95",
    );
    expect(await hmacHex(seed, "my-client-seed:0:quest.reward/1")).toBe(
      "fe799a09d22f3b5ac3ffbb5f5c14a5184b264c74cb56aeddf4f851200e00ed94",
    );
    expect(await hmacHex(seed, "my-client-seed:0:quest.reward/2")).toBe(
      "19b42fb9c696b776bdce6977a5e1e207055cc02bd8f2f5b65f8663168a12c96d",
    );
  });

  it("skips a word at or above the limit (rejection sampling)", async () => {
    // W = 3 * 2^30, limit = 2^32 - 2^30: the first word 0xe1f906ce = 3791193806 is skipped,
    // the second 0x195518dd = 425007325 gives r = 425007325: option 0 of three equal weights.
    const seed = hexToBytes(SEED);
    const third = 2 ** 30;
    expect(await drawIndex(seed, "my-client-seed", 0, "demo/0", [third, third, third])).toBe(0);
    // The same total split at 500,000,000 tells the two words apart: reducing the skipped
    // word (3791193806 mod W = 569968334) would have picked option 1.
    expect(await drawIndex(seed, "my-client-seed", 0, "demo/0", [500_000_000, 3 * third - 500_000_000])).toBe(0);
  });
});

describe("verifying an export", () => {
  it("verifies the worked example and reads snake_case, pages and lists", async () => {
    const roll = workedRoll();
    expect((await verifyHistory([roll]))[0]).toEqual({
      nonce: 0,
      purpose: "quest.reward",
      status: "ok",
      problems: [],
    });
    const snake = {
      items: [
        {
          purpose: roll.purpose,
          server_seed_hash: HASH,
          server_seed: SEED,
          client_seed: roll.clientSeed,
          nonce: 0,
          draws: roll.draws,
        },
      ],
      next: null,
    };
    expect(rollsOf(snake)).toEqual([roll]);
    expect(rollsOf([snake, { items: [roll] }])).toHaveLength(2);
    expect(() => rollsOf("nope")).toThrow();
  });

  it("fails a tampered outcome, nonce or seed, and a repeated nonce, with a sentence", async () => {
    const outcome = workedRoll();
    outcome.draws[2] = { ...(outcome.draws[2] as Draw), outcome: "d1" };
    const nonce = { ...workedRoll(), nonce: 1 };
    const seed = { ...workedRoll(), serverSeed: SEED.replace(/^00/, "ff") };
    const [a, b, c] = await verifyHistory([outcome, nonce, seed]);
    expect(a?.status).toBe("failed");
    expect(a?.problems[0]).toContain('the seeds give "d3" but the record says "d1"');
    expect(b?.status).toBe("failed");
    expect(c?.problems[0]).toContain("the seed was altered");
    const twice = await verifyHistory([workedRoll(), workedRoll()]);
    expect(twice.map((v) => v.status)).toEqual(["ok", "failed"]);
    expect(twice[1]?.problems[0]).toContain("already used");
  });

  it("counts a roll under a seed still secret as pending", async () => {
    const [verdict] = await verifyHistory([{ ...workedRoll(), serverSeed: null }]);
    expect(verdict?.status).toBe("pending");
  });
});
