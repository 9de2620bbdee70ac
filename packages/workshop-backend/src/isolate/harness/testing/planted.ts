/** For the harness's tests: what a gadget, sharing the isolate's realm, may do to the prototypes the harness uses. */

/**
 * Runs `work` with members planted on shared prototypes, as a gadget in the same realm could, and takes
 * them away before anything else runs (the test runner itself uses these prototypes).
 */
export function withPlanted<T>(
  plants: [target: object, key: PropertyKey, descriptor: PropertyDescriptor][],
  work: () => T,
): T {
  const before = plants.map(([target, key]) => Object.getOwnPropertyDescriptor(target, key));
  try {
    for (let i = 0; i < plants.length; i++) {
      const plant = plants[i] as (typeof plants)[number];
      Object.defineProperty(plant[0], plant[1], { configurable: true, ...plant[2] });
    }
    return work();
  } finally {
    // Indexed, no iterator or destructuring: one of the plants may be Array.prototype[Symbol.iterator].
    for (let i = plants.length - 1; i >= 0; i--) {
      const plant = plants[i] as (typeof plants)[number];
      const descriptor = before[i];
      if (descriptor) Object.defineProperty(plant[0], plant[1], descriptor);
      else delete (plant[0] as Record<PropertyKey, unknown>)[plant[1]];
    }
  }
}
