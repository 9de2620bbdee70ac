/**
 * The rules of a schedule that came due, as a pure function of the clock: it fires once, for the latest
 * slot that came due (slots missed while the Workshop was down are not each fired), unless its previous
 * run still goes — then this firing is skipped and counted. Either way it is next due at its first slot
 * after now.
 */

import { slotsAt } from "@gadgets/workshop-shared/schedules";
import type { DueSchedule } from "../storage/schedule-table.ts";

export interface Plan {
  action: "fire" | "skip";
  /** The slot this firing stands for. */
  scheduledAt: number;
  /** The first slot after now; null when the schedule names no later date. */
  nextAt: number | null;
}

/** `running`: whether the schedule's previous firing has not ended yet (queued or running). */
export function planDue(due: DueSchedule, now: number, running: boolean): Plan {
  const { latest, next } = slotsAt(due.schedule, due.nextAt, now);
  return { action: running ? "skip" : "fire", scheduledAt: latest, nextAt: next };
}
