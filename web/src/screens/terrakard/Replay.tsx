/** Watching an attack again, step by step, from its log (the server's, as your seat may see it). */
import { useState } from "preact/hooks";

import { describeEvent, type TkEvent } from "./describe";

export interface ReplayEntry {
  seq: number;
  action?: { kind: string } | null;
  at?: string;
  events?: TkEvent[];
}

export function Replay({ entries, you }: { entries: ReplayEntry[]; you: "attacker" | "defender" }) {
  const [step, setStep] = useState(0);
  const entry = entries[step];
  if (!entry) return <p>Nothing to watch: the log is empty.</p>;
  const hp = [...entries.slice(0, step + 1)]
    .flatMap((e) => e.events ?? [])
    .filter((e) => e.type === "round_resolved")
    .pop();
  return (
    <section aria-labelledby="tk-replay" class="callout">
      <h3 id="tk-replay">Watch again: step {step + 1} of {entries.length}</h3>
      {hp && <p>Hit points now: attacker {String(hp.attackerHp)}, defense {String(hp.defenseHp)}.</p>}
      <ol aria-live="polite" aria-label={`Step ${step + 1}`}>
        {(entry.events ?? []).map((e, n) => <li key={n}>{describeEvent(e, you)}</li>)}
      </ol>
      <div class="actions">
        <button type="button" disabled={step === 0} onClick={() => setStep(step - 1)}>Previous step</button>
        <button type="button" disabled={step >= entries.length - 1} onClick={() => setStep(step + 1)}>Next step</button>
        <button type="button" disabled={step >= entries.length - 1} onClick={() => setStep(entries.length - 1)}>Go to the end</button>
      </div>
    </section>
  );
}
