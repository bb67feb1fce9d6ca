import { describe, expect, it } from "vitest";

import { allPages, listed } from "./client";

const ok = <T>(data: T) => Promise.resolve({ data, response: new Response(null, { status: 200 }) });

describe("lists are pages", () => {
  it("follows next page after page, sending each page's cursor, until it is null", async () => {
    const pages: Record<string, { items: number[]; next: string | null }> = {
      first: { items: [3, 2], next: "c1" },
      c1: { items: [1], next: null },
    };
    const asked: (string | undefined)[] = [];
    const all = await allPages((cursor) => {
      asked.push(cursor);
      return ok(pages[cursor ?? "first"]);
    });
    expect(all).toEqual([3, 2, 1]);
    expect(asked).toEqual([undefined, "c1"]);
  });

  it("takes a whole list's items", async () => {
    expect(await listed(ok({ items: ["a"], next: null }))).toEqual(["a"]);
  });
});
