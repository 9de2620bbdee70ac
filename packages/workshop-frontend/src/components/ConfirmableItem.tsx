import { type ReactNode, useEffect, useRef, useState } from "react";

const button =
  "rounded border border-zinc-300 px-2 text-xs hover:bg-zinc-100 dark:border-zinc-700 dark:hover:bg-zinc-800";

interface ConfirmableItemProps {
  /** What the line shows beside its action. */
  children: ReactNode;
  /** The action's button ("Delete") and what it acts on ("GITHUB_TOKEN"), also its accessible name. */
  action: string;
  subject: string;
  /** The question asked in place, and the label of the button that does it ("Delete secret"). */
  question: string;
  confirm: string;
  onConfirm(): Promise<void>;
  /** The `data-…` attributes of the list item. */
  data: Record<`data-${string}`, string>;
}

/**
 * A list item with a destructive action asked again in place (never window.confirm). Focus follows the
 * question: to "Keep it" when asked, back to the action when kept.
 */
export function ConfirmableItem({
  children,
  action,
  subject,
  question,
  confirm,
  onConfirm,
  data,
}: ConfirmableItemProps) {
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const keep = useRef<HTMLButtonElement>(null);
  const actionButton = useRef<HTMLButtonElement>(null);
  const wasAsking = useRef(false);
  useEffect(() => {
    if (asking) keep.current?.focus();
    else if (wasAsking.current) actionButton.current?.focus();
    wasAsking.current = asking;
  }, [asking]);
  return (
    <li className="rounded border border-zinc-200 p-1 dark:border-zinc-800" {...data}>
      <div className="flex items-start gap-2">
        <div className="min-w-0 flex-1">{children}</div>
        {!asking && (
          <button ref={actionButton} type="button" className={button} onClick={() => setAsking(true)}>
            {action}
            <span className="sr-only"> {subject}</span>
          </button>
        )}
      </div>
      {asking && (
        <fieldset className="mt-1 flex flex-wrap items-center gap-2">
          <legend className="sr-only">
            {action} {subject}?
          </legend>
          <span>{question}</span>
          <button
            type="button"
            className="rounded bg-red-600 px-2 text-xs text-white hover:bg-red-700 disabled:opacity-50"
            disabled={busy}
            onClick={() => {
              setBusy(true);
              void onConfirm().finally(() => setBusy(false));
            }}
          >
            {confirm}
          </button>
          <button ref={keep} type="button" className={button} onClick={() => setAsking(false)}>
            Keep it
          </button>
        </fieldset>
      )}
    </li>
  );
}
