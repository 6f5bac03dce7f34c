import type { ApiModel } from "../../model/types.js";
import type { EmitInput, GeneratedFile } from "../emitter.js";
import { buildHandlerView } from "./handler-view.js";
import { buildMockAnswers } from "./mock-answers.js";

/**
 * The generic engine of the server: the same for every spec (it reads the route table), so these
 * templates take no view. `multipart` is only written for specs with a multipart/form-data body,
 * so only they need @fastify/multipart.
 */
const RUNTIME_FILES = ["content", "docs", "errors", "form", "logging", "answers", "not-found", "parameters", "pipeline", "problems", "refusals", "request", "responses", "security", "types"] as const;

/**
 * generated/server/: a Fastify 5 plugin serving every operation of the route table through the
 * request pipeline (security, content type, validation by the generated validators, response
 * checks), the typed `Handlers` interface, stub and mock handlers, `buildServer` and the mock
 * server's entry point.
 */
export function emitServer({ model, document, config }: EmitInput): GeneratedFile[] {
  const render = (name: string, view: object): GeneratedFile => ({ path: `server/${name}.ts`, content: config.templates.render(`server/${name}.ts`, view) });
  const title = `${model.source.title} (version ${model.source.version})`;
  const operations = model.operations.map(buildHandlerView);
  const plugin = buildPluginView(model);
  const runtime = plugin.multipart ? [...RUNTIME_FILES, "multipart"] : RUNTIME_FILES;
  return [
    render("handlers", { fileDoc: wrap(docs.handlers(title)), operations }),
    render("plugin", { fileDoc: wrap(docs.plugin(title)), ...plugin }),
    render("stubs", { fileDoc: wrap(docs.stubs(title)), operations }),
    render("mock", { fileDoc: wrap(docs.mock(title)), answers: buildMockAnswers(model, document) }),
    render("app", { fileDoc: wrap(docs.app(title)) }),
    render("main", { fileDoc: wrap(docs.main(title)) }),
    render("index", { fileDoc: wrap(docs.index(title)) }),
    ...runtime.map((name) => render(`runtime/${name}`, {})),
  ];
}

/** The opening comment of each spec-specific file. */
const docs = {
  handlers: (title: string) => `The handlers of ${title}: one per operation, keyed by operationId. A handler receives the request already validated against the contract and converted to its types, and answers one of the operation's declared responses: a status with a body of that status's type.`,
  plugin: (title: string) => `The Fastify plugin of ${title}: every operation of the route table, served under the base path by the request pipeline of ./runtime/pipeline.ts, calling your handlers.`,
  stubs: (title: string) => `Stub handlers of ${title}: every operation answers 501 Not Implemented. Where a service starts from.`,
  mock: (title: string) => `The mock handlers of ${title}: every operation answers its first 2xx response with example data.`,
  app: (title: string) => `buildServer: a Fastify instance serving ${title}, with problem answers everywhere.`,
  main: (title: string) => [
    `The mock server of ${title} (npm start): every operation answers its example response.`,
    "The API reference is at /docs, the spec at /openapi.json and /openapi.yaml (no key needed).",
    "HOST (default 127.0.0.1) and PORT (default 3000) come from the environment. With API_KEYS (comma-separated) only those keys are accepted, otherwise any non-empty key is. One log line per request; SIGINT and SIGTERM stop it gracefully.",
  ].join("\n\n"),
  index: (title: string) => `The server of ${title}: a Fastify 5 plugin (registerRoutes), buildServer, the Handlers interface, stub and mock handlers, and the problem and authentication helpers. fastify and @fastify/multipart are peer dependencies of this entry point only.`,
};

/** What `plugin.ts` needs beyond the route table. */
interface PluginView {
  /** some operation takes multipart/form-data: register @fastify/multipart */
  readonly multipart: boolean;
  /** some operation needs credentials: `authenticate` is required */
  readonly secured: boolean;
}

function buildPluginView(model: ApiModel): PluginView {
  const contents = model.operations.flatMap((operation) => operation.requestBody?.contents ?? []);
  const usable = new Set(model.securitySchemes.filter((scheme) => scheme.type !== "mutualTLS").map((scheme) => scheme.name));
  return {
    multipart: contents.some((content) => content.kind === "multipart" && content.mediaType.split(";")[0]?.trim().toLowerCase() === "multipart/form-data"),
    secured: model.operations.some((operation) => operation.security.some((requirement) => requirement.schemes.some((scheme) => usable.has(scheme.name)))),
  };
}

/** Breaks each paragraph of a text into lines of at most `width` characters (at spaces). */
function wrap(text: string, width = 96): string {
  return text.split("\n").map((paragraph) => {
    const lines: string[] = [];
    let line = "";
    for (const word of paragraph.split(" ")) {
      if (line !== "" && line.length + word.length + 1 > width) {
        lines.push(line);
        line = word;
      } else line = line === "" ? word : `${line} ${word}`;
    }
    return [...lines, line].join("\n");
  }).join("\n");
}
