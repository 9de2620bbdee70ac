/**
 * Run slots shared by connections that must count their runs together: a Durable Object's alarm fires
 * several schedules, each on a connection of its own, and Cloudflare bounds the Dynamic Workers in
 * flight per object as well as per request; a workspace's endpoint requests share half its run cap.
 * Each connection still keeps its own cap; this one is asked as well. It counts what each member says
 * it holds, so there is one count per member, kept by it.
 */

export interface SlotHolder {
  /** Runs in flight and ended runs whose isolate calls have not settled. */
  inFlight(): number;
  /** Closed: it takes no more slots, and leaves once it holds none. */
  readonly closed: boolean;
}

export class SharedRunSlots {
  readonly #members = new Set<SlotHolder>();

  /** `fullMessage`: what a run refused because these slots are full is told. */
  constructor(
    readonly cap: number,
    readonly fullMessage: string,
  ) {}

  join(member: SlotHolder): void {
    this.#members.add(member);
  }

  inFlight(): number {
    let total = 0;
    for (const member of this.#members) {
      const held = member.inFlight();
      if (held === 0 && member.closed) this.#members.delete(member);
      total += held;
    }
    return total;
  }

  full(): boolean {
    return this.inFlight() >= this.cap;
  }
}
