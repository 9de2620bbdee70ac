/**
 * Gadget modules by content hash, bounded by their size in memory (UTF-16); the least recently used go
 * first. Code received from another process is kept here, so each gadget crosses the wire once per
 * runner (and once per pool session) instead of once per run.
 */
export class CodeCache {
  readonly #entries = new Map<string, { modules: Record<string, string>; bytes: number }>();
  #bytes = 0;
  readonly #maxBytes: number;

  constructor(maxBytes: number) {
    this.#maxBytes = maxBytes;
  }

  has(hash: string): boolean {
    return this.#entries.has(hash);
  }

  get(hash: string): Record<string, string> | undefined {
    const entry = this.#entries.get(hash);
    if (!entry) return undefined;
    this.#entries.delete(hash);
    this.#entries.set(hash, entry);
    return entry.modules;
  }

  remember(hash: string, modules: Record<string, string>): void {
    if (this.get(hash)) return;
    const bytes = Object.values(modules).reduce((sum, source) => sum + source.length * 2, 0);
    this.#entries.set(hash, { modules, bytes });
    this.#bytes += bytes;
    for (const [oldest, entry] of this.#entries) {
      if (this.#bytes <= this.#maxBytes || oldest === hash) break;
      this.#entries.delete(oldest);
      this.#bytes -= entry.bytes;
    }
  }
}
