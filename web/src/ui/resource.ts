/** Loading something from the API: its data, its problem, and a way to load it again. */
import { useCallback, useEffect, useState } from "preact/hooks";

import { ApiError, type Problem } from "../api/problems";

export interface Resource<T> {
  data: T | null;
  problem: Problem | null;
  loading: boolean;
  reload: () => Promise<void>;
  set: (data: T) => void;
}

export function useResource<T>(load: () => Promise<T>, deps: unknown[] = []): Resource<T> {
  const [data, setData] = useState<T | null>(null);
  const [problem, setProblem] = useState<Problem | null>(null);
  const [loading, setLoading] = useState(true);
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const reload = useCallback(async () => {
    try {
      setData(await load());
      setProblem(null);
    } catch (error) {
      setProblem(asProblem(error));
    } finally {
      setLoading(false);
    }
  }, deps);
  useEffect(() => {
    setLoading(true);
    void reload();
  }, [reload]);
  return { data, problem, loading, reload, set: setData };
}

export function asProblem(error: unknown): Problem {
  if (error instanceof ApiError) return error.problem;
  return { status: 0, code: "client_error", detail: String(error) };
}

/** Runs an action, keeping its problem for the form that started it. */
export function useAction(): {
  busy: boolean;
  problem: Problem | null;
  run: <T>(action: () => Promise<T>) => Promise<T | undefined>;
  clear: () => void;
} {
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<Problem | null>(null);
  const run = useCallback(async <T,>(action: () => Promise<T>) => {
    setBusy(true);
    setProblem(null);
    try {
      return await action();
    } catch (error) {
      setProblem(asProblem(error));
      return undefined;
    } finally {
      setBusy(false);
    }
  }, []);
  return { busy, problem, run, clear: () => setProblem(null) };
}
