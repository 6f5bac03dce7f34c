import { readFileSync } from "node:fs";
import { join } from "node:path";
import type * as Helpers from "../../../runtime/validators/helpers/index.js";
import { repositoryPath } from "../../repository.js";

/**
 * The helper modules (runtime/validators/helpers/), real TypeScript whose text generated
 * modules take. module.ts holds what every module declares; the helper files, in this order, the
 * functions a module takes only when its code calls them (and those they call); standard-schema.ts
 * is taken whole, beside the Standard Schema objects (standard-schema.ts here).
 */
const DIR = repositoryPath("runtime", "validators", "helpers");
const MODULE_FILE = "module.ts";
const HELPER_FILES = [
  "errors.ts",
  "values.ts",
  "tracking.ts",
  "coerce.ts",
  "format-datetime.ts",
  "format-network.ts",
  "format-idna.ts",
];
const STANDARD_SCHEMA_FILE = "standard-schema.ts";

type Unprefixed<Name> = Name extends `$${infer Rest}` ? Rest : never;

/** A helper the generated code may call: an export of the helper modules, without its "$". */
export type HelperName = Unprefixed<keyof typeof Helpers>;

/**
 * A section of a helper module, as a generated module takes it: a paragraph (lines between blank
 * lines) that declares something, without the `export` of its "$" names (in a generated module
 * they are its own). Paragraphs that declare nothing (the file's documentation, its imports, a
 * note) are the source's alone.
 */
export interface Section {
  readonly text: string;
  /** the "$" names it declares */
  readonly declares: readonly string[];
  /** every "$" name in it */
  readonly names: ReadonlySet<string>;
}

const DECLARATION = /^(?:export )?(?:declare )?(?:const|let|function|interface|type|namespace) (\$?[A-Za-z_]\w*)/gm;

/** The sections of a helper module's source. */
export function readSections(source: string): Section[] {
  return source
    .split(/\n\s*\n/)
    .map((paragraph) => paragraph.replace(/^\n+|\n+$/g, ""))
    .filter((paragraph) => paragraph.match(DECLARATION) !== null)
    .map((paragraph) => ({
      text: paragraph.replace(/^export (?=(?:const|let|function|interface|type) \$)/gm, ""),
      declares: [...paragraph.matchAll(DECLARATION)]
        .map((match) => match[1] as string)
        .filter((name) => name.startsWith("$")),
      names: new Set(paragraph.match(/\$[A-Za-z_]\w*/g) ?? []),
    }));
}

/** The helpers' text, as the layout of a module needs it. */
export interface HelperTexts {
  /** what every module declares (module.ts) */
  readonly module: string;
  /** the sections of these helpers and of the helpers they use, in the files' order */
  sections(used: ReadonlySet<HelperName>): string[];
  /** the Standard Schema interface and helpers (standard-schema.ts), whole */
  readonly standardSchema: string;
}

let texts: HelperTexts | undefined;

/** The helper modules' text, read on first use (they do not change while the generator runs). */
export function helperTexts(): HelperTexts {
  texts ??= readHelperTexts((file) => readSections(readFileSync(join(DIR, file), "utf8")));
  return texts;
}

function readHelperTexts(read: (file: string) => Section[]): HelperTexts {
  const sections = HELPER_FILES.flatMap(read);
  const owner = new Map(sections.flatMap((section, index) => section.declares.map((name) => [name, index] as const)));
  const closure = (names: Iterable<string>): number[] => {
    const needed = new Set<number>();
    const pending = [...names];
    for (let name = pending.pop(); name !== undefined; name = pending.pop()) {
      const index = owner.get(name);
      if (index === undefined || needed.has(index)) continue;
      needed.add(index);
      pending.push(...(sections[index] as Section).names);
    }
    return [...needed].sort((a, b) => a - b);
  };
  return {
    module: joinSections(read(MODULE_FILE)),
    sections: (used) => closure([...used].map((name) => `$${name}`)).map((index) => (sections[index] as Section).text),
    standardSchema: joinSections(read(STANDARD_SCHEMA_FILE)),
  };
}

function joinSections(sections: readonly Section[]): string {
  return sections.map((section) => section.text).join("\n\n");
}
