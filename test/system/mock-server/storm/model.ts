/** The storm's cases and what it knows of each route: its paths, a valid body, the verdicts. */
import { readFileSync } from "node:fs";
import { basePath, type Route, type RouteContent, routes } from "../../../../generated/routes.js";
import { digest, type FormPart, multipart, toBytes, type WireRequest, withKey } from "./wire.js";

/** One request (or stream of bytes) of the storm, and what may come back. */
export interface StormCase {
  /** the kind of abuse, for the counts */
  readonly category: string;
  /** a short account of this case, for failure messages */
  readonly label: string;
  /** written to one connection, in order */
  readonly chunks: readonly Buffer[];
  /** a pause between chunks, in ms */
  readonly gapMs?: number;
  /** the client drops the connection after writing, without waiting for an answer */
  readonly cutOff?: boolean;
  /** the server may close without answering (bytes that never made a request) */
  readonly answerOptional?: boolean;
  /** every answer must be an error */
  readonly mustFail: boolean;
  /** the status of the first answer, where it is known */
  readonly status?: number;
  /** for a success: what the handler must have received (the ID as text, the body digest) */
  readonly received?: { readonly id?: string; readonly body?: string };
}

/** Node's limit on the request line and headers (it counts them its own way, so only well past it is sure). */
export const HEAD_LIMIT = 16_384;

/** The status a request head of `size` bytes must get: 431 well past the limit, else whatever `within` says. */
export function headVerdict(
  size: number,
  within: { mustFail: boolean; status?: number },
): { mustFail: boolean; status?: number } {
  if (size > 2 * HEAD_LIMIT) return { mustFail: true, status: 431 };
  if (size > HEAD_LIMIT / 2) return { mustFail: within.mustFail };
  return within;
}
/** The server's limits (the defaults of buildServer). */
export const BODY_LIMIT = 1_048_576;
export const PARAM_LIMIT = 1024;

/** A route of the table with the ways to reach it. */
export interface StormRoute {
  readonly key: string;
  readonly route: Route;
  readonly content: RouteContent | undefined;
  /** the request target with each path parameter replaced by `id` (sent as given) */
  target(id?: string, query?: string): string;
  /** a valid body (JSON value, or form fields with files as Buffers), if the route takes one */
  readonly example: Readonly<Record<string, unknown>> | undefined;
}

const spec = JSON.parse(readFileSync(new URL("../../../../generated/openapi.json", import.meta.url), "utf8")) as {
  paths: Record<
    string,
    Record<string, { requestBody?: { content: Record<string, { examples?: Record<string, { value: unknown }> }> } }>
  >;
};

export const stormRoutes: readonly StormRoute[] = Object.entries(routes).map(([key, value]) => {
  const route = value as Route;
  const content = route.body?.contents[0];
  const media =
    content === undefined
      ? undefined
      : spec.paths[route.path]?.[route.method.toLowerCase()]?.requestBody?.content[content.mediaType];
  const raw = Object.values(media?.examples ?? {})[0]?.value as Record<string, unknown> | undefined;
  const files = new Set(content?.binaryFields ?? []);
  const example =
    raw === undefined
      ? undefined
      : Object.fromEntries(
          Object.entries(raw).map(([name, field]) => [name, files.has(name) ? Buffer.from(String(field)) : field]),
        );
  return {
    key,
    route,
    content,
    example,
    target: (id = "1042", query = "") => `${basePath}${route.path.replace(/\{[^}]+\}/g, id)}${query}`,
  };
});

export const bodyRoutes = stormRoutes.filter((r) => r.content !== undefined && r.example !== undefined);
export const jsonRoutes = bodyRoutes.filter((r) => r.content?.kind === "json");
export const multipartRoutes = bodyRoutes.filter((r) => r.content?.kind === "multipart");
export const idRoutes = stormRoutes.filter((r) => r.route.pathParams.length > 0);

/** Whether a path parameter text is valid for a route (the generated validator's verdict). */
export function idIsValid(r: StormRoute, id: string): boolean {
  return r.route.validators.pathParams?.({ id }).valid ?? true;
}

/** Whether a body is valid for a route (the generated validator's verdict). */
export function bodyIsValid(r: StormRoute, body: unknown): boolean {
  const mediaType = r.content?.mediaType ?? "";
  return r.route.validators.body[mediaType]?.(body).valid ?? true;
}

/** A request with a JSON body text to a route (with the key). */
export function jsonRequest(r: StormRoute, text: string | Buffer, extra: Partial<WireRequest> = {}): WireRequest {
  return {
    method: r.route.method,
    target: r.target(),
    headers: withKey("application/json"),
    body: Buffer.from(text),
    ...extra,
  };
}

/** A case for a JSON value sent to a route: the validator says whether it must fail. */
export function jsonCase(
  category: string,
  label: string,
  r: StormRoute,
  value: unknown,
  extra: Partial<WireRequest> = {},
): StormCase {
  const text = JSON.stringify(value);
  const valid = bodyIsValid(r, value);
  const tooLarge = Buffer.byteLength(text) > BODY_LIMIT;
  const status = tooLarge ? 413 : valid ? undefined : 400;
  return {
    category,
    label: `${r.key}: ${label}`,
    chunks: [toBytes(jsonRequest(r, text, extra))],
    mustFail: !valid || tooLarge,
    ...(status === undefined ? { received: { ...idOf(r), body: digest(value) } } : { status }),
  };
}

/** The ID the handler receives when the route is reached by `target()`. */
function idOf(r: StormRoute): { id?: string } {
  return r.route.pathParams.length > 0 ? { id: "1042" } : {};
}

/** A multipart form of the route's fields, in order; files as file parts. */
export function formParts(_r: StormRoute, fields: Readonly<Record<string, unknown>>): FormPart[] {
  return Object.entries(fields).map(([name, value]) =>
    Buffer.isBuffer(value) ? { name, filename: "contract.pdf", bytes: value } : { name, text: String(value) },
  );
}

/**
 * A case for form fields (text, or Buffers for files) sent as multipart/form-data to a route. The
 * validator, given the fields as text (a file as its name) as the server gives them, says whether
 * it must fail and what the handler then receives: the converted fields, files with their bytes.
 */
export function formCase(
  category: string,
  label: string,
  r: StormRoute,
  fields: Readonly<Record<string, unknown>>,
): StormCase {
  const { contentType, body } = multipart(formParts(r, fields));
  const asText = Object.fromEntries(
    Object.entries(fields).map(([name, value]) => [name, Buffer.isBuffer(value) ? "contract.pdf" : String(value)]),
  );
  const result = r.route.validators.body[r.content?.mediaType ?? ""]?.(asText);
  const request: WireRequest = { method: r.route.method, target: r.target(), headers: withKey(contentType), body };
  const base = { category, label: `${r.key}: ${label}`, chunks: [toBytes(request)] };
  if (result === undefined || !result.valid) return { ...base, mustFail: true, status: 400 };
  const converted = result.value as Record<string, unknown>;
  const expected = Object.fromEntries(
    Object.entries(converted).map(([name, value]) => [
      name,
      Buffer.isBuffer(fields[name]) ? { filename: "contract.pdf", data: fields[name] } : value,
    ]),
  );
  return { ...base, mustFail: false, received: { ...idOf(r), body: digest(expected) } };
}
