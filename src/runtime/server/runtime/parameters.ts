/**
 * Parameters from the route table. Path templates become router paths ("{id}" → ":id"); the path
 * parameters, the query and the headers are read into objects keyed as the spec names them, ready
 * for the generated validators (which convert "7" → 7). Only declared parameters reach a handler.
 * Query styles: form (exploded or comma-separated), spaceDelimited, pipeDelimited and deepObject
 * ("filter[size]=2", one level).
 */
import type { RouteParameter } from "../../route-types.js";

/** Parameter names to their raw values (strings, or lists of strings), before validation. */
export type RawParameters = Record<string, unknown>;

/** Reads one request part (path parameters, query or headers) into a parameter object. */
export type ParameterReader = (source: unknown) => RawParameters;

/** A path for Fastify's router, and the spec's names of parameters it had to rename. */
export interface RouterPath {
  readonly url: string;
  /** [router name, spec name] of every parameter, when some were renamed */
  readonly renamed?: readonly (readonly [string, string])[];
}

const SIMPLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const SEPARATORS: Readonly<Record<string, string>> = { form: ",", spaceDelimited: " ", pipeDelimited: "|" };

/**
 * "/workers/{id}/documents" → "/workers/:id/documents". Names the router cannot take ("user-id",
 * a repeated name) become ":p0", ":p1", ...; a literal ":" is escaped; a query part written
 * into the path ("/items?beta=true") is dropped, since routing never sees the query.
 */
export function toRouterPath(template: string): RouterPath {
  const path = template.split("?")[0] ?? "";
  const pairs: (readonly [string, string])[] = [];
  let renamed = false;
  const url = path.replace(/\{([^}]*)\}|[^{]+/g, (token: string, name: string | undefined, offset: number) => {
    if (name === undefined) return token.replace(/:/g, "::");
    const simple = SIMPLE_NAME.test(name) && !pairs.some(([, taken]) => taken === name);
    const routerName = simple ? name : `p${pairs.length}`;
    renamed ||= !simple;
    pairs.push([routerName, name]);
    const colonFollows = path.charAt(offset + token.length) === ":";
    return colonFollows ? `:${routerName}(^[^/:]+)` : `:${routerName}`;
  });
  return renamed ? { url, renamed: pairs } : { url };
}

/** The path parameters as the spec names them. */
export function compilePathReader(path: RouterPath): ParameterReader {
  const renamed = path.renamed;
  if (renamed === undefined) return (source) => source as RawParameters;
  return (source) => {
    const raw = source as Record<string, unknown>;
    const out: RawParameters = {};
    for (const [routerName, name] of renamed) defineOwn(out, name, raw[routerName]);
    return out;
  };
}

/** The declared query parameters, decoded by style. */
export function compileQueryReader(parameters: readonly RouteParameter[]): ParameterReader {
  return (source) => {
    const raw = (source ?? {}) as Record<string, unknown>;
    const out: RawParameters = {};
    for (const parameter of parameters) {
      const value = readQueryValue(parameter, raw);
      if (value !== undefined) defineOwn(out, parameter.name, value);
    }
    return out;
  };
}

function readQueryValue(parameter: RouteParameter, raw: Record<string, unknown>): unknown {
  if (parameter.style === "deepObject") return readDeepObject(parameter.name, raw);
  const value = Object.hasOwn(raw, parameter.name) ? raw[parameter.name] : undefined;
  if (value === undefined || !parameter.array) return value;
  const list = Array.isArray(value) ? value.map(String) : [String(value)];
  if (parameter.explode) return list;
  const separator = SEPARATORS[parameter.style] ?? ",";
  return list.flatMap((item) => item.split(separator));
}

function readDeepObject(name: string, raw: Record<string, unknown>): RawParameters | undefined {
  const prefix = `${name}[`;
  let out: RawParameters | undefined;
  for (const key of Object.keys(raw)) {
    if (!key.startsWith(prefix) || !key.endsWith("]")) continue;
    out ??= {};
    defineOwn(out, key.slice(prefix.length, -1), raw[key]);
  }
  return out;
}

/** The declared header parameters, keyed as the spec spells them (`names`, in route order). */
export function compileHeaderReader(parameters: readonly RouteParameter[]): ParameterReader {
  // Node gives header names lower-cased; the validators and types use the spec's spelling.
  const plan = parameters.map((parameter) => ({ key: parameter.name.toLowerCase(), name: parameter.name, array: parameter.array }));
  return (source) => {
    const headers = source as Record<string, string | string[] | undefined>;
    const out: RawParameters = {};
    for (const { key, name, array } of plan) {
      const value = headers[key];
      if (value === undefined) continue;
      defineOwn(out, name, array && !Array.isArray(value) ? value.split(",").map((item) => item.trim()) : value);
    }
    return out;
  };
}

/** Sets an own data property, even for names such as "__proto__". */
function defineOwn(target: RawParameters, name: string, value: unknown): void {
  Object.defineProperty(target, name, { value, writable: true, enumerable: true, configurable: true });
}
