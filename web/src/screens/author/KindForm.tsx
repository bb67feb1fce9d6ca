/**
 * The form of one kind of content, drawn from its fields as authoring validates them
 * (formModel.ts): a labelled input per field, choices as selects, nested parts and list
 * elements as groups, bounds said as hints, and what the server refused said beside the
 * field it is about (`aria-describedby`, so a screen reader reads it with the field).
 */
import type { ComponentChildren } from "preact";

import { type Draft, type DraftValue, type FormField, join, newItem, smallRange } from "./formModel";

interface Shared {
  messages: Map<string, string[]>;
  readOnly: boolean;
  prefix: string;
}

// The stylesheet widens every input but a radio to the column; a tick box keeps its size.
const CHECKBOX = { width: "auto" };

export function KindForm({
  fields,
  draft,
  onChange,
  messages,
  readOnly = false,
  prefix,
}: {
  fields: FormField[];
  draft: Draft;
  onChange: (draft: Draft) => void;
  messages: Map<string, string[]>;
  readOnly?: boolean;
  prefix: string;
}) {
  return <Fields fields={fields} draft={draft} path="" set={onChange} shared={{ messages, readOnly, prefix }} />;
}

function Fields({ fields, draft, path, set, shared }: { fields: FormField[]; draft: Draft; path: string; set: (d: Draft) => void; shared: Shared }) {
  return (
    <>
      {fields.map((field) => (
        <FieldInput
          key={field.name}
          field={field}
          label={field.label}
          value={draft[field.name]}
          path={join(path, field.name)}
          set={(value) => set({ ...draft, [field.name]: value })}
          shared={shared}
        />
      ))}
    </>
  );
}

function idOf(shared: Shared, path: string): string {
  return `${shared.prefix}-${path.replace(/[^A-Za-z0-9]+/g, "-")}`;
}

/** What the schema bounds, in words (a hint under the label). */
function hintOf(field: FormField): string {
  const hints: string[] = [];
  if (field.type === "integer" || field.type === "number") {
    if (field.min != null && field.max != null) hints.push(`From ${field.min} to ${field.max}.`);
    else if (field.min != null) hints.push(`At least ${field.min}.`);
  }
  if (field.type === "text" && field.maxLength != null) hints.push(`At most ${field.maxLength} characters.`);
  if (field.type === "text" && field.pattern) hints.push(field.name === "wikidata" ? "A Wikidata id such as Q42." : `Matches ${field.pattern}.`);
  if (field.type === "id") hints.push("The id of published content.");
  if (field.type === "json") hints.push("JSON: a list of the game's entries, each with its \"type\" (docs/card-catalogue.md).");
  if (field.type === "datetime") hints.push("Your local time.");
  if (field.private) hints.push("Only Authors see this.");
  return hints.join(" ");
}

function Messages({ id, messages }: { id: string; messages: string[] | undefined }) {
  if (!messages?.length) return null;
  return (
    <p id={id} class="problem field-problem">
      {messages.join(" ")}
    </p>
  );
}

function FieldInput({
  field,
  label,
  value,
  path,
  set,
  shared,
}: {
  field: FormField;
  label: string;
  value: DraftValue | undefined;
  path: string;
  set: (value: DraftValue) => void;
  shared: Shared;
}) {
  const id = idOf(shared, path);
  const said = shared.messages.get(path);
  const hint = hintOf(field);
  const described = [hint ? `${id}-hint` : "", said?.length ? `${id}-error` : ""].filter(Boolean).join(" ") || undefined;
  const invalid = said?.length ? true : undefined;
  const title = `${label}${field.required ? " (required)" : ""}`;

  if (field.type === "object") {
    return (
      <fieldset aria-describedby={described}>
        <legend>{title}</legend>
        <Messages id={`${id}-error`} messages={said} />
        <Fields fields={field.fields ?? []} draft={(value ?? {}) as Draft} path={path} set={set} shared={shared} />
      </fieldset>
    );
  }
  if (field.type === "list") return <ListInput field={field} value={(value ?? []) as DraftValue[]} path={path} set={set} shared={shared} title={title} />;

  const common = { id, "aria-describedby": described, "aria-invalid": invalid, disabled: shared.readOnly };
  const text = typeof value === "string" ? value : "";
  let input: ComponentChildren;
  if (field.type === "boolean") {
    return (
      <>
        <label class="choice" for={id}>
          <input type="checkbox" style={CHECKBOX} {...common} checked={value === true} onChange={(e) => set(e.currentTarget.checked)} />
          {label}
        </label>
        {hint && <p id={`${id}-hint`} class="note">{hint}</p>}
        <Messages id={`${id}-error`} messages={said} />
      </>
    );
  }
  const range = smallRange(field);
  if (field.type === "choice" || range) {
    const options = range ? range.map(String) : (field.choices ?? []);
    input = (
      <select {...common} value={text} onChange={(e) => set(e.currentTarget.value)}>
        <option value="">{field.required ? "Choose…" : "None"}</option>
        {options.map((option) => (
          <option key={option} value={option}>{option}</option>
        ))}
      </select>
    );
  } else if (field.type === "json" || field.multiline) {
    input = <textarea {...common} rows={field.type === "json" ? 6 : 4} value={text} onInput={(e) => set(e.currentTarget.value)} />;
  } else if (field.type === "integer" || field.type === "number") {
    input = (
      <input
        {...common}
        type="text"
        inputMode={field.type === "integer" && (field.min ?? 0) >= 0 ? "numeric" : "decimal"}
        value={text}
        onInput={(e) => set(e.currentTarget.value)}
      />
    );
  } else if (field.type === "datetime") {
    input = <input {...common} type="datetime-local" value={text} onInput={(e) => set(e.currentTarget.value)} />;
  } else {
    input = <input {...common} type="text" value={text} onInput={(e) => set(e.currentTarget.value)} />;
  }
  return (
    <>
      <label for={id}>{title}</label>
      {hint && <p id={`${id}-hint`} class="note">{hint}</p>}
      {input}
      <Messages id={`${id}-error`} messages={said} />
    </>
  );
}

function ListInput({
  field,
  value,
  path,
  set,
  shared,
  title,
}: {
  field: FormField;
  value: DraftValue[];
  path: string;
  set: (value: DraftValue) => void;
  shared: Shared;
  title: string;
}) {
  const item = field.item as FormField;
  const id = idOf(shared, path);
  const said = shared.messages.get(path);
  const full = field.maxItems != null && value.length >= field.maxItems;
  const one = item.label.toLowerCase();
  const bound = field.maxItems != null ? `At most ${field.maxItems}.` : "";
  return (
    <fieldset aria-describedby={[bound ? `${id}-hint` : "", said?.length ? `${id}-error` : ""].filter(Boolean).join(" ") || undefined}>
      <legend>{title}</legend>
      {bound && <p id={`${id}-hint`} class="note">{bound}{field.private ? " Only Authors see this." : ""}</p>}
      <Messages id={`${id}-error`} messages={said} />
      {value.map((element, i) => (
        <div key={i}>
          <FieldInput
            field={item}
            label={`${item.label} ${i + 1}`}
            value={element}
            path={join(path, i)}
            set={(changed) => set(value.map((old, n) => (n === i ? changed : old)))}
            shared={shared}
          />
          {!shared.readOnly && (
            <button type="button" onClick={() => set(value.filter((_, n) => n !== i))}>
              Remove {one} {i + 1}
            </button>
          )}
        </div>
      ))}
      {!shared.readOnly && (
        <div class="actions">
          <button type="button" disabled={full} aria-describedby={full ? `${id}-full` : undefined} onClick={() => set([...value, newItem(item)])}>
            Add {/^[aeiou]/.test(one) ? "an" : "a"} {one}
          </button>
          {full && <span id={`${id}-full`} class="note">{`At most ${field.maxItems}: remove one to add another.`}</span>}
        </div>
      )}
    </fieldset>
  );
}
