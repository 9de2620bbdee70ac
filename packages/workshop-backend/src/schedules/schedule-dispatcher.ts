/**
 * Fires a workspace's schedules from inside its Durable Object: the object's one alarm calls
 * `dispatchDue`, which fires (or skips) every schedule that came due and sets the alarm to the next one
 * due. The same code runs locally (workerd keeps alarms on disk and fires one that came due while it was
 * down as soon as it starts) and on Cloudflare, where a Worker's own cron triggers are few.
 *
 * A firing is a run of the agent's latest version on the one launch path (`runTriggered`), as the
 * workspace's owner would run it, recorded `via: "schedule"`. It does not hold the alarm: the alarm
 * returns once firings are queued, so the next one comes on time while runs go on. This is the one part
 * of a store that reads the Worker's bindings (to run), with an overseer of its own.
 */

import { createErrorReporter, describeThrown, type ErrorReport } from "@gadgets/backend-utils/error-reporting";
import { createLogger } from "@gadgets/backend-utils/logger";
import type { JsonValue } from "@gadgets/workshop-shared/api";
import {
  MAX_CONCURRENT_SCHEDULE_RUNS_PER_WORKSPACE,
  MAX_SCHEDULE_RUNS_IN_FLIGHT_PER_WORKSPACE,
} from "@gadgets/workshop-shared/limits";
import type { Env } from "../env.ts";
import { Overseer } from "../overseer.ts";
import { SharedRunSlots } from "../rpc/shared-run-slots.ts";
import { runTriggered } from "../rpc/trigger-runs.ts";
import type { DueSchedule, ScheduleOutcome, ScheduleTable } from "../storage/schedule-table.ts";
import type { ResolvedAgent, WorkspaceStore } from "../storage/workspace-store.ts";
import { FiringQueue } from "./firing-queue.ts";
import { planDue } from "./schedule-plan.ts";

const logger = createLogger({ service: "workshop", part: "schedules" });

/** When dispatching failed (storage trouble), the alarm tries again this much later. */
const DISPATCH_RETRY_MS = 60_000;

/** What the dispatcher needs of the store it runs in. */
export interface ScheduleHost {
  env: Env;
  table: ScheduleTable;
  /** The store as a stub: a firing's run reaches it as any session's run does. */
  self(): DurableObjectStub<WorkspaceStore>;
  /** The workspace's id, once it was created. */
  workspaceId(): string | undefined;
  latestVersion(agentId: string): ResolvedAgent | undefined;
  recordError(report: ErrorReport): void;
  /** Sets the object's alarm (null: deletes it). */
  setAlarm(at: number | null): Promise<void>;
  waitUntil(work: Promise<unknown>): void;
  now(): number;
}

/** The input of a firing's run: which slot it fired for, and the schedule as the manifest wrote it. */
export function firingInput(schedule: string, scheduledAt: number): JsonValue {
  return { scheduledAt, schedule };
}

export class ScheduleDispatcher {
  readonly #queue = new FiringQueue(MAX_CONCURRENT_SCHEDULE_RUNS_PER_WORKSPACE);
  /** Every firing's connection, nested calls and all, counts here: they share the object's Dynamic Workers. */
  readonly #slots = new SharedRunSlots(
    MAX_SCHEDULE_RUNS_IN_FLIGHT_PER_WORKSPACE,
    `This workspace's schedules have ${MAX_SCHEDULE_RUNS_IN_FLIGHT_PER_WORKSPACE} runs in flight (catalog calls included), the most its storage object may run at once. Wait for some to finish, or spread the schedules over the hour.`,
  );
  #overseer: Overseer | undefined;

  constructor(private readonly host: ScheduleHost) {}

  /** The alarm: fires or skips every schedule due now, then sets the alarm to the next one due. */
  async dispatchDue(): Promise<void> {
    const { table } = this.host;
    const now = this.host.now();
    try {
      for (const due of table.due(now)) {
        const key = `${due.agentId} ${due.schedule.text}`;
        const plan = planDue(due, now, this.#queue.busy(key));
        if (plan.action === "skip") {
          table.advance(due.agentId, due.schedule.text, plan.nextAt, "skipped");
          continue;
        }
        table.advance(due.agentId, due.schedule.text, plan.nextAt, { firedAt: now });
        this.#queue.add(key, () => this.#fire(due, plan.scheduledAt, now));
      }
    } catch (error) {
      // A failed alarm is retried a few times and then dropped, which would stop every schedule: try later instead.
      logger.error("schedules could not be dispatched", { reason: describeThrown(error).message });
      await this.host.setAlarm(now + DISPATCH_RETRY_MS);
      return;
    }
    await this.arm();
  }

  /** Sets the alarm to the earliest schedule due (after a publish, a pause, a firing). */
  arm(): Promise<void> {
    return this.host.setAlarm(this.host.table.earliest());
  }

  async #fire(due: DueSchedule, scheduledAt: number, firedAt: number): Promise<void> {
    const { host } = this;
    const text = due.schedule.text;
    const workspaceId = host.workspaceId();
    const agent = host.latestVersion(due.agentId);
    if (!workspaceId || !agent) return;
    // Queued behind other firings, it may have been paused or dropped meanwhile: then it does not run.
    if (!host.table.stillFires(due.agentId, text, firedAt)) {
      host.table.recordOutcome(due.agentId, text, firedAt, "cancelled");
      return;
    }
    let outcome: ScheduleOutcome;
    try {
      const result = await runTriggered({
        env: host.env,
        overseer: this.#overseerFor(),
        workspaceId,
        store: host.self(),
        agent,
        payload: firingInput(text, scheduledAt),
        via: "schedule",
        trigger: { kind: "schedule", schedule: text, scheduledAt },
        client: "schedule",
        waitUntil: (work) => host.waitUntil(work),
        slots: this.#slots,
      });
      outcome = result.status === "ok" ? "ok" : result.kind;
    } catch (error) {
      // Not a run's failure (those are reported by the overseer): the firing could not start at all.
      const thrown = describeThrown(error);
      this.#reporter(workspaceId).capture(
        { name: "ScheduleFailed", message: `The schedule "${text}" could not start a run: ${thrown.message}` },
        { via: "schedule", schedule: text, gadget: agent.name, version: String(agent.version) },
      );
      outcome = "cancelled";
    }
    host.table.recordOutcome(due.agentId, text, firedAt, outcome);
  }

  #reporter(workspaceId: string) {
    return createErrorReporter({ workspaceId, logger, sink: { record: (report) => this.host.recordError(report) } });
  }

  /** One overseer per object (its build cache serves every firing), reporting into this workspace. */
  #overseerFor(): Overseer {
    this.#overseer ??= new Overseer({
      logger,
      reportError: (workspaceId, error, context) => this.#reporter(workspaceId).capture(error, context),
    });
    return this.#overseer;
  }
}
