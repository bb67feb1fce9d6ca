import { describe, expect, it } from "vitest";

import { PushChannel, type SocketLike, type StreamMessage, type Timers } from "./stream";

class FakeSocket implements SocketLike {
  readyState = 0;
  sent: string[] = [];
  onopen: ((ev: unknown) => void) | null = null;
  onmessage: ((ev: { data: unknown }) => void) | null = null;
  onclose: ((ev: unknown) => void) | null = null;
  onerror: ((ev: unknown) => void) | null = null;
  send(data: string) {
    this.sent.push(data);
  }
  close() {
    this.onclose?.({});
  }
  open() {
    this.onopen?.({});
  }
  push(message: Partial<StreamMessage>) {
    this.onmessage?.({ data: JSON.stringify(message) });
  }
  drop() {
    this.onclose?.({});
  }
}

/** Timers moved by the test: nothing waits for real time. */
class FakeTimers implements Timers {
  private next = 1;
  timeouts = new Map<number, () => void>();
  intervals = new Map<number, () => void>();
  setTimeout(fn: () => void) {
    const id = this.next++;
    this.timeouts.set(id, fn);
    return id;
  }
  clearTimeout(handle: unknown) {
    this.timeouts.delete(handle as number);
  }
  setInterval(fn: () => void) {
    const id = this.next++;
    this.intervals.set(id, fn);
    return id;
  }
  clearInterval(handle: unknown) {
    this.intervals.delete(handle as number);
  }
  fireTimeouts() {
    const due = [...this.timeouts.values()];
    this.timeouts.clear();
    due.forEach((fn) => fn());
  }
  tick() {
    [...this.intervals.values()].forEach((fn) => fn());
  }
}

function setup(failuresBeforePolling = 2) {
  const sockets: FakeSocket[] = [];
  const timers = new FakeTimers();
  const channel = new PushChannel({
    url: "ws://api/stream",
    token: () => "T",
    timers,
    failuresBeforePolling,
    openSocket: () => {
      const socket = new FakeSocket();
      sockets.push(socket);
      return socket;
    },
  });
  const received: StreamMessage[] = [];
  let polls = 0;
  channel.subscribe((m) => received.push(m));
  channel.onPoll(() => (polls += 1));
  channel.start();
  return { channel, sockets, timers, received, polls: () => polls };
}

describe("the push channel", () => {
  it("sends the token first, then delivers each message once", () => {
    const { channel, sockets, received } = setup();
    sockets[0]!.open();
    expect(JSON.parse(sockets[0]!.sent[0]!)).toEqual({ type: "auth", token: "T", lastId: null });
    sockets[0]!.push({ id: "1", type: "RewardGranted", data: {} });
    sockets[0]!.push({ id: "1", type: "RewardGranted", data: {} });
    sockets[0]!.push({ id: "2", type: "MatchFinished", data: {} });
    expect(received.map((m) => m.id)).toEqual(["1", "2"]);
    expect(channel.mode).toBe("live");
  });

  it("reconnects after a drop and resumes from the last id, polling once meanwhile", () => {
    const { sockets, timers, polls } = setup();
    sockets[0]!.open();
    sockets[0]!.push({ id: "7", type: "x", data: null });
    sockets[0]!.drop();
    expect(polls()).toBe(1); // what happened while down is fetched at once
    timers.fireTimeouts();
    sockets[1]!.open();
    expect(JSON.parse(sockets[1]!.sent[0]!)).toEqual({ type: "auth", token: "T", lastId: "7" });
  });

  it("falls back to polling when the channel cannot be opened, and back to live when it can", () => {
    const { channel, sockets, timers, polls } = setup(2);
    sockets[0]!.drop(); // refused (no route yet)
    timers.fireTimeouts();
    sockets[1]!.drop();
    expect(channel.mode).toBe("polling");
    timers.tick();
    timers.tick();
    expect(polls()).toBe(2);
    timers.fireTimeouts(); // it keeps trying behind the polling
    sockets[2]!.open();
    sockets[2]!.push({ type: "ready" });
    expect(channel.mode).toBe("live");
    timers.tick();
    expect(polls()).toBe(2); // no more polling once live
  });

  it("stops for good: no reconnection after stop", () => {
    const { channel, sockets, timers } = setup();
    sockets[0]!.open();
    channel.stop();
    timers.fireTimeouts();
    expect(sockets).toHaveLength(1);
    expect(channel.mode).toBe("stopped");
  });
});
