/** The id a Fork button names in `aria-describedby`, so a screen reader reads the warning with it. */
export const FORK_SECRETS_NOTE_ID = "fork-secrets-notice";

/** The `forkSecretsNotice` banner under a share's or a run record's header: the same words, the same place. */
export function ForkSecretsNote({ text }: { text: string }) {
  return (
    <p
      id={FORK_SECRETS_NOTE_ID}
      className="bg-amber-50 px-3 py-1.5 text-sm text-amber-900 dark:bg-amber-950 dark:text-amber-100"
      role="note"
      data-testid="fork-secrets-notice"
    >
      {text}
    </p>
  );
}
