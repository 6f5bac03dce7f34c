/**
 * The only way text becomes generated code. Literal template text written in this
 * repository is trusted; every value that comes from a schema enters through `str`
 * (JSON-quoted), `num`, `json`, or `ident` (checked), so no spec string can break out
 * of a literal or inject statements.
 */
const SECRET = Symbol("code");

/**
 * A fragment of generated code that is safe by construction, as TypeScript and as JavaScript: the
 * two differ only by what `tsOnly` adds (types, casts, declarations of types), which JavaScript
 * leaves out.
 */
export class Code {
  readonly #text: string;
  /** the JavaScript, where it differs from the TypeScript */
  readonly #js: string | undefined;
  /** a single string, number or boolean literal (from `str`, `num` or `bool`) */
  readonly #literal: boolean;

  constructor(secret: symbol, text: string, literal = false, js?: string) {
    if (secret !== SECRET) throw new Error("Code can only be created by the code builder");
    this.#text = text;
    this.#literal = literal;
    this.#js = js === text ? undefined : js;
  }

  static isLiteral(fragment: Code): boolean {
    return fragment.#literal;
  }

  /** Whether the fragment's JavaScript differs from its TypeScript. */
  static hasTypes(fragment: Code): boolean {
    return fragment.#js !== undefined;
  }

  /** The TypeScript. */
  toString(): string {
    return this.#text;
  }

  /** The JavaScript: the TypeScript without what `tsOnly` added. */
  toJavaScript(): string {
    return this.#js ?? this.#text;
  }
}

function make(text: string, js?: string): Code {
  return new Code(SECRET, text, false, js);
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
  let typed = false;
  for (let i = 0; i < values.length; i++) {
    const value = values[i];
    if (!(value instanceof Code)) throw new Error("only Code may be interpolated into code``");
    text += value.toString() + (strings.raw[i + 1] ?? "");
    typed ||= Code.hasTypes(value);
  }
  return typed ? make(text, javaScriptOf(strings, values)) : make(text);
}

/** The JavaScript of a template whose interpolations differ in it. */
function javaScriptOf(strings: TemplateStringsArray, values: readonly Code[]): string {
  let js = strings.raw[0] ?? "";
  for (let i = 0; i < values.length; i++) js += (values[i] as Code).toJavaScript() + (strings.raw[i + 1] ?? "");
  return js;
}

/** A JSON-quoted string literal; line and paragraph separators are escaped too. */
export function str(value: string): Code {
  if (!NEEDS_ESCAPE.test(value)) return literal(`"${value}"`);
  return literal(JSON.stringify(value).replace(/[\u2028\u2029]/g, (char) => `\\u${char.charCodeAt(0).toString(16)}`));
}

/** Characters that JSON escapes (quote, backslash, controls, lone surrogates) and the line separators. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this finds
const NEEDS_ESCAPE = /["\\\u0000-\u001f\u2028\u2029\ud800-\udfff]/;

/**
 * A regular expression literal with the `u` flag (`/^a+/u`), for a pattern that can be written as
 * one as it is: printable ASCII, each backslash escaping the character after it, no `/` but an
 * escaped one (which would end it), not starting with `*` (a comment), and none of the syntax
 * TypeScript checks against its target (group names, lookbehind and modifiers after `(?`,
 * property escapes). Undefined for any other pattern, which the RegExp constructor builds from
 * its text. Whether the pattern compiles with `u` is the caller's to check.
 */
export function regexLiteral(pattern: string): Code | undefined {
  if (!REGEX_LITERAL.test(pattern) || TARGET_CHECKED.test(pattern)) return undefined;
  return make(`/${pattern}/u`);
}

const REGEX_LITERAL = /^(?!\*)(?:[\x20-\x2e\x30-\x5b\x5d-\x7e]|\\[\x20-\x7e])+$/;
const TARGET_CHECKED = /\(\?(?![:=!])|\\[pPk]/;

/**
 * TypeScript-only syntax (an annotation, a cast, a declaration of types), as a tagged template:
 * kept in TypeScript output, left out of JavaScript output.
 */
export function tsOnly(strings: TemplateStringsArray, ...values: readonly Code[]): Code {
  return make(code(strings, ...values).toString(), "");
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

/** Text of a source file of this repository (a helper module, helpers.ts), taken as written. */
export function sourceText(text: string): Code {
  return make(text);
}

/** A line break, for joining sections. */
export const NEWLINE: Code = make("\n");

/** Join fragments with a separator. */
export function joinCode(parts: readonly Code[], separator: Code): Code {
  const glue = separator.toString();
  let text = "";
  for (let i = 0; i < parts.length; i++) text += (i === 0 ? "" : glue) + (parts[i] as Code).toString();
  if (!Code.hasTypes(separator) && !parts.some((part) => Code.hasTypes(part))) return make(text);
  const jsGlue = separator.toJavaScript();
  let js = "";
  for (let i = 0; i < parts.length; i++) js += (i === 0 ? "" : jsGlue) + (parts[i] as Code).toJavaScript();
  return make(text, js);
}

/** A line: its text, or a fragment whose JavaScript differs. */
type BlockItem = string | Code | { readonly block: Block; readonly pad: string };

/**
 * Lines of code with indentation, built top to bottom. Appended blocks are kept as nodes and
 * flattened once by `toCode`, so nesting does not copy lines again at every level.
 */
export class Block {
  readonly #items: BlockItem[] = [];
  #depth = 0;
  /** whether some line's JavaScript differs from its TypeScript */
  #typed = false;

  line(fragment: Code): void {
    const pad = indent(this.#depth);
    if (!Code.hasTypes(fragment)) this.#items.push(pad + fragment.toString());
    else {
      this.#items.push(pad === "" ? fragment : code`${make(pad)}${fragment}`);
      this.#typed = true;
    }
  }

  open(head: Code): void {
    this.line(head.toString() === "" ? code`{` : code`${head} {`);
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
    if (other.empty) return;
    this.#items.push({ block: other, pad: indent(this.#depth) });
    this.#typed ||= other.#typed;
  }

  get empty(): boolean {
    return this.#items.length === 0;
  }

  /** Whether some line matches `pattern` (used to tell whether a parameter is read). */
  mentions(pattern: RegExp): boolean {
    return this.#items.some((item) =>
      item instanceof Code
        ? pattern.test(item.toString())
        : typeof item === "string"
          ? pattern.test(item)
          : item.block.mentions(pattern),
    );
  }

  toCode(): Code {
    const text = this.toText("ts");
    return this.#typed ? make(text, this.toText("js")) : make(text);
  }

  /** The lines as TypeScript, or as JavaScript, only. */
  toText(language: "ts" | "js"): string {
    const lines: string[] = [];
    this.#flatten(lines, "", language === "js");
    return lines.join("\n");
  }

  #flatten(lines: string[], pad: string, javaScript: boolean): void {
    for (const item of this.#items) {
      if (typeof item === "string") lines.push(item === "" ? "" : pad + item);
      else if (item instanceof Code) lines.push(pad + (javaScript ? item.toJavaScript() : item.toString()));
      else item.block.#flatten(lines, pad + item.pad, javaScript);
    }
  }
}

function indent(depth: number): string {
  return depth === 0 ? "" : "  ".repeat(depth);
}
