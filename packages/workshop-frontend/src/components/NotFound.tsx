/** The one page for links that do not exist, malformed or unknown alike. */
export function NotFound({ message }: { message?: string }) {
  return (
    <main className="mx-auto mt-24 max-w-md p-6 text-center" data-testid="not-found">
      <h1 className="text-xl font-semibold">Not found</h1>
      <p className="mt-2 text-sm text-zinc-600 dark:text-zinc-400">
        {message ?? "This link does not exist. Check that it was copied whole."}
      </p>
      <a className="mt-4 inline-block text-sm text-sky-600 underline" href="/">
        Open the Workshop
      </a>
    </main>
  );
}
