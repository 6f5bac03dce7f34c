import { Block, type Code, code, num, str, tsOnly } from "../code/code.js";
import { childLocation } from "../registry/location.js";
import { type ObjectNodeCtx, readerOf } from "./context.js";
import { requiredForDirection } from "./direction.js";
import { failWith, params } from "./fail.js";
import { compileDirectProperties, compilePropertyLoop, type PropertyPlan } from "./object-loop.js";
import type { KeywordReader } from "./read.js";

/** The messages of the keywords compiled here, written at generation time (see wording.ts). */
const messages = {
  dependentRequired: (name: string, trigger: string) =>
    `must have property '${name}' when property '${trigger}' is present`,
} as const;

/**
 * Object keywords. Everything that needs the keys is done in one `for...in` pass over own
 * keys (hasOwnProperty on the loop key is cheap in V8): properties, required (counted),
 * patternProperties, additionalProperties, propertyNames, min/maxProperties.
 */
/** The most declared properties looked up one by one; an object declaring more walks its keys. */
const MAX_DIRECT_PROPERTIES = 32;

export function compileObjectKeywords(ctx: ObjectNodeCtx, out: Block): void {
  const reader = readerOf(ctx);
  const plan = readPlan(ctx, reader);
  const keyed =
    plan.patterns.length > 0 ||
    (plan.additional !== undefined && plan.additional !== true) ||
    plan.propertyNames !== undefined ||
    plan.minProperties !== undefined ||
    plan.maxProperties !== undefined;
  const dependentRequired = reader.schemaMap("dependentRequired");
  const tracksAll = ctx.evaluated !== null && plan.additional !== undefined;
  const o = ctx.fn.fresh("o");
  const body = new Block();
  // without keywords that need the other keys, the declared names are looked up directly, up to
  // a point: the checks of a long run of properties in a row cost TypeScript's checker time
  // that grows with the square of their number (every reference walks back through the checks
  // before it), where the cases of one key loop do not.
  if (keyed || plan.properties.length > MAX_DIRECT_PROPERTIES) compilePropertyLoop(ctx, body, o, plan);
  else compileDirectProperties(ctx, body, o, plan);
  if (dependentRequired !== undefined) compileDependentRequired(ctx, body, o, reader, dependentRequired);
  if (!body.empty) {
    out.line(code`const ${o} = ${ctx.data}${tsOnly` as Record<string, unknown>`};`);
    out.append(body);
  }
  if (tracksAll) out.line(code`${ctx.evaluated as Code}.all = true;`);
}

function readPlan(ctx: ObjectNodeCtx, reader: KeywordReader): PropertyPlan {
  const properties = reader.schemaMap("properties") ?? {};
  const patterns = reader.schemaMap("patternProperties") ?? {};
  return {
    properties: Object.keys(properties),
    required: [...new Set(requiredForDirection(ctx, reader.stringArray("required") ?? []))],
    patterns: Object.keys(patterns),
    additional: reader.schemaValue("additionalProperties"),
    propertyNames: reader.schemaValue("propertyNames"),
    minProperties: reader.count("minProperties"),
    maxProperties: reader.count("maxProperties"),
  };
}

function compileDependentRequired(
  ctx: ObjectNodeCtx,
  out: Block,
  o: Code,
  reader: KeywordReader,
  map: Record<string, unknown>,
): void {
  for (const trigger of Object.keys(map)) {
    const names = map[trigger];
    if (!Array.isArray(names) || !names.every((name) => typeof name === "string")) {
      reader.fail("dependentRequired", `dependentRequired/${trigger} must be an array of property names`);
    }
    out.open(code`if (${ctx.fn.module.helper("hop")}.call(${o}, ${str(trigger)}))`);
    for (const name of names as string[]) {
      const at = childLocation(ctx.at, "dependentRequired");
      const errorParams = params({ property: str(trigger), missingProperty: str(name), depsCount: num(names.length) });
      const fail = failWith(ctx, "dependentRequired", errorParams, messages.dependentRequired(name, trigger), { at });
      out.line(code`if (!${ctx.fn.module.helper("hop")}.call(${o}, ${str(name)})) ${fail}`);
    }
    out.close();
  }
}
