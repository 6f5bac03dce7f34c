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
  if (value === null || typeof value !== "object" || value instanceof CodeRef) return printInline(value);
  const inline = new InlinePrinter(WIDTH - indent.length).print(value);
  if (inline !== undefined) return inline;
  const inner = `${indent}  `;
  if (Array.isArray(value))
    return `[\n${value.map((item) => `${inner}${toCodeLiteral(item, inner)},`).join("\n")}\n${indent}]`;
  const members = Object.entries(value).map(
    ([key, item]) => `${inner}${printKey(key)}: ${toCodeLiteral(item, inner)},`,
  );
  return `{\n${members.join("\n")}\n${indent}}`;
}

function printInline(value: unknown): string {
  if (value === undefined) return "undefined";
  if (value instanceof CodeRef) return value.code;
  return JSON.stringify(value);
}

/**
 * The one-line form of a value, given up as soon as it is longer than the budget: deciding the
 * layout of each level costs at most the budget, not the size of the whole subtree.
 */
class InlinePrinter {
  #text = "";

  constructor(readonly budget: number) {}

  print(value: unknown): string | undefined {
    return this.#append(value) ? this.#text : undefined;
  }

  #add(text: string): boolean {
    this.#text += text;
    return this.#text.length <= this.budget;
  }

  #append(value: unknown): boolean {
    if (value === null || typeof value !== "object" || value instanceof CodeRef) return this.#add(printInline(value));
    if (Array.isArray(value)) {
      if (!this.#add("[")) return false;
      for (let i = 0; i < value.length; i++) if ((i > 0 && !this.#add(", ")) || !this.#append(value[i])) return false;
      return this.#add("]");
    }
    const keys = Object.keys(value);
    if (keys.length === 0) return this.#add("{}");
    if (!this.#add("{ ")) return false;
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i] as string;
      if (
        !this.#add(`${i > 0 ? ", " : ""}${printKey(key)}: `) ||
        !this.#append((value as Record<string, unknown>)[key])
      )
        return false;
    }
    return this.#add(" }");
  }
}

/**
 * A member's key. `__proto__`, quoted or not, would set the literal's prototype instead of
 * making a property: it is written computed, which makes an own property of that name.
 */
function printKey(key: string): string {
  if (key === "__proto__") return '["__proto__"]';
  return IDENTIFIER.test(key) ? key : JSON.stringify(key);
}
