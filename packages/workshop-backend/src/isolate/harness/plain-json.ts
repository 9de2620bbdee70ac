/**
 * The JSON text of the harness's own data (event lines: run ids, encoded console values, error
 * descriptions, counts), written by hand. JSON.stringify — even one bound before the gadget ran — still
 * looks up `toJSON` on every object and array it meets, through prototypes the gadget shares with the
 * harness: an `Array.prototype.toJSON` would rewrite whole lines, run id and all. The data here is plain,
 * made by the harness, so this encoder needs no hook: it reads own data properties only, through functions
 * taken when the console module loads (before any gadget code), and calls no method a gadget could have
 * replaced (no iterators, no `join`). Strings and numbers go to the captured JSON.stringify, which never
 * looks up `toJSON` on a primitive.
 */

const stringify = JSON.stringify;
const finite = Number.isFinite;
const isArray = Array.isArray;
const ownKeys = Object.keys;
const ownProperty = Object.getOwnPropertyDescriptor;
const hasOwn = Object.hasOwn;

/** An own data property's value; an accessor or a missing one reads as undefined, and runs nothing. */
function own(target: object, key: string | number): unknown {
  const descriptor = ownProperty(target, key);
  return descriptor !== undefined && hasOwn(descriptor, "value") ? descriptor.value : undefined;
}

/**
 * JSON text of plain data, as JSON.stringify writes it without a replacer: undefined (and functions,
 * symbols, bigints) leave object keys out and read as null in arrays, and so do non-finite numbers.
 */
export function plainJson(value: unknown): string {
  return encode(value) ?? "null";
}

function encode(value: unknown): string | undefined {
  if (value === null) return "null";
  switch (typeof value) {
    case "string":
      return stringify(value);
    case "number":
      return finite(value) ? stringify(value) : "null";
    case "boolean":
      return value ? "true" : "false";
    case "object":
      break;
    default:
      return undefined;
  }
  const target = value as object;
  if (isArray(target)) {
    const length = own(target, "length") as number;
    let text = "[";
    for (let i = 0; i < length; i++) text += `${i === 0 ? "" : ","}${encode(own(target, i)) ?? "null"}`;
    return `${text}]`;
  }
  const keys = ownKeys(target);
  let text = "{";
  let first = true;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as string;
    const encoded = encode(own(target, key));
    if (encoded === undefined) continue;
    text += `${first ? "" : ","}${stringify(key)}:${encoded}`;
    first = false;
  }
  return `${text}}`;
}
