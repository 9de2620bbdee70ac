/** The session's view of the workspace's schedules: listing them, pausing and resuming an agent's. */

import type { ScheduleInfo } from "@gadgets/workshop-shared/api";
import { codedError } from "@gadgets/workshop-shared/errors";
import { parseArgument, ScheduleAgentRefSchema, SchedulePausedSchema } from "@gadgets/workshop-shared/schemas";
import type { WorkspaceStore } from "../storage/workspace-store.ts";

export function listSchedules(store: DurableObjectStub<WorkspaceStore>): Promise<ScheduleInfo[]> {
  return store.listSchedules();
}

export async function pauseSchedules(
  store: DurableObjectStub<WorkspaceStore>,
  agentRef: unknown,
  paused: unknown,
): Promise<ScheduleInfo[]> {
  const ref = parseArgument(ScheduleAgentRefSchema, agentRef);
  const pause = parseArgument(SchedulePausedSchema, paused);
  const schedules = await store.pauseSchedules(ref, pause);
  if (!schedules)
    throw codedError(
      "AGENT_NOT_FOUND",
      `No published agent "${ref}" in this workspace: pause and resume the schedules of an agent by its id or name (listSchedules lists them).`,
    );
  return schedules;
}
