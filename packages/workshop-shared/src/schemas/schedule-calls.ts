/** The arguments of `Session.pauseSchedules`: the agent (id or name, no version) and whether to pause. */

import * as v from "valibot";
import { AgentRefSchema } from "./calls.ts";

/** An agent's id or name: schedules belong to the agent (its latest version), not to a fixed version. */
export const ScheduleAgentRefSchema = v.pipe(
  AgentRefSchema,
  v.check(
    (ref) => ref.version === undefined,
    (issue) =>
      `Schedules belong to an agent, not to one of its versions: name the agent without "@version" (like ${JSON.stringify((issue.input as { base: string }).base)}).`,
  ),
  v.transform((ref) => ref.base),
);

export const SchedulePausedSchema = v.boolean("paused must be true (pause the schedules) or false (resume them).");
