import { randomUUID } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import Handlebars from "handlebars";
import type { GeneratedFile } from "./emitter.js";
import { toJsdocComment } from "./jsdoc.js";
import { toCodeLiteral } from "./literal.js";

/** Renders the named templates ("server/plugin.ts") with precomputed view-models. */
export interface TemplateSet {
  /**
   * The file at `path`, rendered from template `name`. Its `gate` is what the syntax gate parses
   * (finalize.ts): the same code with each multi-line data literal left empty (`{}` or `[]`),
   * since the literal printer makes those valid by construction; a file of route tables or mock
   * data is then checked at the cost of its template's own code.
   */
  file(path: string, name: string, view: object): GeneratedFile;
}

/** The multi-line literals of the render under way, each with the empty literal of its kind. */
interface Collected {
  readonly token: string;
  readonly texts: string[];
  readonly empties: string[];
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/**
 * Spec values reach templates only through these helpers, which quote or check them:
 * `json` (JSON-quoted value), `literal` (readable JSON-quoted data), `ident` (a checked
 * identifier), `jsdoc` (a safe comment block).
 */
function helpers(collecting: () => Collected | undefined): Record<string, Handlebars.HelperDelegate> {
  return {
    json: (value: unknown) => JSON.stringify(value),
    literal: (value: unknown, indent: unknown) => {
      const text = toCodeLiteral(value, typeof indent === "string" ? indent : "");
      const collected = collecting();
      if (collected === undefined || !text.includes("\n")) return text;
      collected.texts.push(text);
      collected.empties.push(Array.isArray(value) ? "[]" : "{}");
      return `${collected.token}${collected.texts.length - 1}\u0000`;
    },
    ident,
    jsdoc: (text: unknown, indent: unknown) => toJsdocComment(typeof text === "string" ? text : undefined, typeof indent === "string" ? indent : "").trimEnd(),
  };
}

function ident(value: unknown): string {
  if (typeof value !== "string" || !IDENTIFIER.test(value)) throw new Error(`not an identifier: ${JSON.stringify(value)}`);
  return value;
}

/** Placeholders are NUL-delimited with a per-render nonce: no template text or quoted spec value can forge one. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the placeholders are delimited by NUL
const PLACEHOLDER = /\u0000([0-9a-f-]{36}):(\d+)\u0000/g;

/** Loads and compiles every `*.hbs` file under a folder once; names are paths without ".hbs". */
export function loadTemplates(dir: string): TemplateSet {
  const handlebars = Handlebars.create();
  let collected: Collected | undefined;
  for (const [name, helper] of Object.entries(helpers(() => collected))) handlebars.registerHelper(name, helper);
  const compiled = new Map<string, Handlebars.TemplateDelegate>();
  for (const file of listTemplates(dir)) {
    const name = relative(dir, file)
      .split(sep)
      .join("/")
      .replace(/\.hbs$/, "");
    const options = { strict: true, noEscape: true, knownHelpers: { json: true, literal: true, ident: true, jsdoc: true }, knownHelpersOnly: true };
    compiled.set(name, handlebars.compile(readFileSync(file, "utf8"), options));
  }
  return {
    file(path, name, view) {
      const template = compiled.get(name);
      if (template === undefined) throw new Error(`no template "${name}" in ${dir}`);
      const nonce = randomUUID();
      const current: Collected = { token: `\u0000${nonce}:`, texts: [], empties: [] };
      collected = current;
      let rendered: string;
      try {
        rendered = template(view);
      } finally {
        collected = undefined;
      }
      if (current.texts.length === 0) return { path, content: rendered };
      const fill = (from: readonly string[]) => (match: string, found: string, index: string) => (found === nonce ? (from[Number(index)] as string) : match);
      return { path, content: rendered.replace(PLACEHOLDER, fill(current.texts)), gate: rendered.replace(PLACEHOLDER, fill(current.empties)) };
    },
  };
}

function listTemplates(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(".hbs"))
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
}
