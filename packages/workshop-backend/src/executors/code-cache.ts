/**
 * Gadget modules by content hash, bounded by their size in memory (UTF-16); the least recently used go
 * first. Code received from another process is kept here, so each gadget crosses the wire once per
 * runner (and once per pool session) instead of once per run.
 */

import { LRUCache } from "lru-cache";

export type CodeCache = LRUCache<string, Record<string, string>>;

/** Bytes a gadget's modules hold in memory: JavaScript strings are UTF-16. */
export function moduleBytes(modules: Record<string, string>): number {
  return Object.values(modules).reduce((sum, source) => sum + source.length * 2, 0);
}

/** A runner process's bound (the Worker isolate's build cache is bounded in isolate-caches.ts). */
export const CODE_CACHE_BYTES = 64 * 1024 * 1024;

export function createCodeCache(maxBytes: number): CodeCache {
  return new LRUCache({ maxSize: maxBytes, sizeCalculation: (modules) => Math.max(1, moduleBytes(modules)) });
}
