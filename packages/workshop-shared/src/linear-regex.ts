/**
 * Regular expressions matched in linear time, for test expectations that run on the server. A
 * backtracking engine (JavaScript's own RegExp) can take exponential time on patterns like `(a+)+$`,
 * which would stall the Workshop for everyone; this one compiles the pattern to an automaton and steps
 * through the text once, keeping a set of states (time ≤ states × characters).
 *
 * Supported: literals, `.`, classes `[a-z_]` and `[^…]`, `\d \w \s \D \W \S`, escapes (`\.`, `\n`,
 * `\t`, `\xHH`, `\uHHHH`), groups `( )` and `(?: )`, `|`, `* + ?` (lazy forms too) and `{n}`, `{n,}`,
 * `{n,m}`, anchors `^` and `$`. Not supported (refused with a message): backreferences, lookaround,
 * word boundaries, named groups, flags. The search is unanchored, like `RegExp.prototype.test`.
 *
 * Compiling is bounded too, since it runs on the Worker's thread and in every visitor's browser: every
 * unit of work (a node parsed, a class range kept, a node emitted, a state added) is counted against
 * MAX_PATTERN_COMPILE_STEPS, and a repeat of something that can only match the empty string (`(){9}`,
 * `(|)*`), which emits no state per copy and so would escape the state cap, is refused outright.
 */

import { MAX_PATTERN_COMPILE_STEPS, MAX_PATTERN_STATES, MAX_TEST_PATTERN_LENGTH } from "./limits.ts";

type Ranges = { ranges: [number, number][]; negate: boolean };

/** `empty`: the node can only match the empty string (it consumes no character on any path). */
type Node =
  | { t: "set"; set: Ranges }
  | { t: "bol" }
  | { t: "eol" }
  | { t: "seq"; items: Node[]; empty: boolean }
  | { t: "alt"; options: Node[]; empty: boolean }
  | { t: "repeat"; node: Node; min: number; max: number; empty: boolean };

const onlyEmpty = (node: Node): boolean => node.t === "bol" || node.t === "eol" || (node.t !== "set" && node.empty);

const DIGIT: [number, number][] = [[48, 57]];
const WORD: [number, number][] = [
  [48, 57],
  [65, 90],
  [95, 95],
  [97, 122],
];
const SPACE: [number, number][] = [
  [9, 13],
  [32, 32],
  [160, 160],
  [0x1680, 0x1680],
  [0x2000, 0x200a],
  [0x2028, 0x2029],
  [0x202f, 0x202f],
  [0x205f, 0x205f],
  [0x3000, 0x3000],
  [0xfeff, 0xfeff],
];
const LINE_ENDS: [number, number][] = [
  [10, 10],
  [13, 13],
  [0x2028, 0x2029],
];
/** Repeat bounds past this are refused outright, before any states are counted. */
const MAX_REPEAT = 1000;

class PatternError extends Error {}

/** The work one compile has done; refuses the pattern before it would go past `max`. */
class StepBudget {
  used = 0;
  readonly max: number;
  constructor(max: number) {
    this.max = max;
  }

  spend(steps = 1): void {
    if (this.used + steps > this.max)
      throw new PatternError(
        `the pattern takes more than ${this.max} steps to compile; use smaller repeats or fewer nested groups`,
      );
    this.used += steps;
  }
}

/** `{n}`, `{n,}`, `{n,m}`, read in place (sticky) rather than on a copy of the rest of the pattern. */
const REPEAT_BOUNDS = /\{(\d{1,4})(,(\d{0,4}))?\}/y;

class Parser {
  #at = 0;
  // Plain fields, not parameter properties: this package also runs in Node's type-stripping mode.
  readonly src: string;
  readonly #budget: StepBudget;
  constructor(src: string, budget: StepBudget) {
    this.src = src;
    this.#budget = budget;
  }

  parse(): Node {
    const node = this.#alternation();
    if (this.#at < this.src.length) this.#fail('unmatched ")"');
    return node;
  }

  #fail(what: string): never {
    throw new PatternError(`${what} at position ${this.#at}`);
  }

  #peek(): string | undefined {
    return this.src[this.#at];
  }

  #alternation(): Node {
    const options = [this.#sequence()];
    while (this.#peek() === "|") {
      this.#at++;
      options.push(this.#sequence());
    }
    if (options.length === 1) return options[0] as Node;
    this.#budget.spend();
    return { t: "alt", options, empty: options.every(onlyEmpty) };
  }

  #sequence(): Node {
    this.#budget.spend();
    const items: Node[] = [];
    for (let c = this.#peek(); c !== undefined && c !== "|" && c !== ")"; c = this.#peek()) {
      items.push(this.#quantified(this.#atom()));
    }
    return { t: "seq", items, empty: items.every(onlyEmpty) };
  }

  #quantified(node: Node): Node {
    for (;;) {
      const c = this.#peek();
      const from = this.#at;
      let min: number;
      let max: number;
      if (c === "*") [min, max] = [0, Number.POSITIVE_INFINITY];
      else if (c === "+") [min, max] = [1, Number.POSITIVE_INFINITY];
      else if (c === "?") [min, max] = [0, 1];
      else if (c === "{") {
        REPEAT_BOUNDS.lastIndex = this.#at;
        const match = REPEAT_BOUNDS.exec(this.src);
        if (!match) this.#fail('"{" must start a repeat like {2}, {2,} or {2,5} (write "\\{" for the character)');
        min = Number(match[1]);
        max = match[2] === undefined ? min : match[3] ? Number(match[3]) : Number.POSITIVE_INFINITY;
        if (max < min) this.#fail(`repeat {${min},${max}} has its bounds the wrong way round`);
        if (min > MAX_REPEAT || (Number.isFinite(max) && max > MAX_REPEAT))
          this.#fail(`repeats are at most {${MAX_REPEAT}}`);
        this.#at += match[0].length - 1;
      } else return node;
      this.#at++;
      if (node.t === "bol" || node.t === "eol") this.#fail("an anchor cannot be repeated");
      if (onlyEmpty(node))
        throw new PatternError(
          `"${this.src.slice(from, this.#at)}" at position ${from} repeats something that can only match the empty string, like "()" or "(|)"; put something to match inside the group, or remove the repeat`,
        );
      if (this.#peek() === "?") this.#at++; // lazy: the same language
      this.#budget.spend();
      node = { t: "repeat", node, min, max, empty: max === 0 };
    }
  }

  #atom(): Node {
    this.#budget.spend();
    const c = this.#peek() as string;
    this.#at++;
    switch (c) {
      case "^":
        return { t: "bol" };
      case "$":
        return { t: "eol" };
      case ".":
        return { t: "set", set: { ranges: LINE_ENDS, negate: true } };
      case "(": {
        if (this.#peek() === "?") {
          if (this.src[this.#at + 1] !== ":")
            this.#fail("lookaround, named groups and inline flags are not supported; use (…) or (?:…)");
          this.#at += 2;
        }
        const inner = this.#alternation();
        if (this.#peek() !== ")") this.#fail('missing ")"');
        this.#at++;
        return inner;
      }
      case ")":
        return this.#fail('unmatched ")"');
      case "*":
      case "+":
      case "?":
      case "{":
        return this.#fail(`"${c}" has nothing to repeat`);
      case "[":
        return { t: "set", set: this.#class() };
      case "\\":
        return { t: "set", set: this.#escape(false) };
      default:
        return { t: "set", set: { ranges: [[c.charCodeAt(0), c.charCodeAt(0)]], negate: false } };
    }
  }

  #class(): Ranges {
    const negate = this.#peek() === "^";
    if (negate) this.#at++;
    const ranges: [number, number][] = [];
    let first = true;
    for (;;) {
      const c = this.#peek();
      if (c === undefined) this.#fail('missing "]"');
      if (c === "]" && !first) {
        this.#at++;
        return { ranges: merged(ranges), negate };
      }
      first = false;
      const before = ranges.length;
      const low = this.#classAtom();
      if (this.#peek() === "-" && this.src[this.#at + 1] !== "]" && this.src[this.#at + 1] !== undefined) {
        this.#at++;
        const high = this.#classAtom();
        if (low.negate || high.negate || low.ranges.length !== 1 || high.ranges.length !== 1)
          this.#fail("a class escape cannot bound a range");
        const from = (low.ranges[0] as [number, number])[0];
        const to = (high.ranges[0] as [number, number])[0];
        if (to < from) this.#fail("a range in [] goes backwards");
        ranges.push([from, to]);
      } else if (low.negate) {
        // \D, \W, \S inside a class: the complement of their ranges.
        ranges.push(...complement(low.ranges));
      } else ranges.push(...low.ranges);
      this.#budget.spend(ranges.length - before); // their merge is charged with them
    }
  }

  #classAtom(): Ranges {
    const c = this.#peek() as string;
    this.#at++;
    if (c === "\\") return this.#escape(true);
    return { ranges: [[c.charCodeAt(0), c.charCodeAt(0)]], negate: false };
  }

  #escape(inClass: boolean): Ranges {
    const c = this.#peek();
    if (c === undefined) this.#fail("a pattern cannot end with \\");
    this.#at++;
    const one = (code: number): Ranges => ({ ranges: [[code, code]], negate: false });
    switch (c) {
      case "d":
        return { ranges: DIGIT, negate: false };
      case "D":
        return { ranges: DIGIT, negate: true };
      case "w":
        return { ranges: WORD, negate: false };
      case "W":
        return { ranges: WORD, negate: true };
      case "s":
        return { ranges: SPACE, negate: false };
      case "S":
        return { ranges: SPACE, negate: true };
      case "n":
        return one(10);
      case "t":
        return one(9);
      case "r":
        return one(13);
      case "f":
        return one(12);
      case "v":
        return one(11);
      case "0":
        return one(0);
      case "x":
      case "u": {
        const digits = c === "x" ? 2 : 4;
        const hex = this.src.slice(this.#at, this.#at + digits);
        if (!new RegExp(`^[0-9a-fA-F]{${digits}}$`).test(hex)) this.#fail(`\\${c} needs ${digits} hex digits`);
        this.#at += digits;
        return one(Number.parseInt(hex, 16));
      }
      case "b":
        if (inClass) return one(8);
        return this.#fail("word boundaries (\\b) are not supported");
      default:
        if (/[A-Za-z0-9]/.test(c)) this.#fail(`\\${c} is not supported (backreferences and \\${c} escapes)`);
        return one(c.charCodeAt(0));
    }
  }
}

/** Sorted, disjoint and not touching, so a character is looked up by binary search. */
function merged(ranges: [number, number][]): [number, number][] {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0]);
  const out: [number, number][] = [];
  for (const [from, to] of sorted) {
    const last = out[out.length - 1];
    if (last && from <= last[1] + 1) last[1] = Math.max(last[1], to);
    else out.push([from, to]);
  }
  return out;
}

function complement(ranges: [number, number][]): [number, number][] {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0]);
  const out: [number, number][] = [];
  let next = 0;
  for (const [from, to] of sorted) {
    if (from > next) out.push([next, from - 1]);
    next = Math.max(next, to + 1);
  }
  if (next <= 0xffff) out.push([next, 0xffff]);
  return out;
}

/** One state of the automaton: consume a character in `set`, or branch/anchor without consuming. */
type State =
  | { op: "set"; set: Ranges; next: number }
  | { op: "split"; next: number; alt: number }
  | { op: "bol"; next: number }
  | { op: "eol"; next: number }
  | { op: "match" };

class Compiler {
  readonly states: State[] = [];
  readonly #budget: StepBudget;
  constructor(budget: StepBudget) {
    this.#budget = budget;
  }

  #add(state: State): number {
    if (this.states.length >= MAX_PATTERN_STATES)
      throw new PatternError(`the pattern needs more than ${MAX_PATTERN_STATES} states; use smaller repeats`);
    this.#budget.spend();
    this.states.push(state);
    return this.states.length - 1;
  }

  /** Emits `node` so that it continues at state `next`; returns its entry state. Built back to front. */
  emit(node: Node, next: number): number {
    this.#budget.spend();
    switch (node.t) {
      case "set":
        return this.#add({ op: "set", set: node.set, next });
      case "bol":
        return this.#add({ op: "bol", next });
      case "eol":
        return this.#add({ op: "eol", next });
      case "seq": {
        let entry = next;
        for (let i = node.items.length - 1; i >= 0; i--) entry = this.emit(node.items[i] as Node, entry);
        return entry;
      }
      case "alt": {
        const entries = node.options.map((option) => this.emit(option, next));
        let entry = entries[entries.length - 1] as number;
        for (let i = entries.length - 2; i >= 0; i--)
          entry = this.#add({ op: "split", next: entries[i] as number, alt: entry });
        return entry;
      }
      case "repeat": {
        let entry = next;
        if (Number.isFinite(node.max)) {
          for (let i = node.min; i < node.max; i++) {
            const body = this.emit(node.node, entry);
            // Each optional copy may be the last: its split leaves for what follows the repeat.
            entry = this.#add({ op: "split", next: body, alt: next });
          }
        } else {
          // x*: a loop state that either enters the body (which jumps back) or leaves.
          const loop = this.#add({ op: "split", next: -1, alt: entry });
          const body = this.emit(node.node, loop);
          (this.states[loop] as { next: number }).next = body;
          entry = loop;
        }
        for (let i = 0; i < node.min; i++) entry = this.emit(node.node, entry);
        return entry;
      }
    }
  }
}

export interface LinearRegex {
  /** Whether the pattern matches anywhere in `text`. */
  test(text: string): boolean;
  /** The most steps `test` can take on a text of this length: states × (characters + 1). */
  cost(length: number): number;
}

/** `steps`: the compile's work, at most the budget whether it compiled or was refused. */
export type CompiledPattern =
  | { ok: true; regex: LinearRegex; steps: number }
  | { ok: false; error: string; steps: number };

/** `maxSteps` is for tests of the budget itself; everything else compiles with the shared limit. */
export function compileLinearRegex(pattern: string, maxSteps = MAX_PATTERN_COMPILE_STEPS): CompiledPattern {
  // The parser and emitter recurse once per nesting level, so the length also bounds their stack.
  if (pattern.length > MAX_TEST_PATTERN_LENGTH)
    return {
      ok: false,
      error: `the pattern has ${pattern.length} characters; patterns have at most ${MAX_TEST_PATTERN_LENGTH}`,
      steps: 0,
    };
  const budget = new StepBudget(maxSteps);
  let states: State[];
  let start: number;
  try {
    const ast = new Parser(pattern, budget).parse();
    const compiler = new Compiler(budget);
    const match = compiler.states.push({ op: "match" }) - 1;
    start = compiler.emit(ast, match);
    states = compiler.states;
  } catch (error) {
    if (error instanceof PatternError) return { ok: false, error: error.message, steps: budget.used };
    throw error;
  }
  // Ranges are sorted and disjoint (`merged`, and the built-in ones), so one look-up is O(log ranges)
  // and a match stays within states × characters steps of this size, whatever the classes hold.
  const inSet = (set: Ranges, code: number) => {
    let low = 0;
    let high = set.ranges.length - 1;
    let hit = false;
    while (low <= high && !hit) {
      const middle = (low + high) >> 1;
      const [from, to] = set.ranges[middle] as [number, number];
      if (code < from) high = middle - 1;
      else if (code > to) low = middle + 1;
      else hit = true;
    }
    return hit !== set.negate;
  };
  return {
    ok: true,
    steps: budget.used,
    regex: {
      cost: (length: number) => states.length * (length + 1),
      test(text: string): boolean {
        // The set of states alive before each character; `mark` keeps each state once per step.
        const mark = new Int32Array(states.length).fill(-1);
        let current: number[] = [];
        let next: number[] = [];
        const stack: number[] = [];
        const close = (entry: number, at: number, into: number[]): boolean => {
          stack.push(entry);
          while (stack.length > 0) {
            const index = stack.pop() as number;
            if (mark[index] === at) continue;
            mark[index] = at;
            const state = states[index] as State;
            switch (state.op) {
              case "match":
                stack.length = 0;
                return true;
              case "set":
                into.push(index);
                break;
              case "split":
                stack.push(state.alt, state.next);
                break;
              case "bol":
                if (at === 0) stack.push(state.next);
                break;
              case "eol":
                if (at === text.length) stack.push(state.next);
                break;
            }
          }
          return false;
        };
        for (let at = 0; at <= text.length; at++) {
          // Unanchored: a match may start at every position.
          if (close(start, at, current)) return true;
          if (at === text.length) break;
          const code = text.charCodeAt(at);
          next = [];
          for (const index of current) {
            const state = states[index] as Extract<State, { op: "set" }>;
            if (inSet(state.set, code) && close(state.next, at + 1, next)) return true;
          }
          current = next;
        }
        return false;
      },
    },
  };
}
