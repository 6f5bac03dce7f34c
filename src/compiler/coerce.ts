import { Block, code, num, str, type Code } from "./code.js";
import { isObject, type JsonObject } from "./keywords.js";
import { childLocation, type SchemaLocation } from "./location.js";
import type { ModuleState } from "./module-state.js";
import { HOP } from "./runtime.js";

const FLAGS: Readonly<Record<string, number>> = { integer: 1, number: 2, boolean: 4, null: 8, string: 16 };

interface Conversion {
  readonly name: string;
  readonly array: boolean;
  readonly flags: number;
}

/**
 * For parameter objects whose values arrive as strings: a function converting the top-level
 * property values per the property schema's type, copying the object only when something
 * changed. Returns undefined when no property can need a conversion.
 */
export function emitCoercer(module: ModuleState, location: SchemaLocation, name: Code): Code | undefined {
  const root = follow(module, location);
  const properties = root?.schema["properties"];
  if (root === undefined || !isObject(properties)) return undefined;
  const conversions = Object.keys(properties)
    .map((property) => conversionFor(module, property, follow(module, childLocation(root.location, "properties", property))))
    .filter((conversion): conversion is Conversion => conversion !== undefined);
  return conversions.length === 0 ? undefined : emitFunction(module, name, conversions);
}

function emitFunction(module: ModuleState, name: Code, conversions: readonly Conversion[]): Code {
  const out = new Block();
  out.open(code`function ${name}(value: unknown): unknown`);
  out.line(code`if (typeof value !== "object" || value === null || Array.isArray(value)) return value;`);
  out.line(code`const src = value as Record<string, unknown>;`);
  out.line(code`let out: Record<string, unknown> | null = null;`);
  out.open(code`for (const k in src)`);
  out.line(code`if (!${HOP}.call(src, k)) continue;`);
  out.line(code`const v = src[k];`);
  out.line(code`let c: unknown = v;`);
  out.open(code`switch (k)`);
  for (const conversion of conversions) {
    const helper = module.helper(conversion.array ? "coerceArray" : "coerce");
    out.line(code`case ${str(conversion.name)}: c = ${helper}(v, ${num(conversion.flags)}); break;`);
  }
  out.close();
  out.line(code`if (c !== v) out = ${module.helper("withOwn")}(src, out, k, c);`);
  out.close();
  out.line(code`return out === null ? value : out;`);
  out.close();
  return out.toCode();
}

interface Resolved {
  readonly schema: JsonObject;
  readonly location: SchemaLocation;
}

/** The schema at a location, following a chain of `$ref`s. */
function follow(module: ModuleState, start: SchemaLocation): Resolved | undefined {
  let location = start;
  for (let hops = 0; hops < 32; hops++) {
    const schema = module.registry.schemaAt(location);
    if (!isObject(schema)) return undefined;
    const ref = schema["$ref"];
    if (typeof ref !== "string") return { schema, location };
    const base = module.registry.baseWithin(schema, module.registry.baseOf(location));
    location = module.registry.resolveRef(ref, base, childLocation(location, "$ref"));
  }
  return undefined;
}

function typeFlags(module: ModuleState, schema: JsonObject): number {
  const raw = schema["type"];
  const types = typeof raw === "string" ? [raw] : Array.isArray(raw) ? raw : [];
  let flags = 0;
  for (const type of types) flags |= typeof type === "string" ? FLAGS[type] ?? 0 : 0;
  if (module.registry.rules.openApi && schema["nullable"] === true) flags |= FLAGS["null"] ?? 0;
  return flags;
}

function conversionFor(module: ModuleState, name: string, resolved: Resolved | undefined): Conversion | undefined {
  if (resolved === undefined) return undefined;
  const flags = typeFlags(module, resolved.schema);
  const types = resolved.schema["type"];
  const isArray = types === "array" || (Array.isArray(types) && types.includes("array"));
  if ((flags & 16) !== 0) return undefined;
  if (isArray) {
    const items = follow(module, childLocation(resolved.location, "items"));
    return { name, array: true, flags: items === undefined ? 16 : typeFlags(module, items.schema) };
  }
  return (flags & 15) === 0 ? undefined : { name, array: false, flags };
}
