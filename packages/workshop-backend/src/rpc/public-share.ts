/**
 * What anyone with a share or record link can do: read it, and run it anonymously — rate-limited, with
 * the strict default limits, in isolates of their own (never a workspace's), leaving no record behind.
 */

import { RpcTarget } from "capnweb";
import type {
  GadgetFile,
  JsonValue,
  PublicRecord,
  PublicShare,
  RunEventListener,
  RunOutcome,
  SharedRunRecord,
  ShareSnapshot,
} from "@gadgets/workshop-shared/api";
import {
  ANONYMOUS_RUN_TIMEOUT_MS,
  ANONYMOUS_RUNS_GUARANTEED_PER_MINUTE,
  ANONYMOUS_RUNS_PER_CLIENT_PER_MINUTE,
  ANONYMOUS_RUNS_PER_MINUTE,
  ANONYMOUS_RUNS_PER_MINUTE_GLOBAL,
} from "@gadgets/workshop-shared/limits";
import { parseArgument, RunEventListenerSchema, RunIdSchema } from "@gadgets/workshop-shared/schemas";
import { storedOnlyPackageSource } from "../packages/stored-only-source.ts";
import { clientAnonymousRuns } from "./client-limits.ts";
import type { Connection } from "./connection.ts";
import { RateLimiter } from "./rate-limiter.ts";
import { type RunPlan, startRun } from "./run-launcher.ts";

/**
 * Anonymous runs get a pseudo-workspace per connection: isolates are keyed by it, so one visitor's
 * module state or output never meets another visitor's, nor any workspace's.
 */
const anonymousWorkspace = (connection: Connection) => `anonymous-${connection.id}`;
/** The one message for unknown and malformed ids alike: no oracle for which ids exist. */
export const NOT_FOUND_MESSAGE = "This link does not exist. Check that it was copied whole.";

const globalRuns = new RateLimiter(ANONYMOUS_RUNS_PER_MINUTE_GLOBAL);

/**
 * Why an anonymous run is refused, or undefined when it may go (and is then counted). The server-wide
 * budget sheds the heaviest connections first: a connection's first few runs a minute never count
 * against it, so a flood from other connections cannot refuse a visitor trying a link.
 */
function anonymousRunRefusal(connection: Connection): string | undefined {
  const fork = "Wait a moment, or fork it into your workspace to run it freely.";
  if (!connection.anonymousRuns.allows())
    return `Shared gadgets can run ${ANONYMOUS_RUNS_PER_MINUTE} times a minute from one page. ${fork}`;
  if (!clientAnonymousRuns.allows(connection.client))
    return `Shared gadgets can run ${ANONYMOUS_RUNS_PER_CLIENT_PER_MINUTE} times a minute from one client. ${fork}`;
  const guaranteed = connection.anonymousRuns.count() < ANONYMOUS_RUNS_GUARANTEED_PER_MINUTE;
  if (!guaranteed && !globalRuns.take())
    return `Shared gadgets are running more than ${ANONYMOUS_RUNS_PER_MINUTE_GLOBAL} times a minute on this server. ${fork}`;
  connection.anonymousRuns.take();
  clientAnonymousRuns.take(connection.client);
  return undefined;
}

/**
 * How an anonymous run differs on the one launch path: a visitor's own pseudo-workspace (counted for
 * no workspace), the anonymous budgets, no capability services and no secrets, only packages already
 * stored (it never fetches), no error reports, and no record kept.
 */
function anonymousPlan(connection: Connection): RunPlan {
  return {
    workspaceId: anonymousWorkspace(connection),
    countsForWorkspace: false,
    admit: () => anonymousRunRefusal(connection),
    packages: () => storedOnlyPackageSource(connection.env),
    report: false,
  };
}

function runAnonymously(
  connection: Connection,
  files: readonly GadgetFile[],
  payload: unknown,
  onEvent: unknown,
  codeKey: string | undefined,
): Promise<RunOutcome> {
  const receivedAt = Date.now();
  const listener = parseArgument(RunEventListenerSchema, onEvent);
  return startRun(connection, anonymousPlan(connection), {
    source: { kind: "draft", draftId: "shared", version: 0 },
    files,
    payload,
    timeoutMs: ANONYMOUS_RUN_TIMEOUT_MS,
    listener,
    receivedAt,
    ...(codeKey === undefined ? {} : { codeKey }),
  });
}

/** Stops a run this same visitor started (runs live per connection: nobody can stop another's). */
function cancelOwnRun(connection: Connection, runId: unknown): boolean {
  const controller = connection.runs.get(parseArgument(RunIdSchema, runId));
  if (!controller) return false;
  controller.abort({ kind: "cancelled", message: "The run was cancelled by the user." });
  return true;
}

/** Each holds only a reference to its value, which link-cache.ts holds once per id for all targets. */
export class PublicShareTarget extends RpcTarget implements PublicShare {
  #disposed = false;
  constructor(
    private readonly connection: Connection,
    private readonly value: ShareSnapshot,
  ) {
    super();
  }

  async snapshot(): Promise<ShareSnapshot> {
    return this.value;
  }

  run(payload: JsonValue, onEvent?: RunEventListener | null, files?: GadgetFile[] | null): Promise<RunOutcome> {
    // Edited files are checked by the overseer like any other; only the snapshot's build is cached.
    if (files !== undefined && files !== null)
      return runAnonymously(this.connection, files, payload, onEvent, undefined);
    return runAnonymously(this.connection, this.value.files, payload, onEvent, `share:${this.value.shareId}`);
  }

  async cancel(runId: string): Promise<boolean> {
    return cancelOwnRun(this.connection, runId);
  }

  [Symbol.dispose](): void {
    if (this.#disposed) return;
    this.#disposed = true;
    this.connection.closeLink();
  }
}

export class PublicRecordTarget extends RpcTarget implements PublicRecord {
  #disposed = false;
  constructor(
    private readonly connection: Connection,
    private readonly value: SharedRunRecord,
  ) {
    super();
  }

  async record(): Promise<SharedRunRecord> {
    return this.value;
  }

  runAgain(onEvent?: RunEventListener | null): Promise<RunOutcome> {
    return runAnonymously(
      this.connection,
      this.value.files,
      this.value.payload,
      onEvent,
      `record:${this.value.recordId}`,
    );
  }

  async cancel(runId: string): Promise<boolean> {
    return cancelOwnRun(this.connection, runId);
  }

  [Symbol.dispose](): void {
    if (this.#disposed) return;
    this.#disposed = true;
    this.connection.closeLink();
  }
}
