import type { ValidatorEntry } from "../registry/entries.js";
import type { SchemaLocation } from "../registry/location.js";
import { Block, type Code, code, ident, joinCode, NEWLINE, preambleLines, sourceText, str, tsOnly, typeExpr } from "./code.js";
import { emitCoercer } from "./coerce.js";
import { compileFunction } from "./function.js";
import { helperTexts } from "./helpers.js";
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

/** Compiles all requested functions and lays out the module text. */
export function assembleModule(module: ModuleState, entries: readonly LocatedEntry[], preamble: string | undefined, publicTypes: PublicTypes = "inline"): AssembledModule {
  const exports = entries.map((located) => ({
    name: located.entry.name,
    code: module.unit(located.entry.name, () => emitEntry(module, located, module.request(located.location, located.entry.direction ?? "neutral", false))),
  }));
  const functions: { name: string; code: Code }[] = [];
  for (let request = module.takeQueued(); request !== undefined; request = module.takeQueued()) {
    const name = request.name.toString();
    functions.push({ name, code: module.unit(name, () => compileFunction(module, request)) });
  }
  const helpers = helperTexts();
  const layout = (keep: (name: string) => boolean, standard: Code | undefined): Block => {
    const out = new Block();
    const section = (content: Code): void => {
      if (!out.empty) out.blank();
      out.line(content);
    };
    if (preamble !== undefined && preamble !== "") section(tsOnly`${preambleLines(preamble)}`);
    section(tsOnly`${publicTypesCode(publicTypes)}`);
    // the helpers' declarations; JavaScript is run with the helpers themselves in their place
    section(tsOnly`${sourceText(helpers.module)}`);
    for (const text of helpers.sections(module.helpersUsed)) section(tsOnly`${sourceText(text)}`);
    const constants = module.constants.filter((constant) => keep(constant.name));
    if (constants.length > 0)
      section(
        joinCode(
          constants.map((constant) => constant.declaration),
          NEWLINE,
        ),
      );
    for (const part of [...functions, ...exports]) if (keep(part.name)) section(part.code);
    if (standard !== undefined) section(standard);
    return out;
  };
  const whole = layout(
    () => true,
    emitStandardSchemas(
      entries.map(({ entry }) => entry),
      helpers.standardSchema,
    ),
  );
  return {
    text: (language) => `${whole.toText(language)}\n`,
    part(entryNames, language) {
      const exported = new Set(exports.map((entry) => entry.name));
      const unknown = entryNames.filter((name) => !exported.has(name));
      if (unknown.length > 0) throw new Error(`no entry named ${unknown.join(", ")}`);
      const needed = new Set<string>();
      const pending = [...entryNames];
      for (let name = pending.pop(); name !== undefined; name = pending.pop()) {
        if (needed.has(name)) continue;
        needed.add(name);
        pending.push(...module.uses(name));
      }
      return `${layout((name) => needed.has(name), undefined).toText(language)}\n`;
    },
  };
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
  const coercer = entry.coerceStrings === true ? ident(`$coerce_${entry.name}`) : undefined;
  const coercion = coercer === undefined ? undefined : emitCoercer(module, location, coercer);
  const out = new Block();
  if (coercion !== undefined) {
    out.line(coercion);
    out.blank();
  }
  const input = coercion === undefined || coercer === undefined ? code`value` : code`${coercer}(value)`;
  emitValidate(out, { name: ident(entry.name), type, input, root, invalid: module.helper(coercion === undefined ? "invalid" : "invalidText") });
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
  out.open(code`export function ${name}(value${tsOnly`: unknown`}, options${tsOnly`?: ValidateOptions`})${tsOnly`: ValidationResult<${type}>`}`);
  out.line(code`const r${tsOnly`: $Sink`} = { valid: true, value: ${input}, errors: undefined };`);
  out.line(code`const all = options !== undefined && options.allErrors === true;`);
  out.line(code`return ${root}(r.value, r, all, 0) ? (r${tsOnly` as ValidationResult<${type}>`}) : ${invalid}(r);`);
  out.close();
}
