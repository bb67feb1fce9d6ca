/**
 * The push channel: a WebSocket at `<prefix>/stream` that forwards the player's own
 * events as `{id, type, data}`. The client authenticates by sending
 * `{"type": "auth", "token": "<access token>", "lastId": "<last id seen or null>"}` as
 * its first message, so the server can replay what was missed; it reconnects with backoff
 * and resumes from the last id. When the server cannot know everything after that id it
 * says so (`ready` with `resync`), and subscribers refresh as on a poll tick. Where the channel is not available (no route yet, a proxy that refuses
 * upgrades, repeated failures), it falls back to polling: subscribers get a "poll" tick
 * every few seconds and refresh what they show. The screens never know which one runs.
 */

export interface StreamMessage {
  id: string;
  type: string;
  data: unknown;
}

export type StreamMode = "connecting" | "live" | "polling" | "stopped";

export interface SocketLike {
  readyState: number;
  onopen: ((ev: unknown) => void) | null;
  onmessage: ((ev: { data: unknown }) => void) | null;
  onclose: ((ev: unknown) => void) | null;
  onerror: ((ev: unknown) => void) | null;
  send(data: string): void;
  close(): void;
}

export interface Timers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
  setInterval(fn: () => void, ms: number): unknown;
  clearInterval(handle: unknown): void;
}

export interface StreamOptions {
  url: string;
  token: () => string | null;
  openSocket?: (url: string) => SocketLike;
  timers?: Timers;
  pollMs?: number;
  /** Consecutive failures to open before polling instead (a retry continues behind it). */
  failuresBeforePolling?: number;
  maxBackoffMs?: number;
}

type Listener = (message: StreamMessage) => void;
type PollListener = () => void;
type ModeListener = (mode: StreamMode) => void;

const defaultTimers: Timers = {
  setTimeout: (fn, ms) => globalThis.setTimeout(fn, ms),
  clearTimeout: (h) => globalThis.clearTimeout(h as number),
  setInterval: (fn, ms) => globalThis.setInterval(fn, ms),
  clearInterval: (h) => globalThis.clearInterval(h as number),
};

export class PushChannel {
  lastId: string | null = null;
  mode: StreamMode = "stopped";
  private socket: SocketLike | null = null;
  private failures = 0;
  private retry: unknown = null;
  private poller: unknown = null;
  private readonly listeners = new Set<Listener>();
  private readonly pollListeners = new Set<PollListener>();
  private readonly modeListeners = new Set<ModeListener>();
  private readonly timers: Timers;
  private readonly open: (url: string) => SocketLike;

  constructor(private readonly options: StreamOptions) {
    this.timers = options.timers ?? defaultTimers;
    this.open =
      options.openSocket ?? ((url) => new WebSocket(url) as unknown as SocketLike);
  }

  start(): void {
    if (this.mode !== "stopped") return;
    this.connect();
  }

  stop(): void {
    this.clearRetry();
    this.stopPolling();
    const socket = this.socket;
    this.socket = null;
    if (socket) {
      socket.onclose = null;
      socket.close();
    }
    this.setMode("stopped");
  }

  /** Every pushed message, in order, once each (a replayed id is dropped). */
  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Called every pollMs while the channel is down: refresh what you show. */
  onPoll(listener: PollListener): () => void {
    this.pollListeners.add(listener);
    return () => this.pollListeners.delete(listener);
  }

  onMode(listener: ModeListener): () => void {
    this.modeListeners.add(listener);
    return () => this.modeListeners.delete(listener);
  }

  private connect(): void {
    const token = this.options.token();
    if (!token) {
      this.startPolling();
      return;
    }
    if (this.mode !== "polling") this.setMode("connecting");
    let socket: SocketLike;
    try {
      socket = this.open(this.options.url);
    } catch {
      this.failed();
      return;
    }
    this.socket = socket;
    let opened = false;
    socket.onopen = () => {
      opened = true;
      socket.send(JSON.stringify({ type: "auth", token, lastId: this.lastId }));
    };
    socket.onmessage = (event) => this.receive(event.data, () => {
      // The first message proves the server accepted the token.
      if (this.mode !== "live") {
        this.failures = 0;
        this.stopPolling();
        this.setMode("live");
      }
    });
    socket.onerror = () => undefined; // onclose follows and decides
    socket.onclose = () => {
      if (this.socket !== socket) return;
      this.socket = null;
      if (opened && this.mode === "live") {
        // A dropped live connection: poll at once so nothing is missed, and reconnect.
        this.pollListeners.forEach((listener) => listener());
      }
      this.failed();
    };
  }

  private receive(raw: unknown, accepted: () => void): void {
    let message: StreamMessage;
    try {
      message = JSON.parse(String(raw)) as StreamMessage;
    } catch {
      return;
    }
    if (!message || typeof message.type !== "string") return;
    accepted();
    if (message.type === "ready") {
      // The server's greeting after authentication; with resync, what was missed is not
      // known there: refresh everything shown, as after a poll.
      if ((message as { resync?: boolean }).resync) this.pollListeners.forEach((l) => l());
      return;
    }
    if (message.id !== undefined && message.id === this.lastId) return;
    if (message.id !== undefined) this.lastId = String(message.id);
    this.listeners.forEach((listener) => listener(message));
  }

  private failed(): void {
    this.failures += 1;
    if (this.failures >= (this.options.failuresBeforePolling ?? 2)) this.startPolling();
    else if (this.mode !== "polling") this.setMode("connecting");
    const max = this.options.maxBackoffMs ?? 30_000;
    const delay = Math.min(max, 500 * 2 ** Math.min(this.failures, 10));
    this.clearRetry();
    this.retry = this.timers.setTimeout(() => {
      this.retry = null;
      this.connect();
    }, delay);
  }

  private startPolling(): void {
    if (this.poller === null) {
      this.poller = this.timers.setInterval(
        () => this.pollListeners.forEach((listener) => listener()),
        this.options.pollMs ?? 5000,
      );
    }
    this.setMode("polling");
  }

  private stopPolling(): void {
    if (this.poller !== null) this.timers.clearInterval(this.poller);
    this.poller = null;
  }

  private clearRetry(): void {
    if (this.retry !== null) this.timers.clearTimeout(this.retry);
    this.retry = null;
  }

  private setMode(mode: StreamMode): void {
    if (this.mode === mode) return;
    this.mode = mode;
    this.modeListeners.forEach((listener) => listener(mode));
  }
}
