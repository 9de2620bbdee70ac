/** A request's or response's body, read in chunks and given up as soon as it passes a limit (never held whole first). */

/**
 * The body's bytes, or undefined when its declared or actual length passes `max` (the rest is not read).
 * `signal` stops the reading (the body is cancelled, not left streaming in) and rejects with its reason.
 */
export async function readCappedBody(
  message: Request | Response,
  max: number,
  signal?: AbortSignal,
): Promise<Uint8Array | undefined> {
  if (Number(message.headers.get("content-length") ?? "0") > max) {
    await message.body?.cancel().catch(() => {});
    return undefined;
  }
  const reader = message.body?.getReader();
  if (!reader) return new Uint8Array(0);
  // The sender may already be gone when the body is given up; there is nothing left to tell it.
  const stop = () => void reader.cancel(signal?.reason).catch(() => {});
  signal?.addEventListener("abort", stop, { once: true });
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      if (signal?.aborted) throw signal.reason;
      const { done, value } = await reader.read();
      // A cancelled body reads as done: what came so far is not the body.
      if (signal?.aborted) throw signal.reason;
      if (done) break;
      total += value.byteLength;
      if (total > max) {
        await reader.cancel().catch(() => {});
        return undefined;
      }
      chunks.push(value);
    }
  } finally {
    signal?.removeEventListener("abort", stop);
  }
  const bytes = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return bytes;
}

export type ReadRequestBody =
  | { ok: true; bytes: Uint8Array }
  | { ok: false; reason: "too_large" }
  | { ok: false; reason: "too_slow"; ms: number };

/**
 * A caller's request body, refused once it passes `max` bytes or has not arrived whole within `ms`
 * (REQUEST_BODY_READ_MS): the one reader of every body a stranger may send. A sender gone mid-body rejects.
 */
export async function readRequestBody(request: Request, max: number, ms: number): Promise<ReadRequestBody> {
  const deadline = AbortSignal.timeout(ms);
  try {
    const bytes = await readCappedBody(request, max, deadline);
    return bytes ? { ok: true, bytes } : { ok: false, reason: "too_large" };
  } catch (error) {
    if (deadline.aborted) return { ok: false, reason: "too_slow", ms };
    throw error;
  }
}
