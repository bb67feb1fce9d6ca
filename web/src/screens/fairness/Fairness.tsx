/**
 * Provably fair rolls (docs/fairness.md): the active server seed's hash, the client seed
 * (the player may set it), rotation (reveals the old seed), the roll history, and a
 * verifier that runs here in the browser (src/lib/fair.ts) on the downloaded export or a
 * pasted or loaded file — it never asks the server whether a roll was fair.
 */
import { useState } from "preact/hooks";

import { api, type Schemas, unwrap } from "../../api/client";
import { rollsOf, type Verdict, verifyHistory } from "../../lib/fair";
import { Loading, ProblemBox, Screen } from "../../ui/components";
import { useAction, useResource } from "../../ui/resource";

type RollPage = Schemas["RollPage"];
type Rotation = Schemas["Rotation"];

function Summary({ verdicts }: { verdicts: Verdict[] }) {
  const count = (status: Verdict["status"]) => verdicts.filter((v) => v.status === status).length;
  const failed = verdicts.filter((v) => v.status === "failed");
  return (
    <div role="status">
      <p>
        {verdicts.length} rolls: {count("ok")} verified, {failed.length} failed, {count("pending")} pending
        {count("pending") > 0 && " (their server seed is still secret: rotate it, then verify again)"}.
      </p>
      {failed.length > 0 && (
        <ul aria-label="Rolls that failed">
          {failed.flatMap((v) => v.problems).map((problem) => (
            <li key={problem}>✗ {problem}</li>
          ))}
        </ul>
      )}
    </div>
  );
}

function Verifier() {
  const [text, setText] = useState("");
  const [verdicts, setVerdicts] = useState<Verdict[] | null>(null);
  const [unreadable, setUnreadable] = useState<string | null>(null);
  const action = useAction();
  const check = async (document: unknown) => {
    setUnreadable(null);
    try {
      setVerdicts(await verifyHistory(rollsOf(document)));
    } catch (error) {
      setVerdicts(null);
      setUnreadable(String(error));
    }
  };
  const checkText = (value: string) => {
    try {
      void check(JSON.parse(value));
    } catch {
      setVerdicts(null);
      setUnreadable("This is not JSON: paste the whole exported file.");
    }
  };
  const download = () =>
    action.run(async () => {
      const exported = await unwrap(api.GET("/me/fairness/export"));
      setText(JSON.stringify(exported, null, 2));
      await check(exported);
    });
  return (
    <section aria-labelledby="verify-title">
      <h2 id="verify-title">Verify</h2>
      <p>
        The check runs in this browser: it recomputes each roll from its revealed server seed, your client seed and
        the nonce, and compares every outcome. You can also run <code>deckyard verify deckyard-rolls.json</code>.
      </p>
      <p>
        <button type="button" onClick={() => void download()} disabled={action.busy}>
          Verify my whole history
        </button>
      </p>
      <ProblemBox problem={action.problem} title="Not exported:" />
      <form onSubmit={(e) => { e.preventDefault(); checkText(text); }}>
        <label for="history-file">Load an exported file</label>
        <input
          id="history-file"
          type="file"
          accept="application/json,.json"
          onChange={async (e) => {
            const file = e.currentTarget.files?.[0];
            if (!file) return;
            const content = await file.text();
            setText(content);
            checkText(content);
          }}
        />
        <label for="history-text">Or paste a history (JSON)</label>
        <textarea id="history-text" rows={6} value={text} onInput={(e) => setText(e.currentTarget.value)} />
        <button type="submit" disabled={!text.trim()}>Verify what is pasted</button>
      </form>
      {unreadable && <p role="alert">Cannot read it: {unreadable}</p>}
      {verdicts && <Summary verdicts={verdicts} />}
    </section>
  );
}

function Rolls() {
  const [pages, setPages] = useState<RollPage[]>([]);
  const first = useResource(async () => {
    const page = await unwrap(api.GET("/me/fairness/rolls", { params: { query: { limit: 20 } } }));
    setPages([page]);
    return page;
  });
  const more = useAction();
  const next = pages.at(-1)?.next ?? null;
  const loadMore = () =>
    more.run(async () => {
      if (!next) return;
      const page = await unwrap(api.GET("/me/fairness/rolls", { params: { query: { limit: 20, cursor: next } } }));
      setPages((all) => [...all, page]);
    });
  const rolls = pages.flatMap((page) => page.items ?? []);
  return (
    <section aria-labelledby="rolls-title">
      <h2 id="rolls-title">Your rolls</h2>
      {first.loading && <Loading what="your rolls" />}
      <ProblemBox problem={first.problem} />
      {!first.loading && rolls.length === 0 && <p>No rolls yet: opening a pack or winning a reward makes one.</p>}
      <ol>
        {rolls.map((roll) => (
          <li key={roll.id}>
            <strong>{roll.purpose}</strong>, nonce {roll.nonce}, client seed <code>{roll.clientSeed}</code>
            {roll.serverSeed ? " (seed revealed: verifiable)" : " (seed still secret)"}
            <ul>
              {(roll.draws ?? []).map((draw) => (
                <li key={draw.key}>
                  {draw.key}: {draw.outcome} of {(draw.options ?? []).length}
                </li>
              ))}
            </ul>
          </li>
        ))}
      </ol>
      {next && (
        <button type="button" onClick={() => void loadMore()} disabled={more.busy}>
          Load older rolls
        </button>
      )}
      <ProblemBox problem={more.problem} />
    </section>
  );
}

export function Fairness() {
  const state = useResource(() => unwrap(api.GET("/me/fairness")));
  const [clientSeed, setClientSeed] = useState("");
  const [rotation, setRotation] = useState<Rotation | null>(null);
  const seedAction = useAction();
  const rotateAction = useAction();
  const saveSeed = () =>
    seedAction.run(async () => {
      state.set(await unwrap(api.PUT("/me/fairness/client-seed", { body: { clientSeed } })));
      setClientSeed("");
    });
  const rotate = () =>
    rotateAction.run(async () => {
      const rotated = await unwrap(api.POST("/me/fairness/rotate"));
      setRotation(rotated);
      if (rotated.active) state.set(rotated.active);
    });
  return (
    <Screen title="Fairness">
      <p>
        Every pack and reward you get is drawn from a secret server seed, shown to you only by its SHA-256 hash
        before any roll, and a client seed you choose. Rotate to reveal the seed; then every roll made under it can be
        checked, here or offline.
      </p>
      {state.loading && <Loading what="your seeds" />}
      <ProblemBox problem={state.problem} />
      {state.data && (
        <dl>
          <dt>Server seed hash (SHA-256)</dt>
          <dd><code class="wrap">{state.data.serverSeedHash}</code></dd>
          <dt>Client seed</dt>
          <dd><code>{state.data.clientSeed}</code></dd>
          <dt>Next nonce</dt>
          <dd>{state.data.nonce}</dd>
        </dl>
      )}
      <form onSubmit={(e) => { e.preventDefault(); void saveSeed(); }}>
        <label for="client-seed">New client seed (1–64 of A–Z a–z 0–9 _ . -)</label>
        <input id="client-seed" autoComplete="off" value={clientSeed} maxLength={64} onInput={(e) => setClientSeed(e.currentTarget.value)} />
        <button type="submit" disabled={!clientSeed || seedAction.busy}>Set client seed</button>
        <ProblemBox problem={seedAction.problem} title="Not set:" />
      </form>
      <p>
        <button type="button" onClick={() => void rotate()} disabled={rotateAction.busy}>
          Rotate: reveal my server seed
        </button>
      </p>
      <ProblemBox problem={rotateAction.problem} title="Not rotated:" />
      {rotation?.revealed && (
        <p role="status">
          Revealed server seed <code class="wrap">{rotation.revealed.serverSeed}</code> (hash{" "}
          <code class="wrap">{rotation.revealed.serverSeedHash}</code>), used for {rotation.revealed.rolls} rolls.
        </p>
      )}
      <Rolls key={rotation?.revealed?.serverSeed ?? "rolls"} />
      <Verifier />
    </Screen>
  );
}
