/**
 * Parsed shares and run records, by kind and id, shared by every connection of this Worker isolate.
 * A share never changes once written, so one parse serves every visitor and every target opened on it:
 * however many times a link is opened, its value is held once while it is cached. Bounded by what the
 * parsed value holds, counted as PARSED_PER_CHAR times its stored text, least recently used first out.
 */

import type { SharedRunRecord, ShareSnapshot } from "@gadgets/workshop-shared/api";
import { LINK_CACHE_BYTES, PARSED_PER_CHAR } from "../isolate-caches.ts";
import type { ShareKind } from "../storage/share-store.ts";

type Entry = { value: ShareSnapshot | SharedRunRecord; size: number };

export class LinkCache {
  readonly #entries = new Map<string, Entry>();
  #size = 0;

  constructor(private readonly maxBytes: number) {}

  get(kind: ShareKind, id: string): ShareSnapshot | SharedRunRecord | undefined {
    const key = `${kind}:${id}`;
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    // Most recently used last.
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    return entry.value;
  }

  /** Parses `text` and keeps it unless it alone is larger than the cache. */
  parse(kind: ShareKind, id: string, text: string): ShareSnapshot | SharedRunRecord {
    const value = JSON.parse(text) as ShareSnapshot | SharedRunRecord;
    const key = `${kind}:${id}`;
    const size = text.length * PARSED_PER_CHAR;
    if (this.#entries.has(key) || size > this.maxBytes) return value;
    this.#entries.set(key, { value, size });
    this.#size += size;
    for (const [oldest, entry] of this.#entries) {
      if (this.#size <= this.maxBytes) break;
      this.#entries.delete(oldest);
      this.#size -= entry.size;
    }
    return value;
  }

  get bytes(): number {
    return this.#size;
  }
}

export const linkCache = new LinkCache(LINK_CACHE_BYTES);
