/**
 * The Worker var `MIN_SCHEDULE_INTERVAL_MS` (set only by a test server, `startWorkshopServer({
 * minScheduleIntervalMs })`) lowers the shortest `every` interval this Worker accepts at publish. Applied
 * wherever a manifest is checked with it: the Worker's requests and the workspace objects.
 */

import { setMinimumScheduleInterval } from "@gadgets/workshop-shared/schedules";
import { MIN_SCHEDULE_INTERVAL_MS } from "@gadgets/workshop-shared/limits";

let applied: string | undefined;

export function applyScheduleMinimum(env: { MIN_SCHEDULE_INTERVAL_MS?: string }): void {
  const value = env.MIN_SCHEDULE_INTERVAL_MS;
  if (value === applied) return;
  applied = value;
  setMinimumScheduleInterval(value === undefined ? MIN_SCHEDULE_INTERVAL_MS : Number(value));
}
