/**
 * A kind's form as data: the fields authoring validates (`GET /authoring/forms`, read from
 * the service's own schemas), what an Author has typed into them (a draft), the body sent
 * from that draft, and a refusal's messages placed on the fields they name.
 *
 * The server decides: nothing here refuses a value. What is typed is sent as typed (a
 * number field that holds no number is sent as its text), so the message that comes back
 * is authoring's, beside the field it is about.
 */
import type { Schemas } from "../../api/client";
import type { Problem } from "../../api/problems";

export type FormField = Schemas["FormField"];
export type KindForm = Schemas["KindForm"];

/** What the inputs hold: text as typed (numbers too), booleans, nested drafts, lists. */
export type DraftValue = string | boolean | Draft | DraftValue[];
export interface Draft {
  [name: string]: DraftValue;
}

/** A field's path in the body: `choices.0.text`, `location.lat`. */
export const join = (path: string, name: string | number): string => (path ? `${path}.${name}` : String(name));

/** An integer field with few values is a choice (Difficulty 1–3), shown as a select. */
export function smallRange(field: FormField): number[] | null {
  if (field.type !== "integer" || field.min == null || field.max == null) return null;
  if (field.max - field.min > 10) return null;
  return Array.from({ length: field.max - field.min + 1 }, (_, i) => (field.min ?? 0) + i);
}

function pad(n: number): string {
  return String(n).padStart(2, "0");
}

/** An ISO time as a `datetime-local` input shows it (the device's time zone). */
export function localDateTime(iso: string): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return "";
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T${pad(at.getHours())}:${pad(at.getMinutes())}`;
}

/** A `datetime-local` value as an ISO time with its zone (what authoring requires). */
export function isoDateTime(local: string): string {
  const at = new Date(local);
  return Number.isNaN(at.getTime()) ? local : at.toISOString();
}

/** One field's draft from a body's value (or the field's default when there is none). */
export function draftValue(field: FormField, value: unknown): DraftValue {
  const given = value === undefined ? field.default : value;
  switch (field.type) {
    case "boolean":
      return given === true;
    case "object":
      return draftOf(field.fields ?? [], (given ?? {}) as Record<string, unknown>);
    case "list":
      return Array.isArray(given) && field.item ? given.map((item) => draftValue(field.item as FormField, item)) : [];
    case "json":
      return given === undefined || given === null ? "" : JSON.stringify(given, null, 2);
    case "datetime":
      return typeof given === "string" ? localDateTime(given) : "";
    default:
      return given === undefined || given === null ? "" : String(given);
  }
}

export function draftOf(fields: FormField[], body: Record<string, unknown>): Draft {
  const draft: Draft = {};
  for (const field of fields) draft[field.name] = draftValue(field, body[field.name]);
  return draft;
}

/** A new list element: an object's defaults, or an empty value. */
export function newItem(field: FormField): DraftValue {
  return draftValue(field, field.type === "object" ? {} : undefined);
}

const OMIT = Symbol("omit");

/** The body a draft stands for, and the fields whose text is not JSON (said locally:
 * a body cannot carry text that does not parse). Empty optional inputs are left out,
 * so authoring applies its defaults. */
export function bodyOf(fields: FormField[], draft: Draft): { body: Record<string, unknown>; errors: Map<string, string[]> } {
  const errors = new Map<string, string[]>();
  const body = objectOf(fields, draft, "", errors);
  return { body, errors };
}

function objectOf(fields: FormField[], draft: Draft, path: string, errors: Map<string, string[]>): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const field of fields) {
    const value = valueOf(field, draft[field.name], join(path, field.name), errors);
    if (value !== OMIT) body[field.name] = value;
  }
  return body;
}

function valueOf(field: FormField, value: DraftValue | undefined, path: string, errors: Map<string, string[]>): unknown {
  if (value === undefined) return OMIT;
  switch (field.type) {
    case "boolean":
      return value === true;
    case "object":
      return objectOf(field.fields ?? [], value as Draft, path, errors);
    case "list": {
      const items = (value as DraftValue[]).map((item, i) => valueOf(field.item as FormField, item, join(path, i), errors));
      return items.filter((item) => item !== OMIT);
    }
    case "json": {
      const text = String(value).trim();
      if (!text) return OMIT;
      try {
        return JSON.parse(text) as unknown;
      } catch (error) {
        errors.set(path, [`Not valid JSON: ${(error as Error).message}`]);
        return OMIT;
      }
    }
    case "integer":
    case "number": {
      const text = String(value).trim();
      if (!text) return OMIT;
      const number = Number(text);
      return Number.isFinite(number) ? number : text; // the server says what is wrong with it
    }
    case "datetime":
      return String(value) ? isoDateTime(String(value)) : OMIT;
    case "text":
      return value;
    default: // choice, id
      return String(value) ? value : OMIT;
  }
}

/**
 * A refusal's messages by the path of the field they are about. `invalid_content` keys its
 * `fields` as the body is (`{"choices": {"0": {"text": [...]}}}`); a game's own validator
 * (an effect, a reward) names where in `path` (`moves[0].effects[1]`): its message goes to
 * the deepest field the form shows on that path. `paths` are the form's field paths.
 */
export function fieldMessages(problem: Problem | null, paths: Set<string>): Map<string, string[]> {
  const found = new Map<string, string[]>();
  if (!problem) return found;
  const add = (path: string, messages: string[]) => found.set(path, [...(found.get(path) ?? []), ...messages]);
  if (problem.code === "invalid_content" && problem.fields) {
    flatten(problem.fields, "", add);
    return found;
  }
  if (typeof problem.path === "string") {
    const parts = problem.path.replace(/\[(\d+)\]/g, ".$1").split(".").filter(Boolean).map(camel);
    for (let n = parts.length; n > 0; n--) {
      const path = parts.slice(0, n).join(".");
      if (paths.has(path)) {
        const inner = problem.fields ? Object.entries(problem.fields).map(([k, v]) => `${k}: ${([] as unknown[]).concat(v).join(" ")}`) : [];
        add(path, [problem.detail ?? problem.code, ...inner]);
        break;
      }
    }
  }
  return found;
}

function flatten(value: unknown, path: string, add: (path: string, messages: string[]) => void): void {
  if (Array.isArray(value)) {
    add(path === "_schema" ? "" : path, value.map(String));
    return;
  }
  if (value && typeof value === "object")
    for (const [key, inner] of Object.entries(value)) flatten(inner, key === "_schema" ? path : join(path, key), add);
}

/** A snake_case name as the wire names it (a validator's path is the service's). */
export function camel(name: string): string {
  return name.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());
}

/** Every path a form shows for a draft (its lists as long as the draft's). */
export function pathsOf(fields: FormField[], draft: Draft, path = ""): Set<string> {
  const paths = new Set<string>();
  for (const field of fields) {
    const here = join(path, field.name);
    paths.add(here);
    const value = draft[field.name];
    if (field.type === "object") for (const p of pathsOf(field.fields ?? [], (value ?? {}) as Draft, here)) paths.add(p);
    if (field.type === "list" && Array.isArray(value) && field.item) {
      value.forEach((item, i) => {
        const at = join(here, i);
        paths.add(at);
        if (field.item?.type === "object") for (const p of pathsOf(field.item.fields ?? [], (item ?? {}) as Draft, at)) paths.add(p);
      });
    }
  }
  return paths;
}
