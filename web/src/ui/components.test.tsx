import { cleanup, render, screen } from "@testing-library/preact";
import { afterEach, describe, expect, it } from "vitest";

import { Countdown } from "./components";

describe("a countdown", () => {
  afterEach(cleanup);

  it("starts at the step's length, 2:00 and not 2:01, though the deadline is a little more away", () => {
    // The server set the deadline 2 minutes after it took the request; this browser's
    // estimate of the server's clock may run up to half a second behind.
    render(<Countdown deadline={new Date(Date.now() + 120_400).toISOString()} label="Choosing time left" />);
    expect(screen.getByText("2:00")).toBeTruthy();
    expect(screen.getByLabelText("Choosing time left: 120 seconds left")).toBeTruthy();
  });

  it("never shows more than the step's limit", () => {
    render(<Countdown deadline={new Date(Date.now() + 21_600).toISOString()} label="Round time left" limit={20} />);
    expect(screen.getByText("0:20")).toBeTruthy();
  });
});
