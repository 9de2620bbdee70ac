/** Compares without an early exit, so a secret cannot be guessed one character at a time. */
export function sameSecret(given: string, expected: string): boolean {
  if (given.length !== expected.length || expected.length === 0) return false;
  let difference = 0;
  for (let i = 0; i < expected.length; i++) difference |= given.charCodeAt(i) ^ expected.charCodeAt(i);
  return difference === 0;
}
