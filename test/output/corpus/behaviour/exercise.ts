/**
 * One generated package's behaviour, judged by a third party: its mock server runs as a process on
 * loopback, Stoplight Prism's validation proxy (`prism proxy`) stands in front of it with the
 * document, and the generated client sends every operation through the proxy (requests built by
 * ./requests.ts), checking each answer with the generated response validators. A large document
 * gets two proxies, each taking the next operation once it is done with one: on its first call
 * of an operation Prism compiles validators (Ajv's) for its schemas, from the document
 * dereferenced whole, which costs seconds on Discord's and OpenAI's largest answers, so two
 * processes judge on two cores. Counted per document: the operations called, the answers the proxy flags (its `sl-violations` header), the
 * requests it flags, the answers the response validators refuse, and the client's other errors.
 */
import { readFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { SchemaSource } from "../../../../src/mock/schema.js";
import type { ApiModel, OperationModel } from "../../../../src/model/types.js";
import { dialectRules, openApiDialect } from "../../../../src/schema/dialect.js";
import { startMockProcess } from "../../../support/mock-process.js";
import { repoRoot } from "../../../support/paths.js";
import { freePort } from "../../../support/postgres.js";
import { startPrismProxy, stopProcess } from "../../../support/prism.js";
import { BodyAlternatives, buildCall, type CallArgs, type RequestSources, type Validator } from "./requests.js";

/** What became of one operation's call. */
export interface CallOutcome {
  readonly operation: string;
  /** the answer's status, when there was one */
  readonly status?: number;
  /** the violations the proxy reported, "request." or "response." first, each with Prism's message */
  readonly violations: readonly string[];
  /** what the client threw, by name and message */
  readonly error?: string;
  /** why no request could be built */
  readonly unbuilt?: string;
  /** the call's arguments (shortened), where something went wrong */
  readonly request?: string;
}

/** A document's figures. */
export interface BehaviourReport {
  readonly document: string;
  readonly operations: number;
  readonly called: number;
  /** answers with a response violation of error severity */
  readonly flagged: number;
  /** requests the proxy found in violation (of error severity) */
  readonly requestsFlagged: number;
  /** answers the generated response validators refused */
  readonly refused: number;
  /** other errors the client threw (a status the operation does not succeed with, a timeout, ...) */
  readonly clientErrors: number;
  /** operations without a request that their own validators accept */
  readonly unbuilt: number;
  /** until the mock server and the proxy both listened (the proxy reads the document meanwhile) */
  readonly secondsToStart: number;
  /** the whole run: both started, every call, both stopped */
  readonly seconds: number;
  readonly outcomes: readonly CallOutcome[];
  /** what the proxy printed: its start-up and its last lines */
  readonly proxyOutput: string;
}

/** How a document is run. */
export interface ExerciseOptions {
  /** operations called after all others (one that stops the proxy, say) */
  readonly last?: readonly string[];
  /** how long the mock server and the proxy each may take to start (a large document takes minutes) */
  readonly startMs?: number;
}

/** From how many operations a document gets two proxies. */
const TWO_PROXIES_FROM = 100;

/** One of Prism's violations, as its `sl-violations` header lists them. */
interface Violation {
  readonly location?: readonly string[];
  readonly severity?: string;
  readonly message?: string;
  readonly code?: string | number;
}

type ClientMethod = (args: CallArgs) => Promise<unknown>;

/**
 * Runs every operation of the package generated from `spec` into `out` (under the repository)
 * through the proxy, one after another, and counts what came of each.
 */
export async function exerciseDocument(
  document: string,
  spec: string,
  out: string,
  model: ApiModel,
  options: ExerciseOptions = {},
): Promise<BehaviourReport> {
  const started = performance.now();
  const port = await freePort();
  const entry = relative(repoRoot, join(out, "server", "main.ts"));
  const startMs = options.startMs ?? 180_000;
  const upstream = `http://127.0.0.1:${port}${model.basePath}`;
  const count = model.operations.length >= TWO_PROXIES_FROM ? 2 : 1;
  // the proxies read the document while the mock server starts
  const [mock, ...proxies] = await Promise.allSettled([
    startMockProcess({ PORT: String(port) }, entry, startMs),
    ...Array.from({ length: count }, () => startPrismProxy(spec, upstream, startMs)),
  ]);
  const running = proxies.flatMap((proxy) => (proxy.status === "fulfilled" ? [proxy.value] : []));
  try {
    if (mock.status === "rejected") throw mock.reason;
    for (const proxy of proxies) if (proxy.status === "rejected") throw proxy.reason;
    const ready = (performance.now() - started) / 1000;
    const last = new Set(options.last ?? []);
    const operations = [
      ...model.operations.filter((operation) => !last.has(operation.id)),
      ...model.operations.filter((operation) => last.has(operation.id)),
    ];
    const origins = running.map((proxy) => proxy.origin);
    const outcomes = await callEach(out, model, operations, origins);
    const seconds = { ready, total: (performance.now() - started) / 1000 };
    const proxyOutput = running.map((proxy) => proxy.output()).join("\n");
    return { ...summarise(document, model, outcomes, seconds), proxyOutput };
  } finally {
    await Promise.all(running.map((proxy) => proxy.stop()));
    if (mock.status === "fulfilled") await stopProcess(mock.value.child);
  }
}

/**
 * Calls every operation, in order, each proxy taking the next one once it is done with one; the
 * outcomes in the operations' order.
 */
async function callEach(
  out: string,
  model: ApiModel,
  operations: readonly OperationModel[],
  origins: readonly string[],
): Promise<CallOutcome[]> {
  const bundled = JSON.parse(await readFile(join(out, "openapi.json"), "utf8")) as unknown;
  const source = new SchemaSource(bundled, dialectRules(openApiDialect(model.source.openapiVersion)));
  const validators = (await import(join(out, "validators", "index.ts"))) as Record<string, Validator | undefined>;
  const { createClient } = (await import(join(out, "client", "index.ts"))) as {
    createClient(options: object): Record<string, ClientMethod | undefined>;
  };
  const outcomes: CallOutcome[] = [];
  let next = 0;
  const through = async (origin: string): Promise<void> => {
    // one client for each proxy: the violations header heard is that of the proxy's last answer
    let heard: string | null = null;
    const recording = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
      const response = await fetch(input, init);
      heard = response.headers.get("sl-violations");
      return response;
    };
    const client = createClient({
      baseUrl: origin,
      apiKey: "key",
      bearerToken: "token",
      basic: { username: "user", password: "secret" },
      validateResponses: true,
      timeoutMs: 600_000,
      fetch: recording,
    });
    const call = async (operation: OperationModel, args: CallArgs): Promise<CallOutcome> => {
      heard = null;
      const error = await client[operation.names.method]?.(args).then(
        () => undefined,
        (thrown: unknown) => thrown,
      );
      return outcomeOf(operation.id, error, heard);
    };
    for (let index = next++; index < operations.length; index = next++) {
      const operation = operations[index] as OperationModel;
      outcomes[index] = await callOne(operation, { source, validators }, (args) => call(operation, args));
    }
  };
  await Promise.all(origins.map(through));
  return outcomes;
}

/** One operation's call, and where the proxy refuses its body, calls with other bodies. */
async function callOne(
  operation: OperationModel,
  context: RequestSources,
  call: (args: CallArgs) => Promise<CallOutcome>,
): Promise<CallOutcome> {
  const built = buildCall(operation, context);
  if ("unbuilt" in built) return { operation: operation.id, violations: [], unbuilt: built.unbuilt };
  let outcome = await call(built.args);
  const alternatives = new BodyAlternatives(operation, context);
  for (let retry = 0; retry < BODY_RETRIES && bodyRefused(outcome); retry++) {
    const body = alternatives.next(bodyPlaces(outcome));
    if (body === undefined) break;
    built.args.body = body.value;
    outcome = await call(built.args);
  }
  const wrong = outcome.error !== undefined || outcome.violations.length > 0;
  return wrong ? { ...outcome, request: shorten(built.args) } : outcome;
}

/** How many other bodies are tried for an operation whose body the proxy refused. */
const BODY_RETRIES = 16;

/** Whether the proxy refused the request's body (it then answers itself, forwarding nothing). */
function bodyRefused(outcome: CallOutcome): boolean {
  return outcome.violations.some(
    (violation) => violation.startsWith("request.body") && violation.includes(" (Error): "),
  );
}

/** The instance paths of the body the proxy named: "request.body.a.0" → "/a/0". */
function bodyPlaces(outcome: CallOutcome): string[] {
  return outcome.violations
    .filter((violation) => violation.startsWith("request.body"))
    .map((violation) =>
      (violation.split(" ")[0] ?? "")
        .split(".")
        .slice(2)
        .map((segment) => `/${segment}`)
        .join(""),
    );
}

/** A call's arguments as JSON, bytes shown as such, cut at 400 characters. */
function shorten(args: CallArgs): string {
  const text = JSON.stringify(args, (_key, value: unknown) => (value instanceof Uint8Array ? "<bytes>" : value));
  return text.length > 400 ? `${text.slice(0, 400)}…` : text;
}

function outcomeOf(operation: string, error: unknown, header: string | null): CallOutcome {
  const violations = readViolations(header);
  if (error === undefined) return { operation, violations };
  const thrown = error as { name?: string; message?: string; status?: number };
  const status = typeof thrown.status === "number" ? { status: thrown.status } : {};
  return { operation, ...status, violations, error: `${thrown.name ?? "Error"}: ${thrown.message ?? String(error)}` };
}

/** Prism's violations, each as "<request|response>.<where> (<severity>): <message>". */
function readViolations(header: string | null): string[] {
  if (header === null) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(header);
  } catch {
    return [`response (Error): ${header.slice(0, 300)}`];
  }
  return (Array.isArray(parsed) ? (parsed as Violation[]) : []).map(
    (violation) =>
      `${(violation.location ?? []).join(".")} (${violation.severity ?? "?"}): ${violation.message ?? violation.code ?? ""}`,
  );
}

function isErrorAt(place: "request" | "response"): (violation: string) => boolean {
  return (violation) => violation.startsWith(place) && violation.includes(" (Error): ");
}

function summarise(
  document: string,
  model: ApiModel,
  outcomes: readonly CallOutcome[],
  seconds: { ready: number; total: number },
): Omit<BehaviourReport, "proxyOutput"> {
  const called = outcomes.filter((outcome) => outcome.unbuilt === undefined);
  return {
    document,
    operations: model.operations.length,
    called: called.length,
    flagged: called.filter((outcome) => outcome.violations.some(isErrorAt("response"))).length,
    requestsFlagged: called.filter((outcome) => outcome.violations.some(isErrorAt("request"))).length,
    refused: called.filter((outcome) => outcome.error?.startsWith("ResponseValidationError") === true).length,
    clientErrors: called.filter((o) => o.error !== undefined && !o.error.startsWith("ResponseValidationError")).length,
    unbuilt: outcomes.length - called.length,
    secondsToStart: Math.round(seconds.ready * 10) / 10,
    seconds: Math.round(seconds.total * 10) / 10,
    outcomes,
  };
}
