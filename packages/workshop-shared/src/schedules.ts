/**
 * Schedules (`gadget.json` `triggers.schedules`): a cron expression (five fields, UTC, so at most once a
 * minute) or an interval (`"10m"`), each checked with a sentence that names the field and the rule, and
 * the times they fire. Cron expressions are read by croner; intervals count from when they were set.
 */

import { Cron } from "croner";
import {
  MAX_CRON_EXPRESSION_LENGTH,
  MAX_SCHEDULE_INTERVAL_MS,
  MIN_SCHEDULE_INTERVAL_FLOOR_MS,
  MIN_SCHEDULE_INTERVAL_MS,
} from "./limits.ts";
import type { Checked } from "./schemas/check.ts";

/** One schedule as a manifest writes it: exactly one of the two. */
export interface ScheduleSpec {
  cron?: string;
  every?: string;
}

/** A checked schedule. `text` names it in records and listings: `cron 0 9 * * 1`, `every 10m`. */
export type Schedule = { kind: "cron"; expression: string; text: string } | { kind: "every"; ms: number; text: string };

const UNIT_MS = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;
const UNIT_WORDS = { s: "second", m: "minute", h: "hour", d: "day" } as const;

let minimumIntervalMs = MIN_SCHEDULE_INTERVAL_MS;

/**
 * Lowers the shortest `every` interval this process accepts (a test server's `MIN_SCHEDULE_INTERVAL_MS`),
 * clamped to [MIN_SCHEDULE_INTERVAL_FLOOR_MS, MIN_SCHEDULE_INTERVAL_MS]: it can never be raised past the
 * default, nor set to fire faster than the floor. Anything not a number leaves the default.
 */
export function setMinimumScheduleInterval(ms: number): void {
  minimumIntervalMs = Number.isFinite(ms)
    ? Math.min(MIN_SCHEDULE_INTERVAL_MS, Math.max(MIN_SCHEDULE_INTERVAL_FLOOR_MS, Math.floor(ms)))
    : MIN_SCHEDULE_INTERVAL_MS;
}

/** The shortest `every` interval accepted here (MIN_SCHEDULE_INTERVAL_MS unless a test server lowered it). */
export function minimumScheduleInterval(): number {
  return minimumIntervalMs;
}

/** `60000` → `"1m"`, `90000` → `"90s"`: the largest unit that divides it. */
export function intervalText(ms: number): string {
  for (const unit of ["d", "h", "m"] as const) if (ms % UNIT_MS[unit] === 0) return `${ms / UNIT_MS[unit]}${unit}`;
  return `${Math.ceil(ms / 1000)}s`;
}

function describeInterval(ms: number): string {
  const text = intervalText(ms);
  const unit = text.slice(-1) as keyof typeof UNIT_MS;
  const count = Number(text.slice(0, -1));
  return `${count} ${UNIT_WORDS[unit]}${count === 1 ? "" : "s"} ("${text}")`;
}

const INTERVAL_SHAPE = /^([1-9][0-9]{0,6})([smhd])$/;

/** Checks an interval like `"10m"`; `field` names it in the message (`triggers.schedules[0].every`). */
export function checkInterval(every: string, field: string, minimumMs = minimumIntervalMs): Checked<number> {
  const match = INTERVAL_SHAPE.exec(every);
  if (!match)
    return {
      ok: false,
      error: `"${field}" must be a whole number and a unit — "s", "m", "h" or "d" — like "10m", "2h" or "1d", not ${JSON.stringify(every.slice(0, 40))}.`,
    };
  const ms = Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS];
  if (ms < minimumMs)
    return {
      ok: false,
      error: `"${field}" is "${every}", shorter than the minimum interval of ${describeInterval(minimumMs)}: a schedule fires at most once a minute. Use "${intervalText(minimumMs)}" or longer.`,
    };
  if (ms > MAX_SCHEDULE_INTERVAL_MS)
    return {
      ok: false,
      error: `"${field}" is "${every}", longer than the longest interval, ${describeInterval(MAX_SCHEDULE_INTERVAL_MS)}. For rarer firings write a cron expression ("cron": "0 9 1 1 *").`,
    };
  return { ok: true, value: ms };
}

/** Parsed cron patterns by normalized expression: a pattern is immutable and parsing one costs ~70 µs. */
const patterns = new Map<string, Cron>();
const MAX_CACHED_PATTERNS = 1024;

function cronOf(expression: string): Cron {
  let cron = patterns.get(expression);
  if (!cron) {
    // `utcOffset: 0` reads the fields in UTC without asking Intl (about 4× faster than a time zone).
    cron = new Cron(expression, { mode: "5-part", utcOffset: 0 });
    if (patterns.size >= MAX_CACHED_PATTERNS) patterns.clear();
    patterns.set(expression, cron);
  }
  return cron;
}

const CRON_SHAPE =
  'five fields — minute hour day-of-month month day-of-week, in UTC — like "*/10 * * * *" (every ten minutes) or "0 9 * * 1" (Mondays at 09:00 UTC)';

/**
 * Checks a cron expression and gives it in its normal form (fields joined by one space). Five fields
 * only: there is no seconds field, so a schedule fires at most once a minute.
 */
export function checkCron(cron: string, field: string): Checked<string> {
  if (cron.length > MAX_CRON_EXPRESSION_LENGTH)
    return {
      ok: false,
      error: `"${field}" is ${cron.length} characters long; a cron expression is at most ${MAX_CRON_EXPRESSION_LENGTH}.`,
    };
  const expression = cron.trim().split(/\s+/).join(" ");
  const fields = expression === "" ? 0 : expression.split(" ").length;
  if (fields > 5)
    return {
      ok: false,
      error: `"${field}" has ${fields} fields: a cron expression has ${CRON_SHAPE}. There is no seconds (or year) field: a schedule fires at most once a minute.`,
    };
  if (fields < 5 && !expression.startsWith("@"))
    return {
      ok: false,
      error: `"${field}" has ${fields} field${fields === 1 ? "" : "s"}: a cron expression has ${CRON_SHAPE}.`,
    };
  // croner reads "?" as "the time the pattern was parsed": a schedule would change with each restart.
  if (expression.includes("?"))
    return {
      ok: false,
      error: `"${field}" uses "?": write "*" instead (schedules fire the same after every restart).`,
    };
  let pattern: Cron;
  try {
    pattern = cronOf(expression);
  } catch (error) {
    const why = String((error as Error).message).replace(/^CronPattern: /, "");
    return { ok: false, error: `"${field}" is not a cron expression (${why}). It has ${CRON_SHAPE}.` };
  }
  if (!pattern.nextRun(new Date()))
    return {
      ok: false,
      error: `"${field}" never fires ("${expression}" names no date that exists). Check the day and month.`,
    };
  return { ok: true, value: expression };
}

/** Checks one schedule; `field` is where it is (`triggers.schedules[0]`). */
export function checkSchedule(spec: ScheduleSpec, field: string, minimumMs = minimumIntervalMs): Checked<Schedule> {
  const { cron, every } = spec;
  if ((cron === undefined) === (every === undefined))
    return {
      ok: false,
      error: `"${field}" must have either "cron" (like "0 9 * * 1") or "every" (like "10m")${cron === undefined ? "" : ", not both"}.`,
    };
  if (cron !== undefined) {
    const checked = checkCron(cron, `${field}.cron`);
    return checked.ok
      ? { ok: true, value: { kind: "cron", expression: checked.value, text: `cron ${checked.value}` } }
      : checked;
  }
  const checked = checkInterval(every ?? "", `${field}.every`, minimumMs);
  return checked.ok ? { ok: true, value: { kind: "every", ms: checked.value, text: `every ${every}` } } : checked;
}

/** The schedule's first firing once it is set at `now`: the next cron slot, or one interval later. */
export function firstFiring(schedule: Schedule, now: number): number | null {
  return schedule.kind === "every" ? now + schedule.ms : nextCronSlot(schedule.expression, now);
}

/** The first cron slot strictly after `after` (epoch ms), or null when there is none. */
function nextCronSlot(expression: string, after: number): number | null {
  return cronOf(expression).nextRun(new Date(after))?.getTime() ?? null;
}

/**
 * Where a schedule stands at `now` given its next slot `dueAt` (a slot it was set to fire at, ≤ now):
 * the latest slot that came due (missed slots are not each fired: one firing stands for them all) and
 * the first slot after `now`. An interval's slots are `dueAt` plus whole intervals.
 */
export function slotsAt(schedule: Schedule, dueAt: number, now: number): { latest: number; next: number | null } {
  if (schedule.kind === "every") {
    const passed = Math.floor(Math.max(0, now - dueAt) / schedule.ms);
    const latest = dueAt + passed * schedule.ms;
    return { latest, next: latest + schedule.ms };
  }
  const [previous] = cronOf(schedule.expression).previousRuns(1, new Date(now + 1));
  const latest = Math.max(dueAt, previous?.getTime() ?? dueAt);
  return { latest, next: nextCronSlot(schedule.expression, Math.max(now, latest)) };
}
