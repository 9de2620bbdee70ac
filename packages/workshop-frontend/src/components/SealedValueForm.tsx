import type { Checked } from "@gadgets/workshop-shared/schemas";
import { type Ref, useState } from "react";
import { errorMessage } from "../error-message.ts";

const field = "rounded border border-zinc-300 bg-transparent px-1 font-mono text-xs dark:border-zinc-700";

/** The plain field: what the sealed value is kept under (a secret's name, a registry's URL). */
export interface SealedNameField {
  label: string;
  initial?: string;
  maxLength: number;
  placeholder: string;
  /** Grows with the row (a URL); otherwise as wide as the browser makes it. */
  wide?: boolean;
  /** How typed text is kept (a secret's name in capitals); as typed when left out. */
  normalize?(text: string): string;
  /** For a dialog that moves the focus back here (after a reset). */
  inputRef?: Ref<HTMLInputElement>;
}

/** The password field, described by a hint that says the value is never shown again. */
export interface SealedValueField {
  label: string;
  hintId: string;
  hint: string;
}

export interface SealedValueFormProps<Entry> {
  /** The form's accessible name. */
  label: string;
  name: SealedNameField;
  value: SealedValueField;
  /** The submit button's words, before and while sending. */
  submit: { idle: string; busy: string };
  /** The two fields as typed, checked: what to send, or the words of the problem. */
  check(name: string, value: string): Checked<Entry>;
  /** Sends a checked entry; resolves to the notice saying it is kept. */
  send(entry: Entry): Promise<string>;
  /** A refusal (the check's or the Workshop's), or undefined when a new attempt starts. */
  onError(error: string | undefined): void;
  onNotice(notice: string): void;
}

/**
 * A write-only entry: a name or URL and a value typed in a password field, sent once and then both
 * cleared, so the value is never shown again nor kept anywhere in the page. The dialog around it shows
 * the errors and notices, since its other actions (delete, reset) have some of their own.
 */
export function SealedValueForm<Entry>(props: SealedValueFormProps<Entry>) {
  const { name: nameField, value: valueField, onError } = props;
  const [name, setName] = useState(nameField.initial ?? "");
  const [value, setValue] = useState("");
  const [busy, setBusy] = useState(false);

  const submit = async () => {
    const entry = props.check(name, value);
    if (!entry.ok) return onError(entry.error);
    setBusy(true);
    onError(undefined);
    try {
      const notice = await props.send(entry.value);
      setValue("");
      setName("");
      props.onNotice(notice);
    } catch (reason) {
      onError(errorMessage(reason));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      className="flex flex-col gap-1"
      aria-label={props.label}
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <div className="flex flex-wrap items-center gap-2">
        <label className={`flex ${nameField.wide ? "flex-1 " : ""}items-center gap-1 text-xs`}>
          {nameField.label}
          <input
            ref={nameField.inputRef}
            className={nameField.wide ? `${field} flex-1` : field}
            value={name}
            maxLength={nameField.maxLength}
            placeholder={nameField.placeholder}
            spellCheck={false}
            autoComplete="off"
            onChange={(e) => setName(nameField.normalize ? nameField.normalize(e.target.value) : e.target.value)}
            data-autofocus
          />
        </label>
        <label className="flex flex-1 items-center gap-1 text-xs">
          {valueField.label}
          <input
            className={`${field} flex-1`}
            type="password"
            value={value}
            autoComplete="new-password"
            spellCheck={false}
            onChange={(e) => setValue(e.target.value)}
            aria-describedby={valueField.hintId}
          />
        </label>
        <button
          type="submit"
          className="rounded bg-sky-700 px-2 py-0.5 text-xs text-white hover:bg-sky-800 disabled:opacity-50"
          disabled={busy}
        >
          {busy ? props.submit.busy : props.submit.idle}
        </button>
      </div>
      <span id={valueField.hintId} className="text-xs text-zinc-600 dark:text-zinc-400">
        {valueField.hint}
      </span>
    </form>
  );
}
