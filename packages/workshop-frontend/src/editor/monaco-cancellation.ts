/**
 * Monaco's standalone editor leaves one of its own cancellations unhandled: on Ctrl+. its progress
 * service awaits the code-action request (`showWhile`) and nobody awaits that, so when Monaco cancels
 * the request itself (the cursor moved, markers changed) the rejection reaches the page. VS Code's
 * workbench drops cancellation errors in its unhandled-rejection handler; this does the same, for
 * Monaco's cancellation error only — every other rejection still surfaces.
 */

/** Monaco's own test (`isCancellationError` in vs/base/common/errors, which has no type declarations). */
export function isMonacoCancellation(reason: unknown): boolean {
  return reason instanceof Error && reason.name === "Canceled" && reason.message === "Canceled";
}

interface Rejection {
  readonly reason: unknown;
  preventDefault(): void;
}

interface RejectionTarget {
  addEventListener(type: "unhandledrejection", listener: (event: Rejection) => void): void;
}

let installed = false;

/** Keeps Monaco's unawaited cancellations from being reported as page errors. Idempotent. */
export function ignoreMonacoCancellations(target: RejectionTarget): void {
  if (installed) return;
  installed = true;
  target.addEventListener("unhandledrejection", (event) => {
    if (isMonacoCancellation(event.reason)) event.preventDefault();
  });
}
