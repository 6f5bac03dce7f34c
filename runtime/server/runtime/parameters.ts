/**
 * Parameters from the route table. Path templates become router paths ("{id}" → ":id"); the path
 * parameters, the query and the headers are read into objects keyed as the spec names them, ready
 * for the generated validators (which convert "7" → 7). Only declared parameters reach a handler.
 *
 * The query is read from the request's own text, not from Fastify's parsed query: a delimited
 * value is split at its literal delimiters before it is percent-decoded, so a delimiter the
 * client encoded ("a%2Cb,c" → ["a,b", "c"]) stays inside its item. Query styles: form (exploded
 * or comma-separated; arrays, and objects as `k1,v1,k2,v2` or one parameter per property),
 * spaceDelimited ("%20"; a "+" is a space inside an item), pipeDelimited ("|"), deepObject
 * (`filter[range][min]=3`, nested as URL-encoded forms are) and content (JSON text). Headers of
 * style content are JSON text too.
 *
 * JSON text in a parameter (style content: a query parameter, a header, a cookie) is held to the
 * limit a JSON body is: nested more than 1000 levels deep, it is refused (400). A cookie parameter's
 * percent escapes are decoded as strictly as a path's: a malformed escape, or bytes that are not
 * UTF-8, are refused (400), never taken as the text sent.
 */
import type { RouteParameter, RouteQuerystring } from "../../route-types.js";
import { MAX_JSON_DEPTH, nestedDeeperThan } from "./content.js";
import { fieldPath, formOf, parseForm } from "./form.js";
import { createProblem, ProblemError } from "./problems.js";

/** Parameter names to their raw values (strings, or lists of strings), before validation. */
export type RawParameters = Record<string, unknown>;

/** Reads one request part (path parameters or headers) into a parameter object. */
export type ParameterReader = (source: unknown) => RawParameters;

/** Reads the query of a request target ("/things?limit=5") into a parameter object. */
export type QueryReader = (url: string) => RawParameters;

/** A path for Fastify's router, and the spec's names of parameters it had to rename. */
export interface RouterPath {
  readonly url: string;
  /** [router name, spec name] of every parameter, when some were renamed */
  readonly renamed?: readonly (readonly [string, string])[];
}

/** The default limit of one path parameter, in characters (after percent-decoding). */
export const DEFAULT_MAX_PARAM_LENGTH = 1024;

const SIMPLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** The delimiter of each style, as it appears in the query text (an encoded one is data). */
const DELIMITERS: Readonly<Record<string, string>> = { form: ",", spaceDelimited: "%20", pipeDelimited: "|" };

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

/** Reads the path parameters of style label or matrix, from the request target, over those the router read. */
export type StyledPathReader = (named: RawParameters, url: string) => RawParameters;

/**
 * The path parameters of style label or matrix (`styles`) read from their text (".a,b" or
 * ";id=a,b" → ["a", "b"]), and missing when their prefix is. The text is taken from the request
 * target as sent, split at its literal delimiters and then percent-decoded, so an item holding an
 * encoded delimiter ("a%2Cb") stays whole; when the target does not match the path template (a
 * router option such as a trailing slash), the router's decoded value is read instead.
 */
export function compileStyledPathReader(template: string, styles: readonly RouteParameter[]): StyledPathReader {
  const names: string[] = [];
  const source = (template.split("?")[0] ?? "").replace(/\{([^}]*)\}|[^{]+/g, (token: string, name?: string) => {
    if (name === undefined) return token.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    names.push(name);
    return "([^/]*)";
  });
  const pattern = new RegExp(`${source}/?$`);
  return (named, url) => {
    const match = pattern.exec(url.split("?")[0] ?? "");
    const out = { ...named };
    for (const parameter of styles) {
      const at = names.indexOf(parameter.name);
      const sent = match?.[at + 1];
      const decoded = out[parameter.name];
      const value =
        sent !== undefined
          ? readStyledPath(parameter, sent)
          : typeof decoded === "string"
            ? readStyledPath(parameter, decoded, (text) => text)
            : undefined;
      if (value === undefined) delete out[parameter.name];
      else defineOwn(out, parameter.name, value);
    }
    return out;
  };
}

/**
 * A label or matrix path parameter from its text as sent, as OpenAPI's style table writes it:
 * label ".a", ".a,b" (".a.b" exploded), ".k,v" (".k=v" exploded); matrix ";id=a", ";id=a,b"
 * (";id=a;id=b" exploded), ";id=k,v" (";k=v" exploded). Names and items are decoded (`decode`)
 * once split.
 */
export function readStyledPath(
  parameter: RouteParameter,
  text: string,
  decode: (text: string) => string = decodePercent,
): unknown {
  const { name, explode, array } = parameter;
  const object = !array && parameter.properties !== undefined;
  const list = (body: string, delimiter: string): string[] => (body === "" ? [] : body.split(delimiter).map(decode));
  if (parameter.style === "label") {
    if (!text.startsWith(".")) return undefined;
    const body = text.slice(1);
    if (array) return list(body, explode ? "." : ",");
    if (!object) return decode(body);
    return explode ? pairsOf(body === "" ? [] : body.split("."), decode) : objectOf(list(body, ","), [body]);
  }
  if (!text.startsWith(";")) return undefined;
  const parts = text.slice(1).split(";");
  if (object && explode) return pairsOf(parts, decode);
  const values = parts.flatMap((part) => {
    const at = part.indexOf("=");
    if (decode(at < 0 ? part : part.slice(0, at)) !== name) return [];
    return [at < 0 ? "" : part.slice(at + 1)];
  });
  const first = values[0];
  if (first === undefined) return undefined;
  if (array) return explode ? values.map(decode) : list(first, ",");
  return object ? objectOf(list(first, ","), [first]) : decode(first);
}

/** `["k=v", "k2=v2"]` → { k: "v", k2: "v2" }, each name and value decoded. */
function pairsOf(items: readonly string[], decode: (text: string) => string): RawParameters {
  const out: RawParameters = {};
  for (const item of items) {
    const at = item.indexOf("=");
    if (at > 0) defineOwn(out, decode(item.slice(0, at)), decode(item.slice(at + 1)));
  }
  return out;
}

/** Reads the `Cookie` header into cookies by name, values as sent (cookies.ts). */
export type CookieReader = (header: string | undefined) => Readonly<Record<string, string | undefined>>;

/**
 * The declared cookie parameters (style form: a list or an object comma-separated, its items
 * percent-decoded; or content: JSON text), from the request's `Cookie` header.
 */
export function compileCookieReader(parameters: readonly RouteParameter[], read: CookieReader): ParameterReader {
  return (source) => {
    const headers = source as Record<string, string | string[] | undefined>;
    const header = headers["cookie"];
    const cookies = read(Array.isArray(header) ? header.join("; ") : header);
    const out: RawParameters = {};
    for (const parameter of parameters) {
      const raw = Object.hasOwn(cookies, parameter.name) ? cookies[parameter.name] : undefined;
      if (raw === undefined) continue;
      defineOwn(out, parameter.name, cookieValue(parameter, raw));
    }
    return out;
  };
}

function cookieValue(parameter: RouteParameter, raw: string): unknown {
  const decode = (text: string): string => decodeCookieText(text, parameter.name);
  if (parameter.style === "content") return parseContent(decode(raw), "cookie", parameter.name);
  const object = !parameter.array && parameter.properties !== undefined;
  if (!parameter.array && !object) return decode(raw);
  const items = raw === "" ? [] : raw.split(",").map(decode);
  return parameter.array ? items : objectOf(items, [raw]);
}

/** A cookie parameter's text with its percent escapes decoded; a malformed or non-UTF-8 escape is refused (400). */
function decodeCookieText(text: string, name: string): string {
  if (!text.includes("%")) return text;
  try {
    return decodeURIComponent(text);
  } catch {
    throw new ProblemError(
      createProblem(
        "malformedRequest",
        `The cookie ${JSON.stringify(name)} is not valid percent-encoded UTF-8: write a "%" as %25, and percent-encode its text as UTF-8.`,
      ),
    );
  }
}

/** A cookie value's or a path item's percent escapes decoded; a malformed escape stays as it is. */
export function decodePercent(text: string): string {
  if (!text.includes("%")) return text;
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** The declared query parameters, decoded by style, from the request target's query. */
export function compileQueryReader(parameters: readonly RouteParameter[]): QueryReader {
  return (url) => {
    const pairs = queryPairs(url);
    const out: RawParameters = {};
    if (pairs.length === 0) return out;
    for (const parameter of parameters) {
      const value = readQueryValue(parameter, pairs);
      if (value !== undefined) defineOwn(out, parameter.name, value);
    }
    return out;
  };
}

/** Reads an `in: querystring` parameter (OpenAPI 3.2) from a request target; undefined when it is not sent. */
export type QuerystringReader = (url: string) => unknown;

/**
 * The whole query string as one value, as its media type says: a URL-encoded form read as form
 * bodies are (nested fields in brackets, a repeated name a list), JSON text percent-decoded and
 * parsed (text that is not JSON as it is, for the validator to refuse), any other media type's
 * text percent-decoded. An empty query string is not sent, except a required form's, read as {}.
 */
export function compileQuerystringReader(querystring: RouteQuerystring): QuerystringReader {
  const { kind, name, required } = querystring;
  return (url) => {
    const start = url.indexOf("?");
    const text = start === -1 ? "" : url.slice(start + 1);
    if (kind === "form") return text === "" && !required ? undefined : parseForm(text);
    if (text === "") return undefined;
    const decoded = decodePercent(text);
    return kind === "json" ? parseContent(decoded, "query", name) : decoded;
  };
}

/** One `name=value` of a query, as sent (still percent-encoded). */
interface QueryPair {
  readonly rawName: string;
  /** the name decoded */
  readonly name: string;
  readonly rawValue: string;
}

/** The pairs of the query part of a request target, in order; empty ones left out. */
function queryPairs(url: string): QueryPair[] {
  const start = url.indexOf("?");
  if (start === -1) return [];
  const pairs: QueryPair[] = [];
  for (const part of url.slice(start + 1).split("&")) {
    if (part === "") continue;
    const at = part.indexOf("=");
    const rawName = at === -1 ? part : part.slice(0, at);
    pairs.push({ rawName, name: decodeQueryText(rawName), rawValue: at === -1 ? "" : part.slice(at + 1) });
  }
  return pairs;
}

function readQueryValue(parameter: RouteParameter, pairs: readonly QueryPair[]): unknown {
  const { name, style, explode, array } = parameter;
  if (style === "deepObject") return readDeepObject(name, pairs);
  const object = !array && parameter.properties !== undefined;
  if (object && explode && style === "form") return readPropertyParameters(parameter.properties ?? [], pairs);
  const values = pairs.filter((pair) => pair.name === name).map((pair) => pair.rawValue);
  if (values.length === 0) return undefined;
  if (style === "content") return oneOrList(values.map((value) => parseContent(decodeQueryText(value), "query", name)));
  const delimited = !explode && (array || object);
  if (!delimited) return array ? values.map(decodeQueryText) : oneOrList(values.map(decodeQueryText));
  const items = values.flatMap((value) => value.split(DELIMITERS[style] ?? ",").map(decodeQueryText));
  return array ? items : objectOf(items, values);
}

/** A single value as it is; a repeated one as its list, for the validator to judge. */
function oneOrList(values: readonly unknown[]): unknown {
  return values.length === 1 ? values[0] : values;
}

/** `k1,v1,k2,v2` → { k1: v1, k2: v2 }; an odd count of items stays text, for the validator to refuse. */
function objectOf(items: readonly string[], values: readonly string[]): unknown {
  if (values.length !== 1 || items.length % 2 !== 0) return oneOrList(values.map(decodeQueryText));
  const out: RawParameters = {};
  for (let i = 0; i < items.length; i += 2) defineOwn(out, items[i] as string, items[i + 1]);
  return out;
}

/** An object of style form, exploded: each of its properties is a parameter of its own. */
function readPropertyParameters(properties: readonly string[], pairs: readonly QueryPair[]): RawParameters | undefined {
  let out: RawParameters | undefined;
  for (const property of properties) {
    const values = pairs.filter((pair) => pair.name === property).map((pair) => decodeQueryText(pair.rawValue));
    if (values.length === 0) continue;
    out ??= {};
    defineOwn(out, property, oneOrList(values));
  }
  return out;
}

/** `name[a]=1&name[b][c]=2&name[d][0]=3` → { a: "1", b: { c: "2" }, d: ["3"] }, as forms are read. */
function readDeepObject(name: string, pairs: readonly QueryPair[]): unknown {
  const fields: [string[], string][] = [];
  for (const pair of pairs) {
    const path = queryFieldPath(pair);
    if (path.length > 1 && path[0] === name) fields.push([path, decodeQueryText(pair.rawValue)]);
  }
  if (fields.length === 0) return undefined;
  const form = formOf(fields);
  return Object.hasOwn(form, name) ? form[name] : undefined;
}

/** A name split at its literal brackets, then decoded; else, when its brackets were encoded too, at those. */
function queryFieldPath(pair: QueryPair): string[] {
  const path = fieldPath(pair.rawName, decodeQueryText);
  return path.length > 1 ? path : fieldPath(pair.name);
}

/** The text of a query name or value: "+" is a space, percent escapes decoded; a malformed escape stays as it is. */
function decodeQueryText(text: string): string {
  return decodePercent(text.includes("+") ? text.replaceAll("+", " ") : text);
}

/**
 * A parameter of style content: its JSON text parsed; text that is not JSON as it is, for the
 * validator to judge. JSON nested deeper than a body may be is refused (400).
 */
function parseContent(text: string, where: "query" | "header" | "cookie", name: string): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return text;
  }
  // each level takes two characters at least, so a shorter text cannot be too deep
  if (text.length > 2 * MAX_JSON_DEPTH && nestedDeeperThan(new TextEncoder().encode(text), MAX_JSON_DEPTH))
    throw new ProblemError(
      createProblem(
        "malformedRequest",
        `The ${where === "cookie" ? "cookie" : `${where} parameter`} ${JSON.stringify(name)} is nested more than ${MAX_JSON_DEPTH} levels deep.`,
      ),
    );
  return value;
}

/** The declared header parameters, keyed as the spec spells them (`names`, in route order). */
export function compileHeaderReader(parameters: readonly RouteParameter[]): ParameterReader {
  // Node gives header names lower-cased; the validators and types use the spec's spelling.
  const plan = parameters.map((parameter) => ({
    key: parameter.name.toLowerCase(),
    name: parameter.name,
    array: parameter.array,
    content: parameter.style === "content",
  }));
  return (source) => {
    const headers = source as Record<string, string | string[] | undefined>;
    const out: RawParameters = {};
    for (const { key, name, array, content } of plan) {
      // own headers only: the header object inherits "constructor", "__proto__", ...
      const value = Object.hasOwn(headers, key) ? headers[key] : undefined;
      if (value === undefined) continue;
      if (content) defineOwn(out, name, typeof value === "string" ? parseContent(value, "header", name) : value);
      else defineOwn(out, name, array && !Array.isArray(value) ? value.split(",").map((item) => item.trim()) : value);
    }
    return out;
  };
}

/** Sets an own data property, even for names such as "__proto__". */
function defineOwn(target: RawParameters, name: string, value: unknown): void {
  Object.defineProperty(target, name, { value, writable: true, enumerable: true, configurable: true });
}
