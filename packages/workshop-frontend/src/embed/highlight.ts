/**
 * A small TypeScript highlighter for the embed's first paint: tokens for comments, strings, numbers,
 * keywords and the rest, rendered as text spans. Monaco loads only when the reader starts to edit.
 */

export type TokenKind = "comment" | "string" | "number" | "keyword" | "type" | "plain";
export interface Token {
  kind: TokenKind;
  text: string;
}

const KEYWORDS = new Set(
  "abstract as async await break case catch class const continue debugger declare default delete do else enum export extends false finally for from function get if implements import in instanceof interface let new null of private protected public readonly return set static super switch this throw true try type typeof undefined var void while with yield".split(
    " ",
  ),
);

const PATTERN =
  /(\/\/[^\n]*|\/\*[\s\S]*?(?:\*\/|$))|("(?:[^"\\\n]|\\.)*"?|'(?:[^'\\\n]|\\.)*'?|`(?:[^`\\]|\\[\s\S])*`?)|(\b\d[\d_]*(?:\.\d+)?(?:e[+-]?\d+)?n?\b)|([A-Za-z_$][\w$]*)/g;

export function highlight(source: string): Token[] {
  const tokens: Token[] = [];
  let last = 0;
  for (const match of source.matchAll(PATTERN)) {
    const at = match.index ?? 0;
    if (at > last) tokens.push({ kind: "plain", text: source.slice(last, at) });
    const [text, comment, string, number, word] = match;
    if (comment) tokens.push({ kind: "comment", text });
    else if (string) tokens.push({ kind: "string", text });
    else if (number) tokens.push({ kind: "number", text });
    else if (word && KEYWORDS.has(word)) tokens.push({ kind: "keyword", text });
    else if (word && /^[A-Z]/.test(word)) tokens.push({ kind: "type", text });
    else tokens.push({ kind: "plain", text });
    last = at + text.length;
  }
  if (last < source.length) tokens.push({ kind: "plain", text: source.slice(last) });
  return tokens;
}
