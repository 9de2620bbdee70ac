import type { EncodedValue } from "@gadgets/workshop-shared/console-values";
import { formatEncodedValue } from "@gadgets/workshop-shared/console-values";
import { chromeDark, chromeLight, ObjectInspector } from "react-inspector";
import { decodeValue, isPrimitiveEncoding } from "../console/decode-value.ts";

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

/**
 * One console value: primitives as plain text, objects through an expandable inspector. Everything is
 * rendered as text nodes — a logged `<img onerror>` is shown, never run.
 */
export function ValueView({ value, dark }: { value: EncodedValue; dark: boolean }) {
  if (value.t === "string") return <span className="whitespace-pre-wrap break-words">{formatEncodedValue(value)}</span>;
  if (isPrimitiveEncoding(value))
    return <span className="text-sky-700 dark:text-sky-300">{formatEncodedValue(value, true)}</span>;
  return (
    <span className="inline-block align-top">
      <ObjectInspector data={decodeValue(value)} theme={(dark ? darkTheme : lightTheme) as never} expandLevel={0} />
    </span>
  );
}
