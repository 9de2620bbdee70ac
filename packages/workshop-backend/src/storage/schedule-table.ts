/**
 * The schedules of a workspace's published agents: one row per schedule of each agent's latest version,
 * with when it is next due, whether it is paused, its last firing and outcome, and the firings skipped
 * because its previous run still went. Publishing moves an agent's schedules to the new version (a
 * schedule it keeps keeps its row and timing); the workspace's one alarm is set to the earliest due.
 */

import type { GadgetManifest, RunErrorKind, ScheduleInfo } from "@gadgets/workshop-shared/api";
import { MIN_SCHEDULE_INTERVAL_FLOOR_MS } from "@gadgets/workshop-shared/limits";
import { checkSchedule, firstFiring, type Schedule, type ScheduleSpec } from "@gadgets/workshop-shared/schedules";

export type ScheduleOutcome = "ok" | RunErrorKind;

/** A schedule that came due, as the dispatcher needs it. */
export interface DueSchedule {
  agentId: string;
  schedule: Schedule;
  /** The slot it was set to fire at (≤ now). */
  nextAt: number;
}

type ScheduleRow = {
  agent_id: string;
  schedule: string;
  position: number;
  version: number;
  next_at: number | null;
  paused: number;
  last_at: number | null;
  last_outcome: string | null;
  skipped: number;
};

/**
 * A stored schedule's text (`cron 0 9 * * 1`, `every 10m`) read back. It was checked when published;
 * the minimum interval is not asked again (a version published on a test server keeps its interval).
 */
export function storedSchedule(text: string): Schedule | undefined {
  const space = text.indexOf(" ");
  const kind = text.slice(0, space);
  const value = text.slice(space + 1);
  const spec: ScheduleSpec | undefined =
    kind === "cron" ? { cron: value } : kind === "every" ? { every: value } : undefined;
  if (!spec) return undefined;
  const checked = checkSchedule(spec, "schedule", MIN_SCHEDULE_INTERVAL_FLOOR_MS);
  return checked.ok ? checked.value : undefined;
}

/** The schedules a published manifest declares (checked when it was published), in its order. */
export function manifestSchedules(manifest: GadgetManifest | undefined): Schedule[] {
  return (manifest?.triggers?.schedules ?? []).flatMap((spec, index) => {
    const checked = checkSchedule(spec, `triggers.schedules[${index}]`, MIN_SCHEDULE_INTERVAL_FLOOR_MS);
    return checked.ok ? [checked.value] : [];
  });
}

export class ScheduleTable {
  constructor(private readonly sql: SqlStorage) {}

  /**
   * The agent's schedules become those of `version` (its latest): rows for schedules it keeps stay as
   * they are (timing, counts, paused), new ones are due at their first firing after `now`, and dropped
   * ones go. New schedules of an agent whose schedules are paused start paused.
   */
  replaceForAgent(agentId: string, version: number, schedules: readonly Schedule[], now: number): void {
    const rows = this.sql
      .exec<{ schedule: string; paused: number }>("SELECT schedule, paused FROM schedules WHERE agent_id = ?", agentId)
      .toArray();
    const kept = new Set(schedules.map((schedule) => schedule.text));
    for (const row of rows)
      if (!kept.has(row.schedule))
        this.sql.exec("DELETE FROM schedules WHERE agent_id = ? AND schedule = ?", agentId, row.schedule);
    const existing = new Set(rows.map((row) => row.schedule));
    const paused = rows.some((row) => row.paused === 1) ? 1 : 0;
    for (const [position, schedule] of schedules.entries()) {
      if (existing.has(schedule.text)) {
        this.sql.exec(
          "UPDATE schedules SET version = ?, position = ? WHERE agent_id = ? AND schedule = ?",
          version,
          position,
          agentId,
          schedule.text,
        );
        continue;
      }
      this.sql.exec(
        "INSERT INTO schedules (agent_id, schedule, position, version, next_at, paused, skipped) VALUES (?, ?, ?, ?, ?, ?, 0)",
        agentId,
        schedule.text,
        position,
        version,
        paused ? null : firstFiring(schedule, now),
        paused,
      );
    }
  }

  /** Schedules not paused that are due at `now`, earliest first. */
  due(now: number): DueSchedule[] {
    return this.sql
      .exec<{ agent_id: string; schedule: string; next_at: number }>(
        "SELECT agent_id, schedule, next_at FROM schedules WHERE paused = 0 AND next_at IS NOT NULL AND next_at <= ? ORDER BY next_at",
        now,
      )
      .toArray()
      .flatMap((row) => {
        const schedule = storedSchedule(row.schedule);
        if (schedule) return [{ agentId: row.agent_id, schedule, nextAt: row.next_at }];
        // Unreadable (a parser that changed its mind): set aside, or the alarm would come back for it at once.
        this.sql.exec(
          "UPDATE schedules SET next_at = NULL WHERE agent_id = ? AND schedule = ?",
          row.agent_id,
          row.schedule,
        );
        return [];
      });
  }

  /** The earliest time a schedule not paused is due, or null when none is. */
  earliest(): number | null {
    return (
      this.sql
        .exec<{ at: number | null }>(
          "SELECT MIN(next_at) AS at FROM schedules WHERE paused = 0 AND next_at IS NOT NULL",
        )
        .one().at ?? null
    );
  }

  /** A due schedule fired (`firedAt`) or was skipped; either way it is next due at `nextAt`. */
  advance(agentId: string, schedule: string, nextAt: number | null, result: { firedAt: number } | "skipped"): void {
    if (result === "skipped")
      this.sql.exec(
        "UPDATE schedules SET next_at = ?, skipped = skipped + 1 WHERE agent_id = ? AND schedule = ?",
        nextAt,
        agentId,
        schedule,
      );
    else
      this.sql.exec(
        "UPDATE schedules SET next_at = ?, last_at = ?, last_outcome = NULL WHERE agent_id = ? AND schedule = ?",
        nextAt,
        result.firedAt,
        agentId,
        schedule,
      );
  }

  /**
   * Whether the firing at `firedAt` should still run: its schedule is still there (a new version may
   * have dropped it), not paused since, and that firing is still its latest. A firing queued behind
   * others asks this as it starts.
   */
  stillFires(agentId: string, schedule: string, firedAt: number): boolean {
    return (
      this.sql
        .exec(
          "SELECT 1 FROM schedules WHERE agent_id = ? AND schedule = ? AND paused = 0 AND last_at = ?",
          agentId,
          schedule,
          firedAt,
        )
        .toArray().length > 0
    );
  }

  /** How the firing at `firedAt` ended (a firing since then, or a schedule since removed, is left alone). */
  recordOutcome(agentId: string, schedule: string, firedAt: number, outcome: ScheduleOutcome): void {
    this.sql.exec(
      "UPDATE schedules SET last_outcome = ? WHERE agent_id = ? AND schedule = ? AND last_at = ?",
      outcome,
      agentId,
      schedule,
      firedAt,
    );
  }

  /**
   * Pauses or resumes all schedules of the agent. A resumed schedule fires next at its first slot after
   * `now`: what came due while paused is not fired.
   */
  setPaused(agentId: string, paused: boolean, now: number): void {
    for (const row of this.sql
      .exec<{ schedule: string; paused: number }>("SELECT schedule, paused FROM schedules WHERE agent_id = ?", agentId)
      .toArray()) {
      if ((row.paused === 1) === paused) continue;
      const schedule = storedSchedule(row.schedule);
      const nextAt = paused || !schedule ? null : firstFiring(schedule, now);
      this.sql.exec(
        "UPDATE schedules SET paused = ?, next_at = ? WHERE agent_id = ? AND schedule = ?",
        paused ? 1 : 0,
        nextAt,
        agentId,
        row.schedule,
      );
    }
  }

  /** Every schedule (or one agent's), with its agent's name, by agent name and the manifest's order. */
  list(agentId?: string): ScheduleInfo[] {
    const rows = this.sql
      .exec<ScheduleRow & { name: string }>(
        `SELECT s.*, a.name FROM schedules s JOIN agents a ON a.id = s.agent_id${agentId ? " WHERE s.agent_id = ?" : ""} ORDER BY a.name, s.agent_id, s.position`,
        ...(agentId ? [agentId] : []),
      )
      .toArray();
    return rows.map((row) => ({
      agentId: row.agent_id,
      agentName: row.name,
      version: row.version,
      schedule: row.schedule,
      paused: row.paused === 1,
      nextAt: row.paused === 1 ? null : row.next_at,
      lastAt: row.last_at,
      lastOutcome: (row.last_outcome as ScheduleOutcome | null) ?? null,
      skipped: row.skipped,
    }));
  }
}
