/**
 * The first visit: a newcomer lands on a ready, runnable example (the echo gadget with its payload),
 * not on empty panes. Decided once per browser, so deleting the example later does not bring it back.
 */

export type FirstVisitAction = "wait" | "create-example" | "nothing";

export function firstVisitAction(input: {
  welcomed: boolean;
  activeDraftId: string | undefined;
  /** Undefined while the list is loading. */
  draftCount: number | undefined;
}): FirstVisitAction {
  if (input.welcomed || input.activeDraftId !== undefined) return "nothing";
  if (input.draftCount === undefined) return "wait";
  return input.draftCount === 0 ? "create-example" : "nothing";
}
