import { useMemo } from "react";
import { checkTests, type GadgetFile, TESTS_PATH, type TestStatus } from "@gadgets/workshop-shared";

/** A shared gadget's test cases and how they did when it was shared. */
export function SharedTests({ files, status }: { files: readonly GadgetFile[]; status: TestStatus | undefined }) {
  const cases = useMemo(() => checkTests(files), [files]);
  if (!files.some((file) => file.path === TESTS_PATH)) return null;
  return (
    <section className="border-b border-zinc-200 p-2 text-xs dark:border-zinc-800" aria-label="Tests">
      <h2 className="font-semibold">
        Tests{" "}
        <span className="font-normal text-zinc-600 dark:text-zinc-400" data-testid="shared-tests-summary">
          {status
            ? `${status.passed}/${status.total} passed when shared (${new Date(status.at).toLocaleString()})`
            : "not run for this version"}
        </span>
      </h2>
      {cases.ok ? (
        <ul>
          {cases.value.map((test) => {
            const result = status?.cases.find((entry) => entry.name === test.name)?.status;
            return (
              <li key={test.name} data-testid="shared-test" className="flex gap-2">
                <span
                  className={
                    result === "passed"
                      ? "text-emerald-700 dark:text-emerald-400"
                      : result === "failed"
                        ? "text-red-700 dark:text-red-400"
                        : "text-zinc-600 dark:text-zinc-400"
                  }
                >
                  {result === "passed" ? "✓" : result === "failed" ? "✗" : "–"}
                </span>
                {test.name}
              </li>
            );
          })}
        </ul>
      ) : (
        <p className="text-red-700 dark:text-red-400">{cases.error}</p>
      )}
    </section>
  );
}
