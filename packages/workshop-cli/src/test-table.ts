/**
 * A test run as terminal text: one line per case as its result arrives (✓/✗, name, time), the failed
 * checks under a failing case, and a summary line. Framework-free, so it is tested on plain data. Names,
 * messages and values are the gadget's or the Workshop's text, escaped (terminal-text.ts) before styling.
 */

import type { TestCaseResult, TestRunSummary } from "@gadgets/workshop-shared";
import type { Painter } from "./terminal-style.ts";
import { escapeControls } from "./terminal-text.ts";

/** Characters of an expected/actual value shown under a failing check; the run record has it whole. */
const VALUE_CHARS = 200;

function shown(value: unknown): string {
  const text = JSON.stringify(value) ?? "undefined";
  return escapeControls(text.length > VALUE_CHARS ? `${text.slice(0, VALUE_CHARS)}…` : text);
}

export function formatCaseResult(result: TestCaseResult, paint: Painter): string {
  const mark = result.status === "passed" ? paint.paint("green", "✓") : paint.paint("red", "✗");
  const lines = [
    `${mark} ${escapeControls(result.name)} ${paint.paint("dim", `(${Math.round(result.durationMs)} ms)`)}`,
  ];
  for (const failure of result.failures) {
    lines.push(`    ${escapeControls(`${failure.check} at ${failure.path}: ${failure.message}`)}`);
    if (failure.check !== "noErrorLogs" && failure.check !== "maxMs")
      lines.push(
        `      expected ${shown(failure.expected)}`,
        `      actual   ${failure.missing ? "(missing)" : shown(failure.actual)}`,
      );
  }
  return `${lines.join("\n")}\n`;
}

export function formatSummary(summary: TestRunSummary, paint: Painter): string {
  if (summary.status === "invalid")
    return `${paint.paint("red", "gadget.tests.json is invalid:")} ${escapeControls(summary.message)}\n`;
  if (summary.status === "none")
    return "No test cases: add gadget.tests.json to the folder (see the gadget contract).\n";
  const counts = `${summary.total} ${summary.total === 1 ? "case" : "cases"}: ${summary.passed} passed, ${summary.failed} failed`;
  const text = summary.status === "passed" ? paint.paint("green", counts) : paint.paint("red", counts);
  // The number is the draft's saved revision, as the IDE shows it (`saved #7`), not an agent's `v1`.
  return `${text} ${paint.paint("dim", `(saved #${summary.version}, ${Math.round(summary.durationMs)} ms)`)}\n`;
}
