/**
 * What makes a published agent run on its own (`gadget.json` `triggers`): an HTTP endpoint and
 * schedules. Checked at save and publish, so a bad one is refused naming the field.
 */

import * as v from "valibot";
import { MAX_SCHEDULES_PER_AGENT } from "../limits.ts";
import { checkSchedule, type ScheduleSpec } from "../schedules.ts";
import { boundedList, strictShape } from "./objects.ts";

const ENDPOINT_NAME =
  '"triggers.http.name" must be 3 to 64 lower-case letters, digits and "-", starting with a letter, like "github-hook" (or left out for an unguessable endpoint).';

/** An endpoint name an owner picks instead of the unguessable id: `/h/<name>/…`. */
export const EndpointNameSchema = v.pipe(v.string(ENDPOINT_NAME), v.regex(/^[a-z][a-z0-9-]{2,63}$/, ENDPOINT_NAME));

/**
 * `triggers.http`: the agent answers `/h/<endpoint>/<any path>` (any method). `response` "json" (the
 * default) answers the result as JSON; "full" reads the result as `{ status, headers, body }`. `body`
 * "json" (the default) gives a JSON body parsed; "text" gives every body as the text it was sent as, so
 * a webhook's signature over it can be checked.
 */
export const HttpTriggerSchema = strictShape(
  {
    name: v.optional(EndpointNameSchema),
    response: v.optional(
      v.picklist(["json", "full"], '"triggers.http.response" must be "json" (the default) or "full".'),
    ),
    body: v.optional(
      v.picklist(
        ["json", "text"],
        '"triggers.http.body" must be "json" (the default: a JSON body parsed) or "text" (every body as sent, to check a signature).',
      ),
    ),
  },
  {
    notObject: '"triggers.http" must be an object like { "response": "json" } (or {} for the defaults).',
    unknownKey: (key) => `Unknown field "triggers.http.${key}": the fields are "name", "response" and "body".`,
  },
);

/**
 * One schedule's shape: a cron expression in UTC (at most once a minute), or an interval like "10m". Its
 * rules (schedules.ts) are checked by `SchedulesSchema`, which knows where in the list it is.
 */
export const ScheduleSchema = strictShape(
  {
    cron: v.optional(v.string('"cron" must be a cron expression like "*/10 * * * *" (UTC).')),
    every: v.optional(v.string('"every" must be an interval like "10m", "2h" or "1d".')),
  },
  {
    notObject: 'Each schedule must be an object like { "cron": "*/10 * * * *" } or { "every": "10m" }.',
    unknownKey: (key) => `Unknown schedule field "${key}": a schedule has "cron" or "every".`,
  },
);

/** The first problem of a list of shape-checked schedules, naming the field (`triggers.schedules[1].every`). */
function schedulesProblem(schedules: readonly ScheduleSpec[]): string | undefined {
  const seen = new Map<string, number>();
  for (const [index, spec] of schedules.entries()) {
    const field = `triggers.schedules[${index}]`;
    const checked = checkSchedule(spec, field);
    if (!checked.ok) return checked.error;
    const earlier = seen.get(checked.value.text);
    if (earlier !== undefined)
      return `"${field}" repeats "triggers.schedules[${earlier}]" (${checked.value.text}): list each schedule once.`;
    seen.set(checked.value.text, index);
  }
  return undefined;
}

/** `triggers.schedules`: each a cron expression or an interval, checked with schedules.ts's rules. */
export const SchedulesSchema = v.pipe(
  boundedList(ScheduleSchema, MAX_SCHEDULES_PER_AGENT, {
    notList: '"triggers.schedules" must be a list like [{ "cron": "0 * * * *" }].',
    tooLong: (length) =>
      `"triggers.schedules" lists ${length} schedules; the limit is ${MAX_SCHEDULES_PER_AGENT} per agent.`,
  }),
  v.rawCheck<ScheduleSpec[]>(({ dataset, addIssue }) => {
    if (!dataset.typed) return;
    const problem = schedulesProblem(dataset.value);
    if (problem) addIssue({ message: problem });
  }),
);

export const GadgetTriggersSchema = strictShape(
  {
    http: v.optional(HttpTriggerSchema),
    schedules: v.optional(SchedulesSchema),
  },
  {
    notObject: '"triggers" must be an object like { "http": {}, "schedules": [{ "every": "10m" }] }.',
    unknownKey: (key) => `Unknown trigger "${key}": the triggers are "http" and "schedules".`,
  },
);
