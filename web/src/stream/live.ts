/**
 * The app's one push channel and the hook screens use: `useLive(refresh, types)` calls
 * refresh when a pushed message of those types arrives, or on every polling tick while
 * the channel is down.
 */
import { useEffect, useRef, useState } from "preact/hooks";

import { session } from "../auth/session";
import { config, streamUrl } from "../config";
import { PushChannel, type StreamMessage, type StreamMode } from "./stream";

let channel: PushChannel | null = null;

export function startChannel(): PushChannel {
  channel?.stop();
  channel = new PushChannel({
    url: streamUrl(),
    token: () => session()?.token ?? null,
    pollMs: config().pollSeconds * 1000,
  });
  channel.start();
  return channel;
}

export function stopChannel(): void {
  channel?.stop();
  channel = null;
}

export function useLive(refresh: () => void, types: string[] | null = null): void {
  const latest = useRef(refresh);
  latest.current = refresh;
  const key = types?.join(",") ?? "*";
  useEffect(() => {
    if (!channel) return;
    const matches = (m: StreamMessage) => !types || types.some((t) => m.type.startsWith(t));
    const offMessage = channel.subscribe((m) => matches(m) && latest.current());
    const offPoll = channel.onPoll(() => latest.current());
    return () => {
      offMessage();
      offPoll();
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);
}

export function useStreamMode(): StreamMode {
  const [mode, setMode] = useState<StreamMode>(channel?.mode ?? "stopped");
  useEffect(() => channel?.onMode(setMode), []);
  return mode;
}
