import {
  Block,
  type Code,
  code,
  ident,
  joinCode,
  NEWLINE,
  preambleLines,
  sourceText,
  str,
  tsOnly,
  typeExpr,
} from "../code/code.js";
import { type HelperTexts, helperTexts } from "../code/helpers.js";
import type { SchemaLocation } from "../registry/location.js";
import { emitCoercer } from "./coerce.js";
import type { ValidatorEntry } from "./entries.js";
import { compileFunction } from "./function.js";
import type { ModuleState } from "./module-state.js";
import { PUBLIC_TYPE_NAMES, type PublicTypes, publicTypesSource } from "./public-types.js";
import { emitStandardSchemas } from "./standard-schema.js";

/** An entry with its schema located. */
export interface LocatedEntry {
  readonly entry: ValidatorEntry;
  readonly location: SchemaLocation;
}

/** A laid-out module: all of it, or a part, as TypeScript or JavaScript. */
export interface AssembledModule {
  /** the whole module */
  text(language: "ts" | "js"): string;
  /**
   * A module with only the named entries' exports and what they use (helpers, constants,
   * functions), without the Standard Schema objects.
   */
  part(entryNames: readonly string[], language: "ts" | "js"): string;
}

/** A unit of the module's code: an exported entry or a function, by its name. */
interface Unit {
  readonly name: string;
  readonly code: Code;
}

/** Compiles all requested functions and lays out the module text. */
export function assembleModule(
  module: ModuleState,
  entries: readonly LocatedEntry[],
  preamble: string | undefined,
  publicTypes: PublicTypes = "inline",
): AssembledModule {
  const { exports, functions } = compileUnits(module, entries);
  const helpers = helperTexts();
  const head = moduleHead(module, helpers, preamble, publicTypes);
  const units = [...functions, ...exports];
  const standard = emitStandardSchemas(
    entries.map(({ entry }) => entry),
    helpers.standardSchema,
  );
  const whole = layoutModule(head, module, units, () => true, standard);
  return {
    text: (language) => `${whole.toText(language)}\n`,
    part(entryNames, language) {
      const unknown = entryNames.filter((name) => !exports.some((entry) => entry.name === name));
      if (unknown.length > 0) throw new Error(`no entry named ${unknown.join(", ")}`);
      const needed = usedBy(module, entryNames);
      const keep = (name: string): boolean => needed.has(name);
      return `${layoutModule(
        head,
        module,
        units.filter((unit) => keep(unit.name)),
        keep,
        undefined,
      ).toText(language)}\n`;
    },
  };
}

/** The entries' exports, then every function they call (compiled as they are requested). */
function compileUnits(module: ModuleState, entries: readonly LocatedEntry[]): { exports: Unit[]; functions: Unit[] } {
  const exports = entries.map((located) => ({
    name: located.entry.name,
    code: module.unit(located.entry.name, () =>
      emitEntry(module, located, module.request(located.location, located.entry.direction ?? "neutral", false)),
    ),
  }));
  const functions: Unit[] = [];
  for (let request = module.takeQueued(); request !== undefined; request = module.takeQueued()) {
    const name = request.name.toString();
    functions.push({ name, code: module.unit(name, () => compileFunction(module, request)) });
  }
  return { exports, functions };
}

/**
 * The sections before the module's own code, all TypeScript only: the preamble, the public types,
 * the helpers' declarations (JavaScript is run with the helpers themselves in their place).
 */
function moduleHead(
  module: ModuleState,
  helpers: HelperTexts,
  preamble: string | undefined,
  publicTypes: PublicTypes,
): Code[] {
  return [
    ...(preamble !== undefined && preamble !== "" ? [tsOnly`${preambleLines(preamble)}`] : []),
    tsOnly`${publicTypesCode(publicTypes)}`,
    ...[helpers.module, ...helpers.sections(module.helpersUsed)].map((text) => tsOnly`${sourceText(text)}`),
  ];
}

/** The module's sections, a blank line between each: its head, the constants kept, the units, the Standard Schema objects. */
function layoutModule(
  head: readonly Code[],
  module: ModuleState,
  units: readonly Unit[],
  keep: (name: string) => boolean,
  standard: Code | undefined,
): Block {
  const constants = module.constants.filter((constant) => keep(constant.name)).map((constant) => constant.declaration);
  const sections = [
    ...head,
    ...(constants.length > 0 ? [joinCode(constants, NEWLINE)] : []),
    ...units.map((unit) => unit.code),
    ...(standard === undefined ? [] : [standard]),
  ];
  const out = new Block();
  for (const section of sections) {
    if (!out.empty) out.blank();
    out.line(section);
  }
  return out;
}

/** The names of the units these entries use, themselves included, directly or through others. */
function usedBy(module: ModuleState, entryNames: readonly string[]): Set<string> {
  const needed = new Set<string>();
  const pending = [...entryNames];
  for (let name = pending.pop(); name !== undefined; name = pending.pop()) {
    if (needed.has(name)) continue;
    needed.add(name);
    pending.push(...module.uses(name));
  }
  return needed;
}

/** The public types: declared here, or imported from their module and exported again. */
function publicTypesCode(publicTypes: PublicTypes): Code {
  if (publicTypes === "inline") return preambleLines(publicTypesSource());
  const names = PUBLIC_TYPE_NAMES.join(", ");
  const from = str(publicTypes.from);
  return code`import type { ${preambleLines(names)} } from ${from};
export type { ${preambleLines(names)} } from ${from};`;
}

function emitEntry(module: ModuleState, { entry, location }: LocatedEntry, root: Code): Code {
  const type = typeExpr(entry.typeName ?? "unknown");
  const coercion = entry.coerceStrings === true ? emitCoercer(module, location) : undefined;
  const out = new Block();
  const input = coercion === undefined ? code`value` : coercion.code;
  emitValidate(out, {
    name: ident(entry.name),
    type,
    input,
    root,
    invalid: module.helper(
      coercion === undefined ? "invalid" : coercion.integers ? "invalidIntegerText" : "invalidText",
    ),
  });
  if (entry.guardName !== undefined) {
    out.blank();
    out.open(code`export function ${ident(entry.guardName)}(value${tsOnly`: unknown`})${tsOnly`: value is ${type}`}`);
    out.line(code`return ${root}(value, null, false, 0);`);
    out.close();
  }
  return out.toCode();
}

/** The parts of an exported validate function. */
interface ValidateParts {
  readonly name: Code;
  readonly type: Code;
  /** the value checked: the argument, or its conversion from text */
  readonly input: Code;
  readonly root: Code;
  /** the helper that turns the sink into the invalid result */
  readonly invalid: Code;
}

/** The result object doubles as the error sink, so a valid input allocates nothing else. */
function emitValidate(out: Block, { name, type, input, root, invalid }: ValidateParts): void {
  out.open(
    code`export function ${name}(value${tsOnly`: unknown`}, options${tsOnly`?: ValidateOptions`})${tsOnly`: ValidationResult<${type}>`}`,
  );
  out.line(code`const r${tsOnly`: $Sink`} = { valid: true, value: ${input}, errors: undefined };`);
  out.line(code`const all = options !== undefined && options.allErrors === true;`);
  out.line(code`return ${root}(r.value, r, all, 0) ? (r${tsOnly` as ValidationResult<${type}>`}) : ${invalid}(r);`);
  out.close();
}
