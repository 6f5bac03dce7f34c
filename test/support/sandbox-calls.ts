/**
 * Calling a sandbox over loopback HTTP, the way a client does, with every answer checked against
 * the contract: its status must be one the operation declares, and its body valid against that
 * status's schema (the generated validators), errors included.
 */
import { expect } from "vitest";
import { type OperationId, type Route, routes } from "../../generated/routes.js";

/** The demo seed's keys: Dana Ortiz (person 7) of Harbor Events (5), Alex Kim (person 3) of Summit Staffing (6). */
export const HARBOR = "demo-key-harbor";
export const SUMMIT = "demo-key-summit";

/** A fixed clock for the sandboxes under test, so dates in answers are known. */
export const NOW = new Date("2026-11-25T10:00:00Z");

/** An answer: status, headers and body (parsed when JSON). */
export interface Answer {
  readonly status: number;
  readonly headers: Headers;
  readonly body: unknown;
}

/** What a call carries. */
export interface CallOptions {
  /** the X-API-KEY (default: Harbor's); null sends none */
  readonly key?: string | null;
  /** path parameters */
  readonly path?: Readonly<Record<string, string | number>>;
  /** a JSON body */
  readonly json?: unknown;
  /** a form (multipart) */
  readonly form?: FormData;
  /** further request headers */
  readonly headers?: Readonly<Record<string, string>>;
}

/** Calls an operation of the sandbox at `url` and checks the answer against the contract. */
export async function call(url: string, operation: OperationId, options: CallOptions = {}): Promise<Answer> {
  const route: Route = routes[operation];
  const path = route.path.replace(/\{(\w+)\}/g, (_match, name: string) =>
    encodeURIComponent(String(options.path?.[name] ?? "")),
  );
  const headers: Record<string, string> = { ...options.headers };
  const key = options.key === undefined ? HARBOR : options.key;
  if (key !== null) headers["x-api-key"] = key;
  let body: string | FormData | undefined;
  if (options.json !== undefined) {
    headers["content-type"] = "application/json";
    body = JSON.stringify(options.json);
  } else if (options.form !== undefined) body = options.form;
  const response = await fetch(`${url}${path}`, {
    method: route.method,
    headers,
    ...(body === undefined ? {} : { body }),
  });
  const text = await response.text();
  const parsed: unknown = text === "" ? undefined : JSON.parse(text);
  const status = String(response.status);
  expect(
    Object.keys(route.responses),
    `${operation} answered ${status}, which it does not declare: ${text.slice(0, 300)}`,
  ).toContain(status);
  const validate = route.validators.responses[status];
  if (validate !== undefined) {
    const verdict = validate(parsed, { allErrors: true });
    expect(
      verdict.errors ?? [],
      `${operation} ${status} is not valid against the contract: ${text.slice(0, 300)}`,
    ).toEqual([]);
  }
  return { status: response.status, headers: response.headers, body: parsed };
}

/** Fetches a stored file's URL with a key: status, media type and bytes. */
export async function download(
  location: string,
  key: string | null = HARBOR,
): Promise<{ status: number; type: string | null; bytes: Buffer }> {
  const response = await fetch(location, { headers: key === null ? {} : { "x-api-key": key } });
  return {
    status: response.status,
    type: response.headers.get("content-type"),
    bytes: Buffer.from(await response.arrayBuffer()),
  };
}

/** The 404 every unknown or foreign ID gets. */
export const NOT_FOUND = {
  type: "urn:problem-type:not-found",
  title: "Not Found",
  status: 404,
  detail: "No resource matches this path.",
};
