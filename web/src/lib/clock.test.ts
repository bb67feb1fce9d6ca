import { afterEach, describe, expect, it } from "vitest";

import { formatSeconds, noteServerDate, resetClock, secondsLeft, serverNow, shownSeconds } from "./clock";

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

  it("shows a step at its limit when it starts (2:00, not 2:01), never above the limit", () => {
    const start = Date.parse("2026-12-01T11:59:59.600Z"); // the server's time as estimated, 0.4 s early
    const twoMinutes = "2026-12-01T12:01:59.600Z";
    expect(secondsLeft(twoMinutes, start - 400)).toBe(121); // what a ceiling would show
    expect(shownSeconds(twoMinutes, start - 400)).toBe(120);
    expect(shownSeconds(twoMinutes, start - 1500, 120)).toBe(120);
    expect(shownSeconds(twoMinutes, Date.parse("2026-12-01T12:01:59.200Z"))).toBe(0);
    expect(shownSeconds(null)).toBe(0);
  });

  it("shows minutes and seconds", () => {
    expect(formatSeconds(90)).toBe("1:30");
    expect(formatSeconds(5)).toBe("0:05");
  });
});
