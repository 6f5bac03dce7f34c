/**
 * The sandbox as an HTTP server: the generated server (`buildServer`) with the sandbox's handlers
 * and key book, the API reference at /docs, and the stored files at the `file_url` a document's
 * `location` names. This is the only transport code of the sandbox. A request preferring a status
 * or an example (`Prefer: code=404`, `Prefer: example=name`) is answered from the spec's examples
 * without reaching the handlers, so it stores nothing.
 */

import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { routes } from "workforce-scheduling-api";
import {
  answerPreferred,
  buildServer,
  createProblem,
  type Handlers,
  PROBLEM_MEDIA_TYPE,
  type ProblemDetails,
  ProblemError,
  registerDocs,
} from "workforce-scheduling-api/server";
import document from "workforce-scheduling-api/spec" with { type: "json" };

// how the server listens, for createSandbox, which loads this module only when it serves HTTP
export { checkListen, listenError, reachableOrigin } from "workforce-scheduling-api/server";

import type { SandboxLogger } from "./logging.js";
import type { SeedKey } from "./seed/seed.js";
import { isBulk, type SharedSandbox } from "./service/budget.js";
import type { ServiceContext } from "./service/context.js";
import { readStoredFile } from "./service/files.js";
import type { Caller, KeyBook } from "./service/keys.js";
import { outageProblem } from "./store/outage.js";

/** What the server serves. */
export interface SandboxServerOptions {
  readonly handlers: Handlers<Caller>;
  readonly keys: KeyBook;
  /**
   * each company's share of the sandbox: its key hook (a caller's bulk request waits for its
   * company's turn before its body is read), and the end of each bulk request's turn when its answer
   * is sent or its client gone; without it, the key book's hook alone
   */
  readonly shares?: Pick<SharedSandbox, "authenticate" | "finished">;
  readonly context: ServiceContext;
  /** the path the stored files are served under ("/files") */
  readonly filePath: string;
  readonly logger: SandboxLogger;
  /** check every answer against the contract (default: when NODE_ENV is not "production") */
  readonly validateResponses?: boolean;
  /** the keys the reference at /docs lists (the demo seed's), none by default */
  readonly demoKeys?: readonly SeedKey[];
}

/** Builds the server (not yet listening). */
export async function buildSandboxServer(options: SandboxServerOptions): Promise<FastifyInstance> {
  const app = await buildServer<Caller>({
    handlers: answerPreferred(options.handlers, document),
    authenticate: options.shares?.authenticate ?? options.keys.authenticate,
    logger: options.logger,
    ...(options.validateResponses === undefined ? {} : { validateResponses: options.validateResponses }),
  });
  const finished = options.shares?.finished;
  // the response's close comes whether it was sent or its connection went first; only a request
  // its headers declare bulk work takes a turn to end (the key hook takes it on the same headers),
  // so no other waits for its close
  if (finished !== undefined)
    app.addHook("onRequest", (request, reply, done) => {
      if (isBulk(request.headers)) reply.raw.once("close", () => finished(request));
      done();
    });
  await registerDocs(app, withDemoKeys(document, options.demoKeys ?? []));
  registerFiles(app, options);
  return app;
}

/**
 * The document the reference shows: the spec, with the demo keys at the end of its description
 * when the sandbox runs on the demo seed, so that "Authorize" can be filled in from the page.
 */
function withDemoKeys(spec: typeof document, keys: readonly SeedKey[]): typeof document {
  if (keys.length === 0) return spec;
  const list = keys.map(
    ({ key, company, companyId, holder, personnelId }) =>
      `- \`${key}\`: ${company} (company ${companyId}), calling as ${holder} (person ${personnelId})`,
  );
  const note = ["**This sandbox runs on the demo seed.** Authorize with one of its keys:", "", ...list].join("\n");
  const description = spec.info.description === undefined ? note : `${spec.info.description}\n\n${note}`;
  return { ...spec, info: { ...spec.info, description } };
}

const MISSING_KEY = createProblem("missingKey", "The X-API-KEY header is required.");
const INVALID_KEY = createProblem("invalidKey", "The API key is not valid.");
const NOT_FOUND = createProblem("notFound", "No resource matches this path.");
/** The scheme of the API's key, which the files' URLs take too. */
const KEY_SCHEME = routes.listEvents.security[0]?.[0] ?? {
  scheme: "ApiKeyAuth",
  type: "apiKey",
  in: "header",
  name: "X-API-KEY",
};

/**
 * `GET <filePath>/<n>/<file name>`: a stored file's bytes, with its media type, to a key of the
 * file's company; any other key gets 404, as an unknown file does. The bytes are sent as they
 * were uploaded; the headers keep a browser from running them as a page of this origin.
 */
function registerFiles(app: FastifyInstance, options: SandboxServerOptions): void {
  const prefix = options.filePath.replace(/\/+$/, "");
  app.get<{ Params: FileParams }>(`${prefix}/:fileId/:fileName`, async (request, reply) => {
    try {
      return await serveFile(options, request, reply);
    } catch (error) {
      const answer = outageProblem(error);
      if (!(answer instanceof ProblemError)) throw error;
      return problem(reply.headers(answer.headers), answer.problem);
    }
  });
}

interface FileParams {
  readonly fileId: string;
  readonly fileName: string;
}

async function serveFile(
  options: SandboxServerOptions,
  request: FastifyRequest<{ Params: FileParams }>,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const key = request.headers["x-api-key"];
  if (typeof key !== "string" || key === "") return problem(reply, MISSING_KEY);
  const caller = await options.keys.authenticate(key, request, KEY_SCHEME);
  if (typeof caller !== "object") return problem(reply, INVALID_KEY);
  const file = await readStoredFile(options.context, caller, request.params.fileId, request.params.fileName);
  if (file === undefined) return problem(reply, NOT_FOUND);
  return reply
    .header("content-type", /^[\x20-\x7e]+$/.test(file.mediaType) ? file.mediaType : "application/octet-stream")
    .header("x-content-type-options", "nosniff")
    .header("content-security-policy", "default-src 'none'; sandbox")
    .header("cache-control", "private, no-store")
    .send(file.bytes);
}

function problem(reply: FastifyReply, details: ProblemDetails): FastifyReply {
  return reply.code(details.status).header("content-type", PROBLEM_MEDIA_TYPE).send(JSON.stringify(details));
}
