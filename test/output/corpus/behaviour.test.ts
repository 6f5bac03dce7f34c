/**
 * What the generator makes of real documents behaves, as a third party judges it: for each
 * document, its generated mock server runs over loopback behind Stoplight Prism's validation proxy
 * (`prism proxy`), and the generated client calls every operation through the proxy, with requests
 * built from the document's examples or sample values, checking each answer with the generated
 * response validators (./behaviour/exercise.ts). Every answer must pass the proxy and the
 * validators, except where Prism cannot judge: PRISM_EXCEPTIONS says why, with Prism's message.
 *
 * `npm test` runs SELECTED, a few documents side by side; `npm run test:corpus`
 * (CORPUS_BEHAVIOUR=all) runs every corpus document that generates and every generality fixture
 * that does; CORPUS_BEHAVIOUR=all-but-stripe (what CI runs) all of them but Stripe's (NOT_IN_CI:
 * Prism does not start on it, and the test waits 5 minutes to see that);
 * CORPUS_BEHAVIOUR=discord.json,museum.yaml runs those named (file names). Skipped, saying so,
 * where the corpus is absent.
 */
import { readdirSync, readFileSync } from "node:fs";
import { mkdir, rm } from "node:fs/promises";
import { basename, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { GenerationFailed, generate } from "../../../src/index.js";
import { isRecord } from "../../../src/json-value.js";
import { corpusAbsentMessage, corpusAvailable, corpusDir, repoRoot } from "../../support/paths.js";
import { PrismStartFailed } from "../../support/prism.js";
import { type BehaviourReport, type CallOutcome, exerciseDocument } from "./behaviour/exercise.js";

const SETTING = process.env.CORPUS_BEHAVIOUR ?? "";
const BUT_STRIPE = SETTING === "all-but-stripe";
const FULL = SETTING === "all" || BUT_STRIPE;
/** The documents CORPUS_BEHAVIOUR names, when it names some rather than a selection. */
const NAMED = FULL || SETTING === "" ? undefined : SETTING.split(",").map((name) => name.trim());
/** Whether the run is a long one (every document, or those named): long bounds then. */
const LONG = FULL || NAMED !== undefined;

/**
 * The documents `npm test` runs: OpenAPI 3.0 with forms, XML and API keys (Swagger's Petstore),
 * 3.1 with webhooks and problem answers (Train Travel), a Prism exception (Tic Tac Toe), and a
 * split document whose discriminator maps to other files.
 */
const SELECTED = [
  "petstore3.yaml",
  "train-travel.yaml",
  "oai-3.1-tictactoe.yaml",
  "11-discriminator-mapping-relative.yaml",
];

/** What CORPUS_BEHAVIOUR=all-but-stripe leaves out: Stripe's, which Prism does not read (PRISM_EXCEPTIONS). */
const NOT_IN_CI: readonly string[] = ["stripe.yaml"];

/** Documents refused on purpose (test/output/corpus/corpus-suite.ts says why). */
const REFUSED = new Set(["lob.yaml"]);

/**
 * Where Prism cannot judge what the generated code does, and what it says then: it does not read
 * the document (`unread`: it does not start), it flags an answer it should not (`flagged`: the
 * call's violations), or it stops on a request (`crashes`: that call goes last, and the proxy's
 * output says why it stopped).
 */
interface PrismException {
  readonly kind: "unread" | "flagged" | "crashes";
  readonly document: string;
  /** the operation, for `flagged` and `crashes` */
  readonly operation?: string;
  readonly why: string;
  /** what the proxy says (or, where it says nothing, how the start failed) */
  readonly message: RegExp;
  /** for `unread`: how long the proxy is given to start, where it does not within any bound */
  readonly startMs?: number;
}

/** Prism's $ref resolver (json-schema-ref-parser) reads a JSON pointer against the file's root. */
const ROOT_POINTERS =
  "Prism's $ref resolver (@stoplight/json-schema-ref-parser) reads every $ref as a JSON pointer from the " +
  "file's root, where JSON Schema 2020-12 reads it against the schema's own $id";

const PRISM_EXCEPTIONS: readonly PrismException[] = [
  {
    kind: "flagged",
    document: "oai-3.1-tictactoe.yaml",
    operation: "put-square",
    why:
      'the body is a JSON string (a mark, `"."`), and Prism forwards a parsed body that is a string as it is ' +
      "(prism-http's serializeBody), without its quotes: the server receives `.`, which is not JSON, and " +
      "refuses it with a problem answer, where the document declares its 400 as text/html",
    message: /The received media type "application\/problem\+json; charset=utf-8" does not match .*: text\/html/,
  },
  {
    kind: "flagged",
    document: "oai-3.1-non-oauth-scopes.yaml",
    operation: "getUsers",
    why:
      "the operation declares no response (OpenAPI 3.1 allows it): the mock answers 204 and the client reads it " +
      "unchecked, but Prism flags any status as undeclared",
    message: /Unable to match the returned status code with those defined in the document/,
  },
  ...["updateRegistrationFlow", "updateSettingsFlow"].map((operation) => ({
    kind: "flagged" as const,
    document: "kratos.json",
    operation,
    why:
      "the body's oneOf branches overlap (several require only `method` and `traits`, `method` any string), so " +
      "no body matches exactly one of them as plain JSON Schema reads oneOf, Prism's way; the document's " +
      "discriminator (`method`) picks the branch, as OpenAPI means it and the generated validators read it",
    message: /Request body must match exactly one schema in oneOf/,
  })),
  {
    kind: "crashes",
    document: "10-styles-and-cookies.yaml",
    operation: "getLabel",
    why:
      "Prism's proxy stops on a label-style path parameter: prism-http's deserializeLabelStyle throws a " +
      "TypeError, which ends the process",
    message: /TypeError: parameters\[name\]\.startsWith is not a function/,
  },
  {
    kind: "unread",
    document: "04-external-anchor.yaml",
    why: `a $ref to an $anchor in another file (\`defs.yaml#kind\`): ${ROOT_POINTERS}, and refuses a plain name`,
    message: /Invalid \$ref pointer "kind"\. Pointers must begin with "#\/"/,
  },
  {
    kind: "unread",
    document: "08-defs-as-property.yaml",
    why: `a $ref to "#/$defs/Payload" inside a schema with an $id: ${ROOT_POINTERS}`,
    message: /token "\$defs" in "#\/\$defs\/Payload" does not exist/,
  },
  {
    kind: "unread",
    document: "stripe.yaml",
    why:
      "Prism reads a document by dereferencing it whole with @stoplight/json-schema-ref-parser, whose crawl " +
      "walks a schema again each time it is reached again (stopping only at cycles), and then copies the result " +
      "as a tree, breaking only cycles (@stoplight/json's decycle); Stripe's schemas refer to one another densely " +
      "(expandable fields, each an anyOf of an id and the object). On the shared 2-core machine it had not " +
      'started after 30 minutes (302 s of CPU, 248 MB), printing only "Starting Prism…", and profiled, its ' +
      "time goes to that crawl; no option of `prism proxy` changes how it reads",
    message: /prism proxy did not start within 300 s/,
    startMs: 300_000,
  },
];

/** How long the mock server and the proxy may take to start: Prism reads OpenAI's 3 MB for minutes on a loaded machine. */
const START_MS = LONG ? 900_000 : 180_000;

/** How many documents run at once: each is a mock server, a proxy and a client. */
const AT_ONCE = LONG ? 2 : 3;

interface Candidate {
  readonly name: string;
  readonly spec: string;
}

/**
 * The documents to run: those of the selection (or all), less the refused ones and those without
 * paths (components or webhooks only: nothing to call, and Prism refuses them, "No operations
 * found in the current file").
 */
function candidates(): Candidate[] {
  const openapi = join(corpusDir, "openapi");
  const fixtures = join(repoRoot, "test", "fixtures", "generality");
  const all = [
    ...listDocuments(openapi).map((name) => ({ name, spec: join(openapi, name) })),
    ...listDocuments(fixtures).map((name) => ({ name, spec: join(fixtures, name) })),
  ];
  const unknown = (NAMED ?? []).filter((named) => !all.some(({ name }) => name === named));
  if (unknown.length > 0)
    throw new Error(
      `CORPUS_BEHAVIOUR names ${unknown.join(", ")}, not a document of ${openapi} or ${fixtures}: name file names there, comma-separated, or "all"`,
    );
  const selected = (name: string): boolean =>
    FULL ? !(BUT_STRIPE && NOT_IN_CI.includes(name)) : (NAMED ?? SELECTED).includes(name);
  return all.filter(({ name, spec }) => !REFUSED.has(name) && selected(name) && hasPaths(spec));
}

function hasPaths(spec: string): boolean {
  const document: unknown = parse(readFileSync(spec, "utf8"));
  const paths = isRecord(document) ? document["paths"] : undefined;
  return isRecord(paths) && Object.keys(paths).length > 0;
}

function listDocuments(folder: string): string[] {
  return readdirSync(folder)
    .filter((file) => /\.(ya?ml|json)$/.test(file))
    .sort();
}

/** A queue that lets `limit` tasks run at a time. */
function limiter(limit: number): <T>(task: () => Promise<T>) => Promise<T> {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async (task) => {
    if (running >= limit) await new Promise<void>((resolve) => waiting.push(resolve));
    running++;
    try {
      return await task();
    } finally {
      running--;
      waiting.shift()?.();
    }
  };
}

/** The exception that excuses this outcome of a run, if one does. */
function excuse(document: string, outcome: CallOutcome, proxyOutput: string): PrismException | undefined {
  return PRISM_EXCEPTIONS.find(
    (exception) =>
      exception.document === document &&
      exception.operation === outcome.operation &&
      (exception.kind === "crashes"
        ? outcome.error?.startsWith("ApiNetworkError") === true && exception.message.test(proxyOutput)
        : outcome.violations.some((violation) => exception.message.test(violation))),
  );
}

/** What went wrong in one call, or undefined when nothing did. */
function fault(outcome: CallOutcome): string | undefined {
  if (outcome.unbuilt !== undefined) return `${outcome.operation}: no request: ${outcome.unbuilt}`;
  if (outcome.error === undefined && outcome.violations.length === 0) return undefined;
  return JSON.stringify(outcome);
}

/** One row of the figures table. */
function row(report: BehaviourReport, excused: number): string {
  const { document, operations, called, flagged, requestsFlagged, refused, clientErrors, seconds } = report;
  return `| ${document} | ${operations} | ${called} | ${flagged} | ${requestsFlagged} | ${refused} | ${clientErrors} | ${excused} | ${seconds} |`;
}

if (!corpusAvailable("the corpus's behaviour through Prism's proxy")) {
  describe("the corpus's behaviour through Prism's proxy", () => {
    it.skip(`is absent: ${corpusAbsentMessage}`, () => undefined);
  });
} else {
  const documents = candidates();
  // inside the repository, so the generated server resolves fastify from node_modules
  const root = join(repoRoot, ".tmp", `behaviour-${process.pid}`);
  const slot = limiter(AT_ONCE);
  const rows: string[] = [];
  const started = performance.now();

  const selection = BUT_STRIPE
    ? "every document but Stripe's"
    : FULL
      ? "every document"
      : NAMED === undefined
        ? "a selection"
        : NAMED.join(", ");
  describe(`the corpus's behaviour through Prism's proxy (${selection})`, () => {
    beforeAll(() => mkdir(root, { recursive: true }));
    afterAll(async () => {
      await rm(root, { recursive: true, force: true });
      const header =
        "| document | operations | called | flagged | requests flagged | refused | client errors | excused | s |";
      const seconds = Math.round((performance.now() - started) / 100) / 10;
      console.info([header, ...rows.sort(), `${documents.length} documents in ${seconds} s`].join("\n"));
    });

    it("has every document of its selection, and of the exceptions when it runs all", () => {
      const names = documents.map(({ name }) => name);
      for (const name of NAMED ?? SELECTED) if (!REFUSED.has(name)) expect(names).toContain(name);
      if (FULL)
        for (const exception of PRISM_EXCEPTIONS)
          if (!(BUT_STRIPE && NOT_IN_CI.includes(exception.document))) expect(names).toContain(exception.document);
    });

    it.concurrent.each(documents.map((document) => [document.name, document] as const))(
      "%s: every answer passes Prism's proxy and the response validators",
      { timeout: LONG ? 3_600_000 : 600_000 },
      (_name, document) => slot(() => checkDocument(document, root, rows)),
    );
  });
}

async function checkDocument(document: Candidate, root: string, rows: string[]): Promise<void> {
  const out = join(root, basename(document.name).replace(/\.\w+$/, ""));
  let result: Awaited<ReturnType<typeof generate>>;
  try {
    result = await generate({ spec: document.spec, out });
  } catch (error) {
    // a generality fixture that shows a refusal: refused with an error, and nothing to run
    if (!(error instanceof GenerationFailed) || document.spec.startsWith(corpusDir)) throw error;
    expect(error.diagnostics.some((diagnostic) => diagnostic.severity === "error")).toBe(true);
    return;
  }
  const exceptions = PRISM_EXCEPTIONS.filter((exception) => exception.document === document.name);
  const unread = exceptions.find((exception) => exception.kind === "unread");
  if (unread !== undefined) {
    const startMs = unread.startMs ?? START_MS;
    const failed: unknown = await exerciseDocument(document.name, document.spec, out, result.model, { startMs }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failed).toBeInstanceOf(PrismStartFailed);
    const { message, output } = failed as PrismStartFailed;
    expect(`${message}\n${output}`).toMatch(unread.message);
    rows.push(`| ${document.name} | ${result.model.operations.length} | – | Prism does not start: ${unread.why} |`);
    return;
  }
  const last = exceptions.flatMap((exception) => (exception.kind === "crashes" ? (exception.operation ?? []) : []));
  const report = await exerciseDocument(document.name, document.spec, out, result.model, { last, startMs: START_MS });
  const excuses = report.outcomes.map((outcome) => excuse(document.name, outcome, report.proxyOutput));
  const excused = report.outcomes.filter((_outcome, index) => excuses[index] !== undefined);
  rows.push(row(report, excused.length));
  const faults = report.outcomes
    .filter((outcome) => !excused.includes(outcome))
    .flatMap((outcome) => fault(outcome) ?? []);
  expect(faults).toEqual([]);
  expect(report.called).toBe(report.operations);
  // an exception no longer met is taken out of the list
  expect(exceptions.filter((exception) => !excuses.includes(exception))).toEqual([]);
}
