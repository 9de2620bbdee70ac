import type { TestStatus } from "@gadgets/workshop-shared";

/** How a published version did on its tests, in a few words. */
export function TestBadge({ tests }: { tests: TestStatus | undefined }) {
  if (!tests) return null;
  const text =
    tests.status === "none"
      ? "no tests"
      : tests.status === "invalid"
        ? "invalid tests"
        : `tests ${tests.passed}/${tests.total}${tests.overridden ? " · published despite failures" : ""}`;
  const good = tests.status === "passed";
  return (
    <span
      data-testid="agent-tests"
      className={`rounded px-1 text-xs font-normal ${good ? "bg-emerald-100 text-emerald-900 dark:bg-emerald-950 dark:text-emerald-200" : tests.status === "none" ? "bg-zinc-100 text-zinc-600 dark:bg-zinc-800 dark:text-zinc-300" : "bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200"}`}
    >
      {text}
    </span>
  );
}
