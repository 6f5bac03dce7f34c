import { readdirSync, readFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import Handlebars from "handlebars";
import type { GeneratedFile } from "./emitter.js";
import { toJsdocComment } from "./jsdoc.js";
import { toCodeLiteral } from "./literal.js";

/** Renders the named templates ("server/plugin.ts") with precomputed view-models. */
export interface TemplateSet {
  /** The file at `path`, rendered from template `name`. */
  file(path: string, name: string, view: object): GeneratedFile;
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/**
 * Spec values reach templates only through these helpers, which quote or check them:
 * `json` (JSON-quoted value), `literal` (readable JSON-quoted data), `ident` (a checked
 * identifier), `jsdoc` (a safe comment block).
 */
const HELPERS: Record<string, Handlebars.HelperDelegate> = {
  json: (value: unknown) => JSON.stringify(value),
  literal: (value: unknown, indent: unknown) => toCodeLiteral(value, typeof indent === "string" ? indent : ""),
  ident,
  jsdoc: (text: unknown, indent: unknown) =>
    toJsdocComment(typeof text === "string" ? text : undefined, typeof indent === "string" ? indent : "").trimEnd(),
};

function ident(value: unknown): string {
  if (typeof value !== "string" || !IDENTIFIER.test(value))
    throw new Error(`not an identifier: ${JSON.stringify(value)}`);
  return value;
}

/** Loads and compiles every `*.hbs` file under a folder once; names are paths without ".hbs". */
export function loadTemplates(dir: string): TemplateSet {
  const handlebars = Handlebars.create();
  for (const [name, helper] of Object.entries(HELPERS)) handlebars.registerHelper(name, helper);
  const compiled = new Map<string, Handlebars.TemplateDelegate>();
  for (const file of listTemplates(dir)) {
    const name = relative(dir, file)
      .split(sep)
      .join("/")
      .replace(/\.hbs$/, "");
    const options = {
      strict: true,
      noEscape: true,
      knownHelpers: { json: true, literal: true, ident: true, jsdoc: true },
      knownHelpersOnly: true,
    };
    compiled.set(name, handlebars.compile(readFileSync(file, "utf8"), options));
  }
  return {
    file(path, name, view) {
      const template = compiled.get(name);
      if (template === undefined) throw new Error(`no template "${name}" in ${dir}`);
      return { path, content: template(view) };
    },
  };
}

function listTemplates(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(".hbs"))
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
}
