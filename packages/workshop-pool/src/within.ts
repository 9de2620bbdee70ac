/** What `work` settles to if it does within `ms`, else undefined; the timer is cleared either way. */
export async function within<T>(work: Promise<T>, ms: number): Promise<T | undefined> {
  let clear = () => {};
  const elapsed = new Promise<undefined>((done) => {
    const timer = setTimeout(done, ms);
    clear = () => clearTimeout(timer);
  });
  try {
    return await Promise.race([work, elapsed]);
  } finally {
    clear();
  }
}
