import type { EncodedValue } from "@gadgets/workshop-shared/console-values";
import { formatEncodedValue } from "@gadgets/workshop-shared/console-values";
import { type KeyboardEvent, useLayoutEffect, useRef } from "react";
import { chromeDark, chromeLight, ObjectInspector, ObjectLabel, ObjectName, ObjectRootLabel } from "react-inspector";
import { decodeValue, isPrimitiveEncoding } from "../console/decode-value.ts";
import { errorHeadline, errorLines } from "../console/error-value.ts";
import { treeKeyAction } from "../keyboard/tree-keys.ts";

const lightTheme = {
  ...chromeLight,
  BASE_BACKGROUND_COLOR: "transparent",
  BASE_FONT_SIZE: "12px",
  TREENODE_FONT_SIZE: "12px",
};
const darkTheme = {
  ...chromeDark,
  BASE_BACKGROUND_COLOR: "transparent",
  BASE_FONT_SIZE: "12px",
  TREENODE_FONT_SIZE: "12px",
};

const ITEM = '[role="treeitem"]';

// react-inspector draws the tree (role tree/treeitem, aria-expanded) but leaves the keyboard out; these
// fit its markup: each item's first child is the row that toggles on click, led by an arrow "▶" when
// the item has children. Collapsed items render no children, so every item in the page is visible.
const itemsOf = (tree: HTMLElement) => [...tree.querySelectorAll<HTMLElement>(ITEM)];
const rowOf = (item: HTMLElement) => item.firstElementChild as HTMLElement | null;
const isExpandable = (item: HTMLElement) => rowOf(item)?.firstElementChild?.textContent === "\u25B6";

/** One tab stop per tree (the focused item, else the first), and no `aria-expanded` on leaves. */
function rove(tree: HTMLElement, focused: Element | null): void {
  const items = itemsOf(tree);
  const current = items.find((item) => item === focused) ?? items[0];
  for (const item of items) {
    item.tabIndex = item === current ? 0 : -1;
    if (!isExpandable(item)) item.removeAttribute("aria-expanded");
  }
}

interface InspectorNode {
  depth: number;
  name?: string;
  data: unknown;
  isNonenumerable?: boolean;
}

/** react-inspector's own rows, except that an error inside a value reads `TypeError: message`. */
function inspectorNode({ depth, name, data, isNonenumerable }: InspectorNode) {
  if (data instanceof Error) {
    const headline = errorHeadline(data.name, data.message);
    return depth === 0 || typeof name !== "string" ? (
      <span>{headline}</span>
    ) : (
      <span>
        <ObjectName name={name} dimmed={isNonenumerable} />
        <span>: </span>
        <span>{headline}</span>
      </span>
    );
  }
  return depth === 0 ? (
    <ObjectRootLabel name={name} data={data} />
  ) : (
    <ObjectLabel name={name} data={data} isNonenumerable={isNonenumerable} />
  );
}

/** An object's inspector, expandable from the keyboard as a tree: arrows, Home/End, Enter and Space. */
function ObjectTree({ data, dark }: { data: unknown; dark: boolean }) {
  const box = useRef<HTMLSpanElement>(null);
  useLayoutEffect(() => {
    const tree = box.current;
    if (!tree) return;
    tree.querySelector('[role="tree"]')?.setAttribute("aria-label", "Value");
    rove(tree, document.activeElement);
    const observer = new MutationObserver(() => rove(tree, document.activeElement));
    observer.observe(tree, { childList: true, subtree: true });
    return () => observer.disconnect();
  }, []);
  const onKeyDown = (event: KeyboardEvent<HTMLSpanElement>) => {
    const tree = box.current;
    const item = event.target instanceof HTMLElement ? event.target : null;
    if (!tree || !item?.matches(ITEM)) return;
    const parent = item.parentElement?.closest<HTMLElement>(ITEM) ?? null;
    const action = treeKeyAction(event.key, {
      expandable: isExpandable(item),
      expanded: item.getAttribute("aria-expanded") === "true",
      hasParent: parent !== null && tree.contains(parent),
    });
    if (action.kind === "none") return;
    event.preventDefault();
    if (action.kind === "toggle") {
      rowOf(item)?.click();
      return;
    }
    const items = itemsOf(tree);
    const at = items.indexOf(item);
    const target = {
      next: items[at + 1],
      previous: items[at - 1],
      first: items[0],
      last: items.at(-1),
      parent,
      "first-child": item.querySelector<HTMLElement>(ITEM),
    }[action.to];
    if (!target) return;
    rove(tree, target);
    target.focus();
  };
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: keys and focus come from the tree's items inside (react-inspector's markup); the span only delegates.
    <span
      ref={box}
      className="inline-block align-top [&_li:focus-visible]:outline-2 [&_li:focus-visible]:outline-sky-600"
      onKeyDown={onKeyDown}
      onFocus={(event) => box.current && rove(box.current, event.target)}
    >
      <ObjectInspector
        data={data}
        theme={(dark ? darkTheme : lightTheme) as never}
        expandLevel={0}
        nodeRenderer={inspectorNode}
      />
    </span>
  );
}

/** A logged Error as an uncaught one reads: `Name: message`, its stack's frames beneath. */
function ErrorValue({ value }: { value: Extract<EncodedValue, { t: "error" }> }) {
  const { headline, frames } = errorLines(value);
  return (
    <span className="inline-block align-top" data-testid="console-error-value">
      <bdi className="whitespace-pre-wrap break-words">{headline}</bdi>
      {frames.length > 0 && (
        <span className="ml-4 mt-1 block space-y-0.5">
          {frames.map((frame, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a stack's frames never reorder, and may repeat
            <span key={i} className="block">
              {frame}
            </span>
          ))}
        </span>
      )}
    </span>
  );
}

/**
 * One console value: primitives as plain text, objects through an expandable inspector. Everything is
 * rendered as text nodes — a logged `<img onerror>` is shown, never run.
 */
export function ValueView({ value, dark }: { value: EncodedValue; dark: boolean }) {
  if (value.t === "string") return <span className="whitespace-pre-wrap break-words">{formatEncodedValue(value)}</span>;
  if (value.t === "error") return <ErrorValue value={value} />;
  if (isPrimitiveEncoding(value))
    return <span className="text-sky-700 dark:text-sky-300">{formatEncodedValue(value, true)}</span>;
  return <ObjectTree data={decodeValue(value)} dark={dark} />;
}
