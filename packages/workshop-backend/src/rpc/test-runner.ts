/**
 * Runs a draft version's test cases: a few at a time (each an ordinary run, in this session's run
 * slots), judges each against its expectations as soon as it ends, streams the result, and sums up.
 */

import type {
  Draft,
  TestCase,
  TestCaseResult,
  TestResultListener,
  TestRunSummary,
  TestStatus,
} from "@gadgets/workshop-shared/api";
import { checkTests, judgeCase } from "@gadgets/workshop-shared/gadget-tests";
import { MAX_TEST_RESULT_BYTES, TEST_CONCURRENCY } from "@gadgets/workshop-shared/limits";
import { byteLength, checkManifest } from "@gadgets/workshop-shared/validate";
import { launchRun, type RunContext } from "./run-launcher.ts";

async function runCase(context: RunContext, draft: Draft, test: TestCase, index: number): Promise<TestCaseResult> {
  const receivedAt = Date.now();
  let errorLogs = 0;
  const outcome = await launchRun(context, {
    source: { kind: "draft", draftId: draft.id, version: draft.version },
    scope: draft.id,
    files: draft.files,
    payload: test.input,
    listener: (event) => {
      if (event.type === "log" && event.level === "error") errorLogs++;
    },
    timeoutMs: context.timeoutMs,
    receivedAt,
    codeKey: `draft:${draft.id}@${draft.version}`,
  });
  const failures = judgeCase(test, { outcome, errorLogs });
  const size = outcome.status === "ok" ? byteLength(JSON.stringify(outcome.result)) : 0;
  const truncated = size > MAX_TEST_RESULT_BYTES;
  return {
    index,
    name: test.name,
    status: failures.length === 0 ? "passed" : "failed",
    runId: outcome.runId,
    outcome:
      truncated && outcome.status === "ok"
        ? {
            ...outcome,
            result: `(a result of ${size} bytes, more than a test result carries: see run ${outcome.runId})`,
          }
        : outcome,
    ...(truncated ? { resultTruncated: true } : {}),
    failures,
    errorLogs,
    durationMs: Date.now() - receivedAt,
  };
}

export async function runTestSuite(
  context: RunContext,
  draft: Draft,
  onResult: TestResultListener | undefined,
): Promise<TestRunSummary> {
  const started = Date.now();
  const checked = checkTests(draft.files);
  if (!checked.ok) return { status: "invalid", draftId: draft.id, version: draft.version, message: checked.error };
  const cases = checked.value;
  const results: TestCaseResult[] = [];
  const deliveries: Promise<unknown>[] = [];
  let next = 0;
  const worker = async () => {
    while (next < cases.length) {
      const index = next++;
      const result = await runCase(context, draft, cases[index] as TestCase, index);
      results.push(result);
      if (onResult) {
        // Each result goes out as it is known; a listener that fails does not stop the suite.
        deliveries.push(
          (async () => {
            try {
              await onResult(result);
            } catch {
              // the caller went away or its listener threw: the summary still says everything
            }
          })(),
        );
      }
    }
  };
  // A case that calls agents takes a run slot per level of the chain: such suites run one case at a
  // time, so the chain always finds its slots.
  const manifest = checkManifest(draft.files);
  const concurrency = manifest.ok && manifest.value.grants?.catalog ? 1 : TEST_CONCURRENCY;
  await Promise.all(Array.from({ length: Math.min(concurrency, cases.length) }, worker));
  await Promise.all(deliveries);
  results.sort((a, b) => a.index - b.index);
  const passed = results.filter((result) => result.status === "passed").length;
  return {
    status: cases.length === 0 ? "none" : passed === cases.length ? "passed" : "failed",
    draftId: draft.id,
    version: draft.version,
    total: cases.length,
    passed,
    failed: cases.length - passed,
    durationMs: Date.now() - started,
    results,
  };
}

/** The summary as kept with a draft, an agent version or a share. */
export function testStatusOf(summary: TestRunSummary, at: number): TestStatus {
  if (summary.status === "invalid")
    return { status: "invalid", version: summary.version, at, total: 0, passed: 0, failed: 0, cases: [] };
  return {
    status: summary.status,
    version: summary.version,
    at,
    total: summary.total,
    passed: summary.passed,
    failed: summary.failed,
    cases: summary.results.map((result) => ({ name: result.name, status: result.status, runId: result.runId })),
  };
}
