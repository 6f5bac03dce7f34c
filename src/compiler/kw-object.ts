import { type Block, type Code, code, num, str, tsOnly } from "./code.js";
import { type ObjectNodeCtx, readerOf } from "./context.js";
import { requiredForDirection } from "./direction.js";
import { failWith, params } from "./fail.js";
import { childLocation } from "./location.js";
import { messages } from "./messages.js";
import { compileDirectProperties, compilePropertyLoop, emitMissing, type PropertyPlan } from "./object-loop.js";
import type { KeywordReader } from "./read.js";
import { HOP } from "./runtime.js";

/**
 * Object keywords. Everything that needs the keys is done in one `for...in` pass over own
 * keys (hasOwnProperty on the loop key is cheap in V8): properties, required (counted),
 * patternProperties, additionalProperties, propertyNames, min/maxProperties.
 */
export function compileObjectKeywords(ctx: ObjectNodeCtx, out: Block): void {
  const reader = readerOf(ctx);
  const plan = readPlan(ctx, reader);
  const keyed = plan.patterns.length > 0 || plan.additional !== undefined || plan.propertyNames !== undefined || plan.minProperties !== undefined || plan.maxProperties !== undefined;
  // a few optional properties and nothing else: look them up instead of walking every key
  const direct = !keyed && plan.required.length === 0 && plan.properties.length <= 3;
  const dependentRequired = reader.schemaMap("dependentRequired");
  const tracksAll = ctx.evaluated !== null && plan.additional !== undefined;
  if (!keyed && plan.properties.length === 0 && plan.required.length === 0 && dependentRequired === undefined && !tracksAll) return;
  const o = ctx.fn.fresh("o");
  out.line(code`const ${o} = ${ctx.data}${tsOnly` as Record<string, unknown>`};`);
  if (direct) compileDirectProperties(ctx, out, o, plan.properties);
  else if (keyed || plan.properties.length > 0) compilePropertyLoop(ctx, out, o, plan);
  else emitMissing(ctx, out, o, plan.required);
  if (dependentRequired !== undefined) compileDependentRequired(ctx, out, o, reader, dependentRequired);
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

function compileDependentRequired(ctx: ObjectNodeCtx, out: Block, o: Code, reader: KeywordReader, map: Record<string, unknown>): void {
  for (const trigger of Object.keys(map)) {
    const names = map[trigger];
    if (!Array.isArray(names) || !names.every((name) => typeof name === "string")) {
      reader.fail("dependentRequired", `dependentRequired/${trigger} must be an array of property names`);
    }
    out.open(code`if (${HOP}.call(${o}, ${str(trigger)}))`);
    for (const name of names as string[]) {
      const at = childLocation(ctx.at, "dependentRequired");
      const errorParams = params({ property: str(trigger), missingProperty: str(name), depsCount: num(names.length) });
      const fail = failWith(ctx, "dependentRequired", errorParams, str(messages.dependentRequired(name, trigger)), { at });
      out.line(code`if (!${HOP}.call(${o}, ${str(name)})) ${fail}`);
    }
    out.close();
  }
}
