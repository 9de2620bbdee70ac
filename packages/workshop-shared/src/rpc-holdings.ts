/**
 * Bounds what a Cap'n Web peer can make this end hold: entries of the session's import and export
 * tables (every call result not yet released, every pending call, every stub either side passed) and
 * messages received but not yet read. Cap'n Web itself bounds a message's size and depth, not how many
 * a peer sends: a peer that pushes calls and never releases their results grows the export table
 * without end.
 *
 * The session's own count (`getStats`) walks both tables, so it is not asked per message. Instead an
 * upper bound is kept from the text of the messages that pass (each push, stream or pipe received adds
 * an export; each `["export",` or `["promise",` expression, sent or received, adds an entry: an export
 * on the end that sends it, an import on the end that receives it);
 * only when that bound would pass the limit is the session asked for the truth, and the bound starts
 * again from it. A peer holding little pays nothing; one at the limit is refused.
 */

export interface HoldingsLimits {
  /** Import and export table entries together, the main objects included. */
  maxHeld: number;
  /** Messages received and not yet read by the session. */
  maxQueued: number;
}

export type Admission = { ok: true } | { ok: false; message: string };

const CREATES_EXPORT = ['["push",', '["stream",', '["pipe"'];
const CREATES_IMPORT = ['["export",', '["promise",'];
/** A release of one reference to a result the peer pushed: it always frees that entry (pushes hold one). */
const RELEASES_PUSHED = /^\["release",\d{1,15},1\]$/;

function occurrences(text: string, needle: string): number {
  let count = 0;
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + needle.length)) count++;
  return count;
}

export class RpcHoldings {
  /** Entries the session held when last asked. */
  #counted = 0;
  /** Entries made since then, at most (releases the bound is sure of are taken off). */
  #since = 0;

  readonly limits: HoldingsLimits;
  readonly #count: () => number;

  constructor(limits: HoldingsLimits, count: () => number) {
    this.limits = limits;
    this.#count = count;
    this.#counted = count();
  }

  /** Whether the session may read this received message. */
  admit(message: string): Admission {
    if (RELEASES_PUSHED.test(message)) {
      this.#since--;
      return { ok: true };
    }
    let creates = 0;
    for (const prefix of CREATES_EXPORT) if (message.startsWith(prefix)) creates++;
    for (const needle of CREATES_IMPORT) creates += occurrences(message, needle);
    if (this.#counted + this.#since + creates <= this.limits.maxHeld) {
      this.#since += creates;
      return { ok: true };
    }
    this.#counted = this.#count();
    this.#since = creates;
    if (this.#counted + creates <= this.limits.maxHeld) return { ok: true };
    return {
      ok: false,
      message: `This connection holds ${this.#counted} call results and stubs, and this message would pass the limit of ${this.limits.maxHeld}. Release results you no longer need (dispose them, or await calls before making more), then reconnect.`,
    };
  }

  /** Counts the exports a message this end sends adds here. */
  sent(message: string): void {
    for (const needle of CREATES_IMPORT) this.#since += occurrences(message, needle);
  }

  /** Whether `queued` unread messages are still within the limit. */
  admitQueue(queued: number): Admission {
    if (queued <= this.limits.maxQueued) return { ok: true };
    return {
      ok: false,
      message: `This connection sent more than ${this.limits.maxQueued} messages the server had not read yet, the limit. Send fewer at once (await calls before making more), then reconnect.`,
    };
  }
}
