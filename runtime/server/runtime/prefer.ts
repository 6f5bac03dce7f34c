/**
 * Error scenarios on demand, as Prism and other mock servers take them: a request with
 * `Prefer: code=404` is answered with that status of its operation, and one with
 * `Prefer: example=name` with the response example of that name, from the spec's examples
 * (the named ones of the response's content, then its `example`, then its schema's), without
 * calling the handler, so nothing is stored. The request has been authenticated and validated
 * first, as any other. A status the operation does not declare, or an example it does not have,
 * is refused with 400 listing the ones it declares. The answer goes through the same checks as a
 * handler's (against the contract, outside production).
 */
import type { Route } from "../../route-types.js";
import type { MockAnswer } from "./answers.js";
import type { IncomingRequest } from "./exchange.js";
import { createProblem, ProblemError } from "./problems.js";

/** The API whose examples answer: its route table (by handler key) and its OpenAPI document. */
export interface PreferredApi {
  readonly routes: Readonly<Record<string, Route>>;
  readonly document: unknown;
}

/** One declared response, with the examples its content gives. */
interface DeclaredResponse {
  /** as declared: "404", "4XX" */
  readonly status: string;
  /** the content answered (JSON first), undefined for a response without content */
  readonly mediaType: string | undefined;
  /** named examples in their order; an unnamed `example` (of the content or schema) is named "" */
  readonly examples: ReadonlyMap<string, unknown>;
}

/** What a request prefers: a status, an example's name, or both. */
interface Preference {
  readonly code?: string;
  readonly example?: string;
}

/**
 * `handlers` answering the preferences of `Prefer` from the spec's examples; a request without
 * them is handled by `handlers` as before. Everything else `handlers` holds (its `authenticate`
 * hook, for one) is kept.
 */
export function answerPreferred<H extends object>(handlers: H, api: PreferredApi): H {
  const wrapped: Record<string, unknown> = Object.create(handlers) as Record<string, unknown>;
  for (const [key, route] of Object.entries(api.routes)) {
    const original = (handlers as Readonly<Record<string, unknown>>)[key];
    if (typeof original !== "function") continue;
    const responses = declaredResponses(api.document, route);
    wrapped[key] = (input: { readonly request?: IncomingRequest }) => {
      const preference = preferenceOf(input.request?.headers["prefer"]);
      if (preference === undefined) return (original as (input: unknown) => unknown).call(handlers, input);
      return preferredAnswer(route, responses, preference);
    };
  }
  return wrapped as H;
}

/** The `code` and `example` preferences of a Prefer header (several headers, commas, `;` parameters). */
function preferenceOf(header: string | readonly string[] | undefined): Preference | undefined {
  if (header === undefined) return undefined;
  const text = typeof header === "string" ? header : header.join(",");
  let code: string | undefined;
  let example: string | undefined;
  for (const part of text.split(/[,;]/)) {
    const match = /^\s*([A-Za-z-]+)\s*=\s*(?:"([^"]*)"|([^\s"]*))\s*$/.exec(part);
    if (match === null) continue;
    const name = match[1]?.toLowerCase();
    const value = match[2] ?? match[3] ?? "";
    if (name === "code") code ??= value;
    else if (name === "example") example ??= value;
  }
  if (code === undefined && example === undefined) return undefined;
  return { ...(code === undefined ? {} : { code }), ...(example === undefined ? {} : { example }) };
}

/** The answer a preference asks for, or a 400 problem saying what the operation declares. */
function preferredAnswer(route: Route, responses: readonly DeclaredResponse[], preference: Preference): MockAnswer {
  const candidates = preference.code === undefined ? responses : matching(route, responses, preference.code);
  const name = preference.example;
  const response = name === undefined ? candidates[0] : candidates.find((candidate) => candidate.examples.has(name));
  if (response === undefined)
    throw new ProblemError(createProblem("unsatisfiablePreference", refusal(route, responses, preference)));
  const status = preference.code ?? (/^\d{3}$/.test(response.status) ? response.status : "");
  if (!/^\d{3}$/.test(status))
    throw new ProblemError(createProblem("unsatisfiablePreference", refusal(route, responses, preference)));
  if (response.mediaType === undefined) return { status: Number(status) };
  const body = name === undefined ? response.examples.values().next().value : response.examples.get(name);
  if (name === undefined && response.examples.size === 0)
    throw new ProblemError(
      createProblem(
        "unsatisfiablePreference",
        `${route.operationId} declares status ${response.status}, but the spec gives no example of its body to answer with: add one to the spec, or prefer another status (${statusList(responses)}).`,
      ),
    );
  return { status: Number(status), body, headers: { "content-type": response.mediaType } };
}

/** The responses of the operation a code names: its own status, else its range ("4XX"). */
function matching(route: Route, responses: readonly DeclaredResponse[], code: string): DeclaredResponse[] {
  if (!/^[1-5]\d\d$/.test(code)) return [];
  const exact = responses.filter((response) => response.status === code);
  if (exact.length > 0 || route.responses[code] !== undefined) return exact;
  return responses.filter((response) => response.status.toUpperCase() === `${code[0]}XX`);
}

/** Why a preference cannot be met, with what the operation declares. */
function refusal(route: Route, responses: readonly DeclaredResponse[], preference: Preference): string {
  const asked = [
    preference.code === undefined ? undefined : `code=${preference.code}`,
    preference.example === undefined ? undefined : `example=${preference.example}`,
  ]
    .filter((part) => part !== undefined)
    .join(", ");
  const named = responses.flatMap((response) =>
    [...response.examples.keys()].filter((name) => name !== "").map((name) => `${name} (${response.status})`),
  );
  return `Prefer: ${asked} names no response of ${route.operationId}. It declares the statuses ${statusList(responses)}${named.length === 0 ? " and no named examples" : `, and the examples ${named.join(", ")}`}.`;
}

function statusList(responses: readonly DeclaredResponse[]): string {
  return responses.map((response) => response.status).join(", ");
}

/** The declared responses of a route, in the document's order, each with its examples. */
function declaredResponses(document: unknown, route: Route): DeclaredResponse[] {
  const item = field(field(document, "paths"), route.path);
  // an OpenAPI 3.2 additional operation is under `additionalOperations`, by its method as sent
  const operation = field(item, route.method.toLowerCase()) ?? field(field(item, "additionalOperations"), route.method);
  const responses = field(operation, "responses");
  if (!isObject(responses)) return [];
  return Object.entries(responses)
    .filter(([status]) => status !== "default")
    .map(([status, declared]) => {
      const content = field(resolve(document, declared), "content");
      const mediaTypes = isObject(content) ? Object.keys(content) : [];
      const mediaType = mediaTypes.find((type) => /[/+]json\b/i.test(type)) ?? mediaTypes[0];
      const media = mediaType === undefined ? undefined : resolve(document, field(content, mediaType));
      return { status, mediaType, examples: examplesOf(document, media) };
    });
}

/** The examples of a media type: its named `examples` (their `dataValue` or `value`), its `example`, then its schema's. */
function examplesOf(document: unknown, media: unknown): Map<string, unknown> {
  const examples = new Map<string, unknown>();
  const named = field(media, "examples");
  if (isObject(named)) {
    for (const [name, example] of Object.entries(named)) {
      const resolved = resolve(document, example);
      // OpenAPI 3.2's `dataValue` is the example as data; `value`, before it, the same
      const key = isObject(resolved) && Object.hasOwn(resolved, "dataValue") ? "dataValue" : "value";
      if (isObject(resolved) && Object.hasOwn(resolved, key)) examples.set(name, resolved[key]);
    }
  }
  const schema = resolve(document, field(media, "schema"));
  const unnamed = [field(media, "example"), field(schema, "example"), ...listOf(field(schema, "examples"))];
  const first = unnamed.find((value) => value !== undefined);
  if (first !== undefined && !examples.has("")) examples.set("", first);
  return examples;
}

function listOf(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

/** A value with its local `$ref`s followed (at most 32, against cycles). */
function resolve(document: unknown, value: unknown): unknown {
  let current = value;
  for (let hops = 0; hops < 32; hops++) {
    const ref = field(current, "$ref");
    if (typeof ref !== "string" || !ref.startsWith("#/")) return current;
    current = ref
      .slice(2)
      .split("/")
      .map((segment) => decodeURIComponent(segment).replace(/~1/g, "/").replace(/~0/g, "~"))
      .reduce<unknown>((node, segment) => field(node, segment), document);
  }
  return current;
}

function field(value: unknown, key: string): unknown {
  return isObject(value) && Object.hasOwn(value, key) ? value[key] : undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
