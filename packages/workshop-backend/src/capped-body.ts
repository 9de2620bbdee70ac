/** A request's or response's body, read in chunks and given up as soon as it passes a limit (never held whole first). */

/** The body's bytes, or undefined when its declared or actual length passes `max` (the rest is not read). */
export async function readCappedBody(message: Request | Response, max: number): Promise<Uint8Array | undefined> {
  if (Number(message.headers.get("content-length") ?? "0") > max) {
    await message.body?.cancel().catch(() => {});
    return undefined;
  }
  const reader = message.body?.getReader();
  if (!reader) return new Uint8Array(0);
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > max) {
      // The sender may already be gone; there is nothing left to tell it.
      await reader.cancel().catch(() => {});
      return undefined;
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return bytes;
}
