import { useId, useState } from "react";
import type { JsonValue } from "@gadgets/workshop-shared";
import {
  editPayload,
  type FormField,
  fieldText,
  shownText,
  type TypedText,
  typedText,
  valueAt,
  valueFromText,
} from "../runs/schema-form.ts";

type JsonObject = { [key: string]: JsonValue };

const inputClass =
  "block w-full rounded border border-zinc-300 bg-transparent px-1 font-mono text-xs aria-[invalid=true]:border-red-500 dark:border-zinc-700";

interface FieldProps {
  field: FormField;
  root: JsonObject;
  /** Schema problems by field pointer. */
  messages: ReadonlyMap<string, string[]>;
  onPayloadText(text: string): void;
}

function placeholderOf(field: FormField): string | undefined {
  if (field.defaultValue !== undefined) return `default: ${JSON.stringify(field.defaultValue)}`;
  if (field.kind === "list") return field.item === "string" ? "a, b, c" : "1, 2, 3";
  if (field.kind === "json") return "JSON";
  return undefined;
}

/** The field's hint and problems, as one description its control points to. */
function FieldNotes({ id, field, problems }: { id: string; field: FormField; problems: readonly string[] }) {
  const hint =
    field.kind === "list"
      ? "separate items with commas"
      : field.kind === "json"
        ? "as JSON"
        : field.kind === "boolean" && field.defaultValue !== undefined
          ? `default: ${JSON.stringify(field.defaultValue)}`
          : undefined;
  if (!field.description && !hint && problems.length === 0) return null;
  return (
    <span id={id} className="block">
      {(field.description || hint) && (
        <span className="block text-zinc-600 dark:text-zinc-400">
          {[field.description, hint].filter(Boolean).join(" · ")}
        </span>
      )}
      {problems.map((problem) => (
        <span key={problem} className="block text-red-600" data-testid="schema-field-problem">
          {problem}
        </span>
      ))}
    </span>
  );
}

function Label({ field }: { field: FormField }) {
  return (
    <>
      <span className="font-mono">{field.key}</span>
      {field.required && <span className="text-zinc-600 dark:text-zinc-400"> (required)</span>}
    </>
  );
}

/** A field edited as text: a string, a number, a list, JSON. */
function TextField({ field, root, messages, onPayloadText }: FieldProps) {
  const id = useId();
  const [typed, setTyped] = useState<TypedText>();
  const [refused, setRefused] = useState<string>();
  const text = shownText(field, root, typed);
  const problems = [...(refused && text === typed?.text ? [refused] : []), ...(messages.get(field.pointer) ?? [])];
  const onText = (next: string) => {
    setTyped(typedText(field, root, next));
    const value = valueFromText(field, next);
    if (!value.ok) return setRefused(value.error);
    setRefused(undefined);
    onPayloadText(editPayload(root, field, value.value));
  };
  const common = {
    id: `${id}-input`,
    className: inputClass,
    value: text,
    placeholder: placeholderOf(field),
    spellCheck: false,
    "aria-required": field.required || undefined,
    "aria-invalid": problems.length > 0 || undefined,
    "aria-describedby": `${id}-notes`,
  };
  return (
    <div className="block">
      <label htmlFor={`${id}-input`}>
        <Label field={field} />
      </label>
      {field.kind === "json" ? (
        <textarea {...common} rows={2} onChange={(e) => onText(e.target.value)} />
      ) : (
        <input
          {...common}
          type="text"
          inputMode={field.kind === "number" ? "decimal" : undefined}
          onChange={(e) => onText(e.target.value)}
        />
      )}
      <FieldNotes id={`${id}-notes`} field={field} problems={problems} />
    </div>
  );
}

function ChoiceField({ field, root, messages, onPayloadText }: FieldProps) {
  const id = useId();
  if (field.kind !== "choice") return null;
  const current = fieldText(field, root);
  const keys = field.options.map((option) => JSON.stringify(option));
  const problems = messages.get(field.pointer) ?? [];
  return (
    <div className="block">
      <label htmlFor={`${id}-input`}>
        <Label field={field} />
      </label>
      <select
        id={`${id}-input`}
        className={inputClass}
        value={current}
        aria-required={field.required || undefined}
        aria-invalid={problems.length > 0 || undefined}
        aria-describedby={`${id}-notes`}
        onChange={(e) =>
          onPayloadText(editPayload(root, field, e.target.value === "" ? undefined : JSON.parse(e.target.value)))
        }
      >
        <option value="">
          {field.defaultValue === undefined ? "(not set)" : `(not set; default: ${JSON.stringify(field.defaultValue)})`}
        </option>
        {field.options.map((option, i) => (
          <option key={keys[i]} value={keys[i]}>
            {String(option)}
          </option>
        ))}
        {current !== "" && !keys.includes(current) && (
          <option value={current} disabled>
            {current} (not one of the choices)
          </option>
        )}
      </select>
      <FieldNotes id={`${id}-notes`} field={field} problems={problems} />
    </div>
  );
}

function BooleanField({ field, root, messages, onPayloadText }: FieldProps) {
  const id = useId();
  const value = valueAt(root, field.path);
  const problems = messages.get(field.pointer) ?? [];
  return (
    <div className="block">
      <label className="flex items-center gap-1">
        <input
          type="checkbox"
          checked={value === true}
          aria-required={field.required || undefined}
          aria-invalid={problems.length > 0 || undefined}
          aria-describedby={`${id}-notes`}
          onChange={(e) => onPayloadText(editPayload(root, field, e.target.checked))}
        />
        <Label field={field} />
        {value === undefined && <span className="text-zinc-600 dark:text-zinc-400">(not set)</span>}
      </label>
      <FieldNotes id={`${id}-notes`} field={field} problems={problems} />
    </div>
  );
}

function ObjectField(props: FieldProps) {
  const id = useId();
  const { field } = props;
  if (field.kind !== "object") return null;
  return (
    <fieldset
      className="space-y-1 rounded border border-zinc-200 p-1 dark:border-zinc-800"
      aria-describedby={`${id}-notes`}
    >
      <legend className="px-1">
        <Label field={field} />
      </legend>
      <FieldNotes id={`${id}-notes`} field={field} problems={props.messages.get(field.pointer) ?? []} />
      {field.fields.map((nested) => (
        <Field key={nested.key} {...props} field={nested} />
      ))}
    </fieldset>
  );
}

function Field(props: FieldProps) {
  switch (props.field.kind) {
    case "boolean":
      return <BooleanField {...props} />;
    case "choice":
      return <ChoiceField {...props} />;
    case "object":
      return <ObjectField {...props} />;
    default:
      return <TextField {...props} />;
  }
}

/**
 * The payload as a form generated from the input schema; every edit rewrites the payload text, which
 * the JSON view shows too. Schema problems appear beside the field they are about.
 */
export function SchemaForm({
  fields,
  root,
  messages,
  unplaced,
  onPayloadText,
}: {
  fields: readonly FormField[];
  root: JsonObject;
  messages: ReadonlyMap<string, string[]>;
  /** Problems no field is about (the payload as a whole). */
  unplaced: readonly string[];
  onPayloadText(text: string): void;
}) {
  return (
    <form className="space-y-1 text-xs" aria-label="Payload form" onSubmit={(e) => e.preventDefault()}>
      {unplaced.map((problem) => (
        <p key={problem} className="text-red-600" data-testid="schema-field-problem">
          {problem}
        </p>
      ))}
      {fields.map((field) => (
        <Field key={field.key} field={field} root={root} messages={messages} onPayloadText={onPayloadText} />
      ))}
    </form>
  );
}
