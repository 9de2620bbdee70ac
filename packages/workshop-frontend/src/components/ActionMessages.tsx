/** What the last action in a dialog came to: its error as an alert, or its notice as a status line. */
export function ActionMessages({ error, notice }: { error: string | undefined; notice: string | undefined }) {
  return (
    <>
      {error && (
        <p className="text-xs text-red-600" role="alert">
          {error}
        </p>
      )}
      {notice && (
        <p className="text-xs text-emerald-700 dark:text-emerald-400" role="status">
          {notice}
        </p>
      )}
    </>
  );
}
