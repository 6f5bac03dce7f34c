/**
 * Prints JSON data as a TypeScript literal that people can read: identifier keys unquoted,
 * short arrays and objects on one line, longer ones one member per line. Every string goes
 * through JSON.stringify, so a spec value can never break out of its literal.
 */
const WIDTH = 100;
const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const REFERENCE = /^[A-Za-z_$][A-Za-z0-9_$]*(\.[A-Za-z_$][A-Za-z0-9_$]*)*$/;

/** A reference to a value in code ("V.validateVenue"), printed as is; checked when made. */
export class CodeRef {
  constructor(readonly code: string) {
    if (!REFERENCE.test(code)) throw new Error(`not a code reference: ${JSON.stringify(code)}`);
  }
}

export function toCodeLiteral(value: unknown, indent = ""): string {
  const inline = printInline(value);
  if (indent.length + inline.length <= WIDTH || value === null || typeof value !== "object" || value instanceof CodeRef) return inline;
  const inner = `${indent}  `;
  if (Array.isArray(value)) return `[\n${value.map((item) => `${inner}${toCodeLiteral(item, inner)},`).join("\n")}\n${indent}]`;
  const members = Object.entries(value).map(([key, item]) => `${inner}${printKey(key)}: ${toCodeLiteral(item, inner)},`);
  return `{\n${members.join("\n")}\n${indent}}`;
}

function printInline(value: unknown): string {
  if (value === undefined) return "undefined";
  if (value instanceof CodeRef) return value.code;
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(printInline).join(", ")}]`;
  const members = Object.entries(value).map(([key, item]) => `${printKey(key)}: ${printInline(item)}`);
  return members.length === 0 ? "{}" : `{ ${members.join(", ")} }`;
}

function printKey(key: string): string {
  return IDENTIFIER.test(key) ? key : JSON.stringify(key);
}
