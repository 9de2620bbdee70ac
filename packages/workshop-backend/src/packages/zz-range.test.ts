import { it } from "vitest";
import maxSatisfying from "semver/ranges/max-satisfying.js";
import validRange from "semver/ranges/valid.js";
it("range cost", () => {
  const versions = Array.from({ length: 20000 }, (_, i) => `1.${i}.0`);
  const range = Array.from({ length: 2000 }, (_, i) => `>=9.${i}.0 <9.${i}.1`).join(" || ");
  let t = performance.now();
  console.log(range.length, validRange(range) !== null, performance.now() - t);
  t = performance.now();
  maxSatisfying(versions, range);
  console.log("maxSatisfying ms", performance.now() - t);
});
