/// <reference path="./prism.d.ts" />
/**
 * TypeScript highlighting for the embed's first paint, by Prism (its core and the TypeScript grammar:
 * a few KB, where Monaco is megabytes; Monaco loads only when the reader starts to edit). Prism's
 * tokens come back as kinds and text, which the page renders as text, never as HTML.
 */

import "./prism-manual.ts";
import Prism from "prismjs/components/prism-core";
import "prismjs/components/prism-clike";
import "prismjs/components/prism-javascript";
import "prismjs/components/prism-typescript";

export type TokenKind = "comment" | "string" | "number" | "keyword" | "type" | "function" | "plain";
export interface Token {
  kind: TokenKind;
  text: string;
}

/** Prism's token types (and aliases) by the kind the embed colours them as; the rest stay plain. */
const KIND_OF: Record<string, TokenKind> = {
  comment: "comment",
  string: "string",
  "template-string": "string",
  regex: "string",
  number: "number",
  keyword: "keyword",
  boolean: "keyword",
  "class-name": "type",
  builtin: "type",
  function: "function",
};

type Stream = string | Prism.Token | (string | Prism.Token)[];

function kindOf(token: Prism.Token, outer: TokenKind): TokenKind {
  for (const name of [token.type, ...(Array.isArray(token.alias) ? token.alias : token.alias ? [token.alias] : [])]) {
    const kind = KIND_OF[name];
    if (kind) return kind;
  }
  // Inside a template string, `${…}` is code again.
  return token.type === "interpolation" ? "plain" : outer;
}

function flatten(stream: Stream, kind: TokenKind, into: Token[]): void {
  if (typeof stream === "string") {
    const last = into.at(-1);
    if (last?.kind === kind) last.text += stream;
    else if (stream) into.push({ kind, text: stream });
  } else if (Array.isArray(stream)) {
    for (const part of stream) flatten(part, kind, into);
  } else {
    flatten(stream.content, kindOf(stream, kind), into);
  }
}

/** The source as coloured runs of text; joined, they give the source back unchanged. */
export function highlight(source: string): Token[] {
  const grammar = Prism.languages.typescript;
  if (!grammar) return [{ kind: "plain", text: source }];
  const tokens: Token[] = [];
  flatten(Prism.tokenize(source, grammar), "plain", tokens);
  return tokens;
}
