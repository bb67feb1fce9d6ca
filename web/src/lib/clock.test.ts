import { afterEach, describe, expect, it } from "vitest";

import { formatSeconds, noteServerDate, resetClock, secondsLeft, serverNow } from "./clock";

afterEach(resetClock);

describe("countdowns from the server's deadline", () => {
  const deadline = "2026-12-01T12:01:30.000Z";

  it("counts whole seconds up to the deadline and stops at zero", () => {
    expect(secondsLeft(deadline, Date.parse("2026-12-01T12:00:00.000Z"))).toBe(90);
    expect(secondsLeft(deadline, Date.parse("2026-12-01T12:01:29.001Z"))).toBe(1);
    expect(secondsLeft(deadline, Date.parse("2026-12-01T12:01:30.000Z"))).toBe(0);
    expect(secondsLeft(deadline, Date.parse("2026-12-01T12:05:00.000Z"))).toBe(0);
  });

  it("uses the server's clock, not a device clock that is wrong", () => {
    const local = Date.parse("2026-12-01T11:00:00.000Z"); // the device is an hour behind
    noteServerDate("Tue, 01 Dec 2026 12:00:00 GMT", local);
    expect(secondsLeft(deadline, serverNow(local))).toBe(90);
  });

  it("ignores a missing or unreadable Date header", () => {
    noteServerDate(null, 0);
    noteServerDate("not a date", 0);
    expect(serverNow(1234)).toBe(1234);
  });

  it("shows minutes and seconds", () => {
    expect(formatSeconds(90)).toBe("1:30");
    expect(formatSeconds(5)).toBe("0:05");
  });
});
