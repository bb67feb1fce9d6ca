/**
 * Answer types by operation id, from the generated document (`schema.d.ts`): the
 * component names apispec invents for same-named schemas (`Collection1`, `Deck1`) move
 * when a route is added; operation ids do not.
 */
import type { operations } from "./schema";

type Json<R> = R extends { content: { "application/json": infer T } } ? T : never;

export type Answer<Op extends keyof operations, Code extends number = 200> =
  Code extends keyof operations[Op]["responses"] ? Json<operations[Op]["responses"][Code]> : never;
