/**
 * The only way text becomes generated code. Literal template text written in this
 * repository is trusted; every value that comes from a schema enters through `str`
 * (JSON-quoted), `num`, `json`, or `ident` (checked), so no spec string can break out
 * of a literal or inject statements.
 */
const SECRET = Symbol("code");

/** A fragment of generated TypeScript source that is safe by construction. */
export class Code {
  readonly #text: string;
  /** a single string, number or boolean literal (from `str`, `num` or `bool`) */
  readonly #literal: boolean;

  constructor(secret: symbol, text: string, literal = false) {
    if (secret !== SECRET) throw new Error("Code can only be created by the code builder");
    this.#text = text;
    this.#literal = literal;
  }

  static isLiteral(fragment: Code): boolean {
    return fragment.#literal;
  }

  toString(): string {
    return this.#text;
  }
}

function make(text: string): Code {
  return new Code(SECRET, text);
}

function literal(text: string): Code {
  return new Code(SECRET, text, true);
}

/** Whether a fragment is one string, number or boolean literal. */
export function isLiteral(fragment: Code): boolean {
  return Code.isLiteral(fragment);
}

function isTemplate(strings: TemplateStringsArray): boolean {
  return Array.isArray(strings.raw);
}

/** Tagged template: literal parts are taken verbatim (raw), interpolations must be Code. */
export function code(strings: TemplateStringsArray, ...values: readonly Code[]): Code {
  if (!isTemplate(strings)) throw new Error("code`` must be used as a tagged template");
  let text = strings.raw[0] ?? "";
  for (let i = 0; i < values.length; i++) {
    const value = values[i];
    if (!(value instanceof Code)) throw new Error("only Code may be interpolated into code``");
    text += value.toString() + (strings.raw[i + 1] ?? "");
  }
  return make(text);
}

/** A JSON-quoted string literal; line and paragraph separators (and the builder's own markers) are escaped too. */
export function str(value: string): Code {
  if (!NEEDS_ESCAPE.test(value)) return literal(`"${value}"`);
  return literal(JSON.stringify(value).replace(/[\u2028\u2029\ue000-\ue003]/g, (char) => `\\u${char.charCodeAt(0).toString(16)}`));
}

/** Characters that JSON escapes (quote, backslash, controls, lone surrogates), the line separators and the markers. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this finds
const NEEDS_ESCAPE = /["\\\u0000-\u001f\u2028\u2029\ud800-\udfff\ue000-\ue003]/;

/** Marks around TypeScript-only syntax, and around a TypeScript section to translate for JavaScript output. */
const TS_ONLY = ["\ue000", "\ue001"] as const;
const TS_SECTION = ["\ue002", "\ue003"] as const;

/**
 * TypeScript-only syntax (an annotation, a cast, a declaration of types), as a tagged template:
 * kept in TypeScript output, left out of JavaScript output.
 */
export function tsOnly(strings: TemplateStringsArray, ...values: readonly Code[]): Code {
  return make(`${TS_ONLY[0]}${code(strings, ...values).toString()}${TS_ONLY[1]}`);
}

/** Hand-written TypeScript (runtime helpers) that JavaScript output gets through `translate`. */
export function tsSection(fragment: Code): Code {
  return make(`${TS_SECTION[0]}${fragment.toString()}${TS_SECTION[1]}`);
}

/**
 * A module built with the markers above, as TypeScript, or as JavaScript (`translate` turns the
 * TS sections into JS, all in one call, in order).
 */
export function renderModule(text: string, language: "ts" | "js", translate: (sections: readonly string[]) => string[]): string {
  if (language === "ts") return text.replace(/[\ue000-\ue003]/g, "");
  const plain = text.replace(/\ue000[^\ue001]*\ue001/g, "");
  const sections = [...plain.matchAll(/\ue002([^\ue003]*)\ue003/g)].map((match) => match[1] as string);
  const translated = translate(sections);
  let next = 0;
  return plain.replace(/\ue002[^\ue003]*\ue003/g, () => translated[next++] as string);
}

/** A finite number literal. */
export function num(value: number): Code {
  if (!Number.isFinite(value)) throw new Error(`not a finite number: ${value}`);
  return literal(Object.is(value, -0) ? "0" : String(value));
}

/** A boolean literal. */
export function bool(value: boolean): Code {
  return literal(value ? "true" : "false");
}

/**
 * A JSON value as an expression. Objects and arrays go through JSON.parse so that keys
 * such as "__proto__" stay own data properties instead of object-literal syntax.
 */
export function json(value: unknown): Code {
  if (value === null || typeof value !== "object") return make(primitiveJson(value));
  return code`JSON.parse(${str(JSON.stringify(value))})`;
}

function primitiveJson(value: unknown): string {
  if (typeof value === "number") return num(value).toString();
  if (typeof value === "string") return str(value).toString();
  if (typeof value === "boolean" || value === null) return String(value);
  throw new Error(`not a JSON value: ${typeof value}`);
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const RESERVED = new Set(
  (
    "break case catch class const continue debugger default delete do else enum export extends false " +
    "finally for function if import in instanceof new null return super switch this throw true try typeof " +
    "var void while with yield let static implements interface package private protected public await " +
    "arguments eval undefined NaN Infinity"
  ).split(" "),
);

/** True when `name` is usable as a JavaScript identifier binding. */
export function isIdentifier(name: string): boolean {
  return IDENTIFIER.test(name) && !RESERVED.has(name);
}

/** A checked identifier. */
export function ident(name: string): Code {
  if (!isIdentifier(name)) throw new Error(`not a valid identifier: ${JSON.stringify(name)}`);
  return make(name);
}

const TYPE_EXPRESSION = /^[A-Za-z_$][A-Za-z0-9_$.<>[\]|&, ]*$/;

/** A TypeScript type expression given by the caller (e.g. `T.Venue`), checked for safe characters. */
export function typeExpr(text: string): Code {
  if (!TYPE_EXPRESSION.test(text)) throw new Error(`not a supported type expression: ${JSON.stringify(text)}`);
  return make(text);
}

/** A line comment whose text is reduced to a safe character set. */
export function comment(text: string): Code {
  return make(`// ${text.replace(/[^A-Za-z0-9_#/.:@~ -]/g, "_")}`);
}

/** Lines written by the caller of the compiler (module preamble), not from the schema. */
export function preambleLines(text: string): Code {
  return make(text);
}

/** A line break, for joining sections. */
export const NEWLINE: Code = make("\n");

/** Join fragments with a separator. */
export function joinCode(parts: readonly Code[], separator: Code): Code {
  const glue = separator.toString();
  let text = "";
  for (let i = 0; i < parts.length; i++) text += (i === 0 ? "" : glue) + (parts[i] as Code).toString();
  return make(text);
}

type BlockItem = string | { readonly block: Block; readonly pad: string };

/**
 * Lines of code with indentation, built top to bottom. Appended blocks are kept as nodes and
 * flattened once by `toCode`, so nesting does not copy lines again at every level.
 */
export class Block {
  readonly #items: BlockItem[] = [];
  #depth = 0;

  line(fragment: Code): void {
    this.#items.push(indent(this.#depth) + fragment.toString());
  }

  open(head: Code): void {
    const text = head.toString();
    this.line(make(text === "" ? "{" : `${text} {`));
    this.#depth++;
  }

  /** Closes the current block and opens the next one on the same line (`} else {`). */
  middle(text: Code): void {
    this.#depth--;
    this.line(text);
    this.#depth++;
  }

  close(tail: Code = code`}`): void {
    this.#depth--;
    this.line(tail);
  }

  /** Appends a blank line. */
  blank(): void {
    this.#items.push("");
  }

  /** Appends another block's lines at the current indentation. */
  append(other: Block): void {
    if (!other.empty) this.#items.push({ block: other, pad: indent(this.#depth) });
  }

  get empty(): boolean {
    return this.#items.length === 0;
  }

  /** Whether some line matches `pattern` (used to tell whether a parameter is read). */
  mentions(pattern: RegExp): boolean {
    return this.#items.some((item) => (typeof item === "string" ? pattern.test(item) : item.block.mentions(pattern)));
  }

  toCode(): Code {
    const lines: string[] = [];
    this.#flatten(lines, "");
    return make(lines.join("\n"));
  }

  #flatten(lines: string[], pad: string): void {
    for (const item of this.#items) {
      if (typeof item === "string") lines.push(item === "" ? "" : pad + item);
      else item.block.#flatten(lines, pad + item.pad);
    }
  }
}

function indent(depth: number): string {
  return depth === 0 ? "" : "  ".repeat(depth);
}
