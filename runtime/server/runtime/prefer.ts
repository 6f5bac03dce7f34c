/**
 * Error scenarios and data on demand, as Prism and other mock servers take them: a request with
 * `Prefer: code=404` is answered with that status of its operation, one with `Prefer: example=name`
 * with the response example of that name, from the spec's examples (the named ones of the
 * response's content, then its `example`, then its schema's), and one with `Prefer: dynamic=true`
 * with a body built from the response's schema (./dynamic.ts), valid against it, the same for the
 * same request (`seed=N` draws another), all without calling the handler, so nothing is stored.
 * The preferences honoured are named in `Preference-Applied` (RFC 7240); any other is ignored, as
 * the RFC says, and the request's log line lists it. The request has been authenticated and
 * validated first, as any other. A status the operation does not declare, or an example it does
 * not have, is refused with 400 listing the ones it declares. The answer goes through the same
 * checks as a handler's (against the contract, outside production). A response that is a sequence
 * of items (an OpenAPI 3.2 `itemSchema`) is answered with an example's items (its `dataValue`, or
 * its text on the wire cut into items), or items built from the item schema, which are streamed.
 */
import type { Route, RouteContent, RouteValidators, SequenceKind } from "../../route-types.js";
import { itemsOfText } from "../../sequences.js";
import type { MockAnswer } from "./answers.js";
import { dynamicValue, isObject, listOf, type Random, resolvePointer, seededRandom } from "./dynamic.js";
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
  /** the content's schema, as the document writes it */
  readonly schema: unknown;
  /** a sequence of items (an `itemSchema`): how they are framed; its examples are lists of items */
  readonly sequence?: SequenceKind;
}

/** What a request prefers: a status, an example's name, data built from the schema, a seed. */
interface Preference {
  readonly code?: string;
  readonly example?: string;
  readonly dynamic?: boolean;
  readonly seed?: string;
}

/** The header that names the preferences honoured. */
export const PREFERENCE_APPLIED = "preference-applied";

/**
 * `handlers` answering the preferences of `Prefer` from the spec's examples and schemas; a request
 * without them is handled by `handlers` as before. Everything else `handlers` holds (its
 * `authenticate` hook, for one) is kept.
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
      const place = input.request === undefined ? "" : `${input.request.method} ${input.request.url}`;
      return preferredAnswer(route, responses, preference, { document: api.document, place });
    };
  }
  return wrapped as H;
}

/** The preferences of a Prefer header, by name, each `name=value` once (several headers, commas, `;` parameters). */
export function preferencesOf(header: string | readonly string[] | undefined): Map<string, string> {
  const found = new Map<string, string>();
  if (header === undefined) return found;
  const text = typeof header === "string" ? header : header.join(",");
  for (const part of text.split(/[,;]/)) {
    const match = /^\s*([!#$%&'*+.^_`|~\w-]+)\s*(?:=\s*(?:"([^"]*)"|([^\s"]*)))?\s*$/.exec(part);
    const name = match?.[1]?.toLowerCase();
    if (name !== undefined && !found.has(name)) found.set(name, match?.[2] ?? match?.[3] ?? "");
  }
  return found;
}

/** The preferences this module answers (`dynamic` only as true or false), or undefined for none that changes the answer. */
function preferenceOf(header: string | readonly string[] | undefined): Preference | undefined {
  const found = preferencesOf(header);
  const code = found.get("code");
  const example = found.get("example");
  const dynamic = found.get("dynamic")?.toLowerCase() === "true";
  if (code === undefined && example === undefined && !dynamic) return undefined;
  const seed = found.get("seed");
  return {
    ...(code === undefined ? {} : { code }),
    ...(example === undefined ? {} : { example }),
    ...(dynamic ? { dynamic } : {}),
    ...(seed === undefined || !dynamic ? {} : { seed }),
  };
}

/** The preferences of a Prefer header that are not among those `applied` names: ignored, for the log line. */
export function ignoredPreferences(
  header: string | readonly string[] | undefined,
  applied: string | readonly string[] | number | undefined,
): string[] {
  const honoured = preferencesOf(typeof applied === "number" ? String(applied) : applied);
  return [...preferencesOf(header)]
    .filter(([name]) => !honoured.has(name))
    .map(([name, value]) => (value === "" ? name : `${name}=${value}`));
}

/** Where a dynamic answer is built: the document its schemas are in, the request it answers ("GET /venues"). */
interface DynamicPlace {
  readonly document: unknown;
  readonly place: string;
}

/** The answer a preference asks for, or a 400 problem saying what the operation declares. */
function preferredAnswer(
  route: Route,
  responses: readonly DeclaredResponse[],
  preference: Preference,
  at: DynamicPlace,
): MockAnswer {
  const candidates = preference.code === undefined ? responses : matching(route, responses, preference.code);
  const name = preference.example;
  const response = name === undefined ? candidates[0] : candidates.find((candidate) => candidate.examples.has(name));
  if (response === undefined)
    throw new ProblemError(createProblem("unsatisfiablePreference", refusal(route, responses, preference)));
  const status = preference.code ?? (/^\d{3}$/.test(response.status) ? response.status : "");
  if (!/^\d{3}$/.test(status))
    throw new ProblemError(createProblem("unsatisfiablePreference", refusal(route, responses, preference)));
  const applied = [
    ...(preference.code === undefined ? [] : [`code=${preference.code}`]),
    ...(name === undefined ? [] : [`example=${quoted(name)}`]),
  ];
  const headers = (mediaType?: string) => ({
    ...(mediaType === undefined ? {} : { "content-type": mediaType }),
    ...(applied.length === 0 ? {} : { [PREFERENCE_APPLIED]: applied.join(", ") }),
  });
  if (response.mediaType === undefined) return { status: Number(status), headers: headers() };
  if (name === undefined && preference.dynamic === true) {
    const built = dynamicBody(route, response, preference.seed ?? "", at);
    if (built !== undefined) {
      applied.push("dynamic=true", ...(preference.seed === undefined ? [] : [`seed=${quoted(preference.seed)}`]));
      return { status: Number(status), body: built.value, headers: headers(response.mediaType) };
    }
  }
  const body = name === undefined ? response.examples.values().next().value : response.examples.get(name);
  if (name === undefined && response.examples.size === 0)
    throw new ProblemError(
      createProblem(
        "unsatisfiablePreference",
        `${route.operationId} declares status ${response.status}, but the spec gives no example of its body to answer with: add one to the spec, prefer another status (${statusList(responses)}), or Prefer: dynamic=true.`,
      ),
    );
  return { status: Number(status), body, headers: headers(response.mediaType) };
}

/** How many seeds a dynamic answer tries before it answers the example instead. */
const DYNAMIC_TRIES = 20;

/**
 * A body built from the response's schema that its generated validator accepts (a JSON response
 * without one is taken as built), drawn from `seed` and the request: the same request and seed
 * build the same body. Undefined when none of DYNAMIC_TRIES draws is valid.
 */
function dynamicBody(
  route: Route,
  response: DeclaredResponse,
  seed: string,
  at: DynamicPlace,
): { readonly value: unknown } | undefined {
  if (response.sequence !== undefined) return dynamicItems(route, response, seed, at);
  const validators = route.validators.responses;
  const validate = Object.hasOwn(validators, response.status) ? validators[response.status] : undefined;
  const draw = (random: Random): unknown => dynamicValue(at.document, response.schema, random);
  return drawValid(`${seed}|${at.place}|${response.status}`, draw, (value) => validate?.(value).valid ?? true);
}

/** The first value of DYNAMIC_TRIES draws (each seeded by `key` and its attempt) that `valid` accepts. */
function drawValid(
  key: string,
  draw: (random: Random) => unknown,
  valid: (value: unknown) => boolean,
): { readonly value: unknown } | undefined {
  for (let attempt = 0; attempt < DYNAMIC_TRIES; attempt++) {
    const value = draw(seededRandom(`${key}|${attempt}`));
    if (value !== undefined && valid(value)) return { value };
  }
  return undefined;
}

/** How many items a dynamic answer that is a sequence streams. */
const DYNAMIC_ITEMS = 3;

/**
 * Items built from the item schema, each valid against the item validator (and the list against
 * the whole's, if any); a server-sent event's JSON `data` built from its `contentSchema` (and
 * checked by its validator), sent as JSON.
 */
function dynamicItems(
  route: Route,
  response: DeclaredResponse,
  seed: string,
  at: DynamicPlace,
): { readonly value: unknown } | undefined {
  const pick = (byStatus: RouteValidators["items"]) => byStatus?.[response.status]?.[response.mediaType ?? ""];
  const item = pick(route.validators.items);
  const data = pick(route.validators.itemData);
  const dataSchema =
    data === undefined
      ? undefined
      : field(resolve(at.document, field(resolve(at.document, response.schema), "properties")), "data");
  const contentSchema = field(resolve(at.document, dataSchema), "contentSchema");
  const draw = (random: Random): unknown => {
    const value = dynamicValue(at.document, response.schema, random);
    return contentSchema === undefined || !isObject(value)
      ? value
      : { ...value, data: dynamicValue(at.document, contentSchema, random) };
  };
  const valid = (value: unknown): boolean => {
    if (contentSchema === undefined || !isObject(value)) return item?.(value).valid ?? true;
    const decoded = value["data"];
    return (data?.(decoded).valid ?? true) && (item?.({ ...value, data: JSON.stringify(decoded) }).valid ?? true);
  };
  const items: unknown[] = [];
  for (let index = 0; index < DYNAMIC_ITEMS; index++) {
    const built = drawValid(`${seed}|${at.place}|${response.status}|${index}`, draw, valid);
    if (built === undefined) return undefined;
    items.push(built.value);
  }
  // a `schema` beside the `itemSchema` judges them as a whole
  return pick(route.validators.sequences)?.(items).valid === false ? undefined : { value: items };
}

/** A preference's value as Preference-Applied writes it: quoted when it is not a token. */
function quoted(value: string): string {
  return /^[!#$%&'*+.^_`|~\w-]+$/.test(value) ? value : `"${value}"`;
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
      // a sequence of items is answered as the mock answers it: the route's JSON content, else its first
      const sequence = sequenceAnswered(route.responses[status]);
      const mediaType = sequence?.mediaType ?? mediaTypes.find((type) => /[/+]json\b/i.test(type)) ?? mediaTypes[0];
      const media = mediaType === undefined ? undefined : resolve(document, field(content, mediaType));
      if (sequence?.sequence !== undefined)
        return {
          status,
          mediaType,
          examples: itemExamples(document, media, sequence.sequence),
          schema: field(media, "itemSchema"),
          sequence: sequence.sequence,
        };
      return { status, mediaType, examples: examplesOf(document, media), schema: field(media, "schema") };
    });
}

/** The content a status is answered with when it is a sequence of items (the JSON one, else the first). */
function sequenceAnswered(contents: readonly RouteContent[] | undefined): RouteContent | undefined {
  const answered = contents?.find((content) => content.kind === "json") ?? contents?.[0];
  return answered?.sequence === undefined ? undefined : answered;
}

/**
 * The examples of a sequence, each the list of its items: a `dataValue` (or `value`) that lists
 * them, or the text on the wire (`serializedValue`, or a `value` that is a string) cut into items;
 * then the media type's `example`. One whose text does not parse is left out.
 */
function itemExamples(document: unknown, media: unknown, sequence: SequenceKind): Map<string, unknown> {
  const examples = new Map<string, unknown>();
  const named = field(media, "examples");
  const add = (name: string, value: unknown): void => {
    if (Array.isArray(value)) examples.set(name, value);
    else if (typeof value === "string")
      try {
        examples.set(name, itemsOfText(value, sequence));
      } catch {
        // not a text of this sequence: no example to answer
      }
  };
  if (isObject(named))
    for (const [name, example] of Object.entries(named)) {
      const resolved = resolve(document, example);
      const key = ["dataValue", "value", "serializedValue"].find(
        (candidate) => field(resolved, candidate) !== undefined,
      );
      if (key !== undefined) add(name, field(resolved, key));
    }
  if (field(media, "example") !== undefined && !examples.has("")) add("", field(media, "example"));
  return examples;
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

/** A value with its local `$ref`s followed (at most 32, against cycles). */
function resolve(document: unknown, value: unknown): unknown {
  let current = value;
  for (let hops = 0; hops < 32; hops++) {
    const ref = field(current, "$ref");
    if (typeof ref !== "string" || !ref.startsWith("#/")) return current;
    current = resolvePointer(document, ref);
  }
  return current;
}

function field(value: unknown, key: string): unknown {
  return isObject(value) && Object.hasOwn(value, key) ? value[key] : undefined;
}
