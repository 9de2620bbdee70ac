/**
 * Work started and not awaited — a message to a peer that may have gone (a closed session, a killed
 * runner). Its failure is logged, never thrown and never silently dropped. Peers go away in ordinary
 * operation, so each kind of work logs its 1st, 10th, 100th… failure with the count, not every one.
 */

const failures = new Map<string, number>();

/** Where failures go: a line of text (the Worker's log, or the pool's output). */
export type DetachedLog = (line: string) => void;

const toConsole: DetachedLog = (line) => console.warn(line);

/** Resolves once the work has settled, whichever way (for a `waitUntil` that must not see a rejection). */
export function detached(what: string, work: unknown, log: DetachedLog = toConsole): Promise<void> {
  return Promise.resolve(work).then(
    () => {},
    (error: unknown) => {
      const count = (failures.get(what) ?? 0) + 1;
      failures.set(what, count);
      if (Number.isInteger(Math.log10(count)))
        log(`${what} failed (${count} so far): ${error instanceof Error ? error.message : String(error)}`);
    },
  );
}
