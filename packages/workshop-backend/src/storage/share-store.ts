/**
 * Immutable shares: one Durable Object per share or record id, holding exactly one value written once
 * (`share-table.ts`). Ids are 128 random bits, so they cannot be enumerated; a stored value never changes.
 */

import { DurableObject } from "cloudflare:workers";
import type { SharePreview } from "../share-preview.ts";
import { ShareTable } from "./share-table.ts";

export type ShareKind = "snapshot" | "record";

export class ShareStore extends DurableObject<unknown> {
  readonly #table: ShareTable;

  // Stores read no bindings: the Worker hands them what they need.
  constructor(ctx: DurableObjectState, env: unknown) {
    super(ctx, env);
    this.#table = new ShareTable(ctx.storage.sql);
  }

  /** Stores the value and the preview its page shows; refuses to overwrite (a share never changes). */
  put(kind: ShareKind, value: string, preview: SharePreview): void {
    this.#table.put(kind, value, preview);
  }

  /** The stored value when it is of `kind`; undefined otherwise (no hint whether the id exists). */
  get(kind: ShareKind): string | undefined {
    return this.#table.get(kind);
  }

  /** The preview of the share when it is of `kind`, without reading its value. */
  preview(kind: ShareKind): SharePreview | undefined {
    return this.#table.preview(kind);
  }
}
