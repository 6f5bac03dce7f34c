/**
 * The Fetch API transport of the request pipeline (core.ts): a Fetch `Request` in, a `Response`
 * out, through the same checks as the Fastify server (security, media type, limits, validators,
 * problem answers, response checks). It routes by itself, as Fastify's router does: the path
 * template's parameters match one segment each and are percent-decoded (400 when that fails, 414
 * over the length limit), a known path with another method is a 405, anything else under the base
 * path a 404. It needs no Node API, so it serves in a browser too (the msw entry runs it in a
 * service worker's page).
 */
import type { Route } from "../../route-types.js";
import { carriesContent, hasBody, tooLarge, UNREADABLE } from "./content.js";
import { type CoreSettings, type RouteHandler, RoutePlan } from "./core.js";
import { failureOutcome } from "./errors.js";
import type { BodyCallback, IncomingRequest, Outcome, RequestLog, Transport } from "./exchange.js";
import { readFormData } from "./fetch-form.js";
import { compileNotFound, type NotFoundAnswer } from "./not-found.js";
import { DEFAULT_MAX_PARAM_LENGTH } from "./parameters.js";
import { MALFORMED_URL, parameterTooLong, problemOutcome } from "./problems.js";

/** A request as the Fetch transport hands it to the pipeline (and to handlers, as `request`). */
export interface FetchRequest extends IncomingRequest {
  /** the Fetch API request */
  readonly native: Request;
}

/** Where the answer goes: the promise the caller awaits. */
interface Pending {
  resolve(response: Response): void;
}

/** Options of `createFetchHandler` besides the pipeline's. */
export interface FetchSettings extends Omit<CoreSettings<FetchRequest>, "multipart"> {
  /**
   * The base every path is under: an absolute URL ("http://localhost:3000/api/1_12") serves that
   * origin only; a path ("/api/1_12", or "" for the root) serves it on any origin.
   */
  readonly baseUrl: string;
  /** answer requests under the base that no operation takes (404, 405 with Allow) */
  readonly notFound: boolean;
  /** where the pipeline logs (response check failures, handler errors) */
  readonly log: RequestLog;
  /** the longest path parameter in characters, as the Fastify router's limit (default 1024) */
  readonly maxParamLength?: number;
}

/**
 * Serves a request: its answer, or undefined when it is not under the base (or not found, with
 * `notFound` off). `cookie` is the request's `Cookie` header when the `Request` cannot carry one
 * (a browser's drops it: MSW hands over the page's cookies apart).
 */
export type FetchHandler = (request: Request, cookie?: string) => Promise<Response | undefined>;

/** One operation's route, matched by method and path. */
interface Entry {
  readonly method: string;
  readonly pattern: RegExp;
  /** the parameter names the pipeline reads the path with, in the template's order */
  readonly names: readonly string[];
  readonly plan: RoutePlan<FetchRequest, Pending>;
}

const FETCH: Transport<FetchRequest, Pending> = {
  hasBody: (request) => hasBody(request) || request.native.body !== null,
  hasContent: (request) => carriesContent(request) || request.native.body !== null,
  readBody: (request, limit, done) => void readLimited(request.native, limit, done),
  bodyChunks: (request) => chunksOf(request.native),
  send: (_request, pending, outcome) => pending.resolve(responseOf(outcome)),
  fail: (request, pending, error) => pending.resolve(responseOf(failureOutcome(error, request))),
};

/**
 * A Fetch handler serving every operation of the route table with its handler. Two operations on
 * the same method and path cannot both be served: the first (by operationId) is.
 */
export function createFetchHandler<K extends string>(
  table: Readonly<Record<K, Route>>,
  pick: (key: K) => { handler: RouteHandler; owner: object } | undefined,
  settings: FetchSettings,
): FetchHandler {
  const base = parseBase(settings.baseUrl);
  const core: CoreSettings<FetchRequest> = {
    ...settings,
    multipart: { read: (request, content) => readFormData(request.native, content, settings) },
  };
  const entries: Entry[] = [];
  for (const key of (Object.keys(table) as K[]).sort()) {
    const route = table[key];
    const picked = pick(key);
    if (picked === undefined || typeof picked.handler !== "function")
      throw new Error(`no handler for operation ${key}`);
    const { pattern, names } = compileTemplate(route.path);
    if (entries.some((entry) => entry.method === route.method && entry.pattern.source === pattern.source)) continue;
    entries.push({ method: route.method, pattern, names, plan: new RoutePlan(route, key, picked, FETCH, core) });
  }
  const notFound: NotFoundAnswer | undefined = settings.notFound
    ? compileNotFound(Object.values<Route>(table), "")
    : undefined;
  const maxParamLength = settings.maxParamLength ?? DEFAULT_MAX_PARAM_LENGTH;
  return async (native, cookie) => {
    const url = new URL(native.url);
    if (base.origin !== undefined && url.origin !== base.origin) return undefined;
    const path = url.pathname;
    if (base.path !== "" && path !== base.path && !path.startsWith(`${base.path}/`)) return undefined;
    const local = path.slice(base.path.length);
    const method = native.method.toUpperCase();
    const found = findEntry(entries, method, local);
    if (found === undefined)
      return notFound === undefined ? undefined : responseOf(notFound(method, local + url.search));
    const params = decodeParams(found.entry.names, found.values, maxParamLength);
    if (!(params instanceof Map)) return responseOf(problemOutcome(params));
    const answer = await serve(
      found.entry.plan,
      requestOf(native, url, Object.fromEntries(params), settings.log, cookie),
    );
    return method === "HEAD" ? new Response(null, { status: answer.status, headers: answer.headers }) : answer;
  };
}

function serve(plan: RoutePlan<FetchRequest, Pending>, request: FetchRequest): Promise<Response> {
  return new Promise((resolve) => plan.handle(request, { resolve }));
}

/** The route a method and path take (HEAD takes a GET route when no route is HEAD's), and the parameter values. */
function findEntry(
  entries: readonly Entry[],
  method: string,
  path: string,
): { entry: Entry; values: string[] } | undefined {
  for (const wanted of method === "HEAD" ? ["HEAD", "GET"] : [method]) {
    for (const entry of entries) {
      if (entry.method !== wanted) continue;
      const match = entry.pattern.exec(path);
      if (match !== null) return { entry, values: match.slice(1) };
    }
  }
  return undefined;
}

/** "/workers/{id}/documents" → /^\/workers\/([^/]+)\/documents$/ and the names the pipeline reads the parameters by. */
function compileTemplate(template: string): { pattern: RegExp; names: string[] } {
  const path = template.split("?")[0] ?? "";
  const names: string[] = [];
  const source = path.replace(/\{([^}]*)\}|[^{]+/g, (token: string, name: string | undefined) => {
    if (name === undefined) return token.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
    names.push(name);
    return "([^/]+)";
  });
  return { pattern: new RegExp(`^${source}$`), names: routerNames(names) };
}

/** The names `toRouterPath` gives the parameters: the spec's when simple and unique, else p0, p1, ... */
function routerNames(names: readonly string[]): string[] {
  const simple = /^[A-Za-z_][A-Za-z0-9_]*$/;
  const renamed = names.some((name, i) => !simple.test(name) || names.indexOf(name) !== i);
  return renamed
    ? names.map((name, i) => (simple.test(name) && names.indexOf(name) === i ? name : `p${i}`))
    : [...names];
}

/** The parameters decoded, or the problem of one that cannot be (400) or is too long (414). */
function decodeParams(
  names: readonly string[],
  values: readonly string[],
  maxLength: number,
): Map<string, string> | ReturnType<typeof parameterTooLong> {
  const params = new Map<string, string>();
  for (let i = 0; i < names.length; i++) {
    let value: string;
    try {
      value = decodeURIComponent(values[i] ?? "");
    } catch {
      return MALFORMED_URL;
    }
    if (value.length > maxLength) return parameterTooLong(maxLength);
    params.set(names[i] ?? "", value);
  }
  return params;
}

function requestOf(
  native: Request,
  url: URL,
  params: Readonly<Record<string, string>>,
  log: RequestLog,
  cookie: string | undefined,
): FetchRequest {
  const headers: Record<string, string> = {};
  native.headers.forEach((value, name) => {
    headers[name] = value;
  });
  if (cookie !== undefined && headers["cookie"] === undefined) headers["cookie"] = cookie;
  return {
    method: native.method.toUpperCase(),
    url: url.pathname + url.search,
    headers,
    params,
    query: queryOf(url.searchParams),
    log,
    native,
  };
}

/** The query as names and values, a repeated name as a list (as Fastify parses it). */
function queryOf(search: URLSearchParams): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = Object.create(null) as Record<string, string | string[]>;
  for (const [name, value] of search) {
    const previous = query[name];
    query[name] = previous === undefined ? value : Array.isArray(previous) ? [...previous, value] : [previous, value];
  }
  return query;
}

/** Reads the body up to `limit` bytes: a declared length over it is refused before reading. */
async function readLimited(native: Request, limit: number, done: BodyCallback): Promise<void> {
  if (Number(native.headers.get("content-length")) > limit) return done(tooLarge(limit), new Uint8Array(0));
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    const reader = native.body?.getReader();
    for (let read = await reader?.read(); read !== undefined && !read.done; read = await reader?.read()) {
      size += read.value.length;
      if (size > limit) {
        reader?.cancel().catch(() => undefined);
        return done(tooLarge(limit), new Uint8Array(0));
      }
      chunks.push(read.value);
    }
  } catch {
    return done(UNREADABLE, new Uint8Array(0));
  }
  done(undefined, concat(chunks, size));
}

/** A request's body as it arrives, chunk by chunk (the reader released when the items are left). */
async function* chunksOf(native: Request): AsyncGenerator<Uint8Array> {
  const reader = native.body?.getReader();
  if (reader === undefined) return;
  try {
    for (let read = await reader.read(); !read.done; read = await reader.read()) yield read.value;
  } finally {
    reader.releaseLock();
  }
}

function concat(chunks: readonly Uint8Array[], size: number): Uint8Array {
  if (chunks.length === 1) return chunks[0] ?? new Uint8Array(0);
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.length;
  }
  return bytes;
}

/** Hop-by-hop headers, which a Response does not carry. */
const HOP_BY_HOP = new Set(["connection", "keep-alive", "transfer-encoding"]);

/**
 * The decided answer as a Fetch Response, with the Content-Type Fastify's `send` would give it: a
 * JSON media type sent as text gets "; charset=utf-8", text without a type is text/plain, bytes
 * without one application/octet-stream.
 */
export function responseOf(outcome: Outcome): Response {
  const headers = new Headers();
  for (const [name, value] of Object.entries(outcome.headers ?? {})) {
    if (HOP_BY_HOP.has(name.toLowerCase())) continue;
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else headers.set(name, String(value));
  }
  if (outcome.contentType !== undefined) headers.set("content-type", outcome.contentType);
  const body = outcome.body === undefined || outcome.status === 204 || outcome.status === 304 ? null : outcome.body;
  if (body === null) return new Response(null, { status: outcome.status, headers });
  const bytes = body instanceof Uint8Array;
  headers.set("content-type", sentContentType(headers.get("content-type"), !bytes));
  return new Response(typeof body === "string" || bytes ? (body as BodyInit) : readableOf(body), {
    status: outcome.status,
    headers,
  });
}

/** A streamed body as a Fetch body: its text encoded (its bytes as they are) as it is read; a failure of the source errors the body. */
function readableOf(chunks: AsyncIterable<string | Uint8Array>): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const iterator = chunks[Symbol.asyncIterator]();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const next = await iterator.next();
        if (next.done === true) controller.close();
        else controller.enqueue(typeof next.value === "string" ? encoder.encode(next.value) : next.value);
      } catch (error) {
        controller.error(error);
      }
    },
    cancel: async () => {
      await iterator.return?.();
    },
  });
}

/** Text (a string or a streamed body) or bytes, with the Content-Type the answer names, if any. */
function sentContentType(type: string | null, text: boolean): string {
  if (type === null) return text ? "text/plain; charset=utf-8" : "application/octet-stream";
  if (!text || !type.split(";")[0]?.includes("json") || /;\s*charset\s*=/i.test(type)) return type;
  return `${type.replace(/;\s*$/, "")}; charset=utf-8`;
}

/** The origin (undefined: any) and the path prefix of a base URL. */
function parseBase(baseUrl: string): { origin: string | undefined; path: string } {
  if (baseUrl.startsWith("/") || baseUrl === "") return { origin: undefined, path: baseUrl.replace(/\/+$/, "") };
  const url = new URL(baseUrl);
  return { origin: url.origin, path: url.pathname.replace(/\/+$/, "") };
}
