import { mediaTypeEssence } from "../../../runtime/media-types.js";
import type { ApiModel } from "../../model/types.js";
import type { EmitInput, GeneratedFile } from "../emitter.js";
import { buildHandlerView } from "./handler-view.js";

/** Written only for specs with a multipart/form-data body, so only they need @fastify/multipart. */
const MULTIPART_RUNTIME = "server/runtime/multipart.ts";

/** Written only for specs with a cookie parameter (an operation's, a webhook's or a callback's), so only they need `cookie`. */
const COOKIES_RUNTIME = "server/runtime/cookies.ts";

/**
 * generated/server/: a Fastify 5 plugin serving every operation of the route table through the
 * request pipeline (security, content type, validation by the generated validators, response
 * checks), `buildServer` and `registerDocs` bound to this spec's route table and base path, the
 * typed `Handlers` interface, stub handlers (the mock handlers are emit-mock.ts's), the entry
 * point and the mock server's `main.ts`; with the runtime's server/ (the pipeline, the Fastify
 * instance, the reference), the same for every spec.
 */
export function emitServer({ model, config }: EmitInput): GeneratedFile[] {
  const render = (name: string, view: object): GeneratedFile =>
    config.templates.file(`server/${name}.ts`, `server/${name}.ts`, view);
  const title = `${model.source.title} (version ${model.source.version})`;
  const credentialSchemes = new Set(
    model.securitySchemes.filter((scheme) => scheme.type !== "mutualTLS").map((scheme) => scheme.name),
  );
  const operations = model.operations.map((operation) => buildHandlerView(operation, credentialSchemes));
  const plugin = buildPluginView(model, credentialSchemes);
  return [
    render("handlers", { fileDoc: wrap(docs.handlers(title)), operations }),
    render("plugin", { fileDoc: wrap(docs.plugin(title)), ...plugin }),
    render("stubs", { fileDoc: wrap(docs.stubs(title)), operations }),
    render("index", {}),
    render("main", {}),
    ...config.runtime.take("server", [
      ...(plugin.multipart ? [] : [MULTIPART_RUNTIME]),
      ...(usesCookies(model) ? [] : [COOKIES_RUNTIME]),
    ]),
  ];
}

/** The opening comment of each spec-specific file. */
const docs = {
  handlers: (title: string) =>
    `The handlers of ${title}: one per operation, keyed by operationId. A handler receives the request already validated against the contract and converted to its types, and answers one of the operation's declared responses: a status with a body of that status's type.`,
  plugin: (title: string) =>
    `The Fastify plugin of ${title}: every operation of the route table, served under the base path by the request pipeline of ./runtime/pipeline.ts, calling your handlers; \`buildServer\` and \`registerDocs\` over this route table and base path.`,
  stubs: (title: string) =>
    `Stub handlers of ${title}: every operation answers 501 Not Implemented. Where a service starts from.`,
};

/** What `plugin.ts` needs beyond the route table. */
interface PluginView {
  /** some operation takes multipart/form-data: register @fastify/multipart */
  readonly multipart: boolean;
  /** some operation needs credentials: `authenticate` is required */
  readonly secured: boolean;
  /** some operation has cookie parameters: the pipeline reads them with runtime/cookies.ts (and the `cookie` package) */
  readonly cookies: boolean;
}

function buildPluginView(model: ApiModel, usable: ReadonlySet<string>): PluginView {
  const contents = model.operations.flatMap((operation) => operation.requestBody?.contents ?? []);
  return {
    multipart: contents.some(
      (content) => content.kind === "multipart" && mediaTypeEssence(content.mediaType) === "multipart/form-data",
    ),
    cookies: model.operations.some((operation) => operation.parameters.cookie.length > 0),
    secured: model.operations.some((operation) =>
      operation.security.some((requirement) => requirement.schemes.some((scheme) => usable.has(scheme.name))),
    ),
  };
}

/** Whether an operation, a webhook or a callback has a cookie parameter. */
export function usesCookies(model: ApiModel): boolean {
  return [...model.operations, ...model.webhooks].some((operation) => operation.parameters.cookie.length > 0);
}

/** Breaks each paragraph of a text into lines of at most `width` characters (at spaces). */
export function wrap(text: string, width = 96): string {
  return text
    .split("\n")
    .map((paragraph) => {
      const lines: string[] = [];
      let line = "";
      for (const word of paragraph.split(" ")) {
        if (line !== "" && line.length + word.length + 1 > width) {
          lines.push(line);
          line = word;
        } else line = line === "" ? word : `${line} ${word}`;
      }
      return [...lines, line].join("\n");
    })
    .join("\n");
}
