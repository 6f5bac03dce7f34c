/**
 * generated/webhooks/, for a document with webhooks or callbacks: their table (the route table's
 * entries, received at `/<name>` by default), the handlers' types, the receiver on Fastify and over
 * the Fetch API (edge runtimes, MSW), both through the server's request pipeline, and a typed sender
 * over the client's engine; with the runtime's webhooks/, the same for every spec. A document
 * without any gets no such folder.
 */
import { buildMethodView, type MethodView } from "../client/method-view.js";
import type { EmitInput, GeneratedFile } from "../emitter.js";
import { buildRouteView, encoderImports } from "../routes/route-view.js";
import { wrap } from "../server/emit-server.js";
import { buildHandlerView } from "../server/handler-view.js";

export function emitWebhooks({ model, config }: EmitInput): GeneratedFile[] {
  if (model.webhooks.length === 0) return [];
  const render = (name: string, view: object): GeneratedFile =>
    config.templates.file(`webhooks/${name}.ts`, `webhooks/${name}.ts`, view);
  const title = `${model.source.title} (version ${model.source.version})`;
  const credentialSchemes = new Set(
    model.securitySchemes.filter((scheme) => scheme.type !== "mutualTLS").map((scheme) => scheme.name),
  );
  const routes = Object.fromEntries(model.webhooks.map((hook) => [hook.names.method, buildRouteView(hook, model)]));
  const methods = model.webhooks.map(buildMethodView);
  // the receivers read the Cookie header only for a table with cookie parameters, which needs `cookie`
  const cookies = model.webhooks.some((hook) => hook.parameters.cookie.length > 0);
  return [
    render("routes", {
      fileDoc: wrap(docs.routes(title)),
      routes,
      encoders: encoderImports(model.webhooks, model),
    }),
    render("handlers", {
      fileDoc: wrap(docs.handlers(title)),
      operations: model.webhooks.map((hook) => buildHandlerView(hook, credentialSchemes)),
    }),
    render("receiver", { fileDoc: wrap(docs.receiver(title)), cookies }),
    render("fetch", { fileDoc: wrap(docs.fetch(title)), cookies }),
    render("sender", { fileDoc: wrap(docs.sender(title)), imports: importsView(methods), methods }),
    render("index", {}),
    ...config.runtime.take("webhooks"),
  ];
}

/** The opening comment of each spec-specific file. */
const docs = {
  routes: (title: string) =>
    `The webhooks and callbacks of ${title}: requests its provider sends to you, each as a route-table entry (what it carries and how it is checked), shared by the receivers and the sender.`,
  handlers: (title: string) =>
    `The webhook handlers of ${title}: one per webhook and callback. A handler receives the request already validated against the contract and answers one of its declared responses.`,
  receiver: (title: string) =>
    `The Fastify receiver of the webhooks and callbacks of ${title}, through the request pipeline of ../server/runtime/pipeline.ts.`,
  fetch: (title: string) =>
    `The Fetch API receiver of the webhooks and callbacks of ${title}: for edge runtimes, service workers and MSW.`,
  sender: (title: string) =>
    `The sender of the webhooks and callbacks of ${title}: posts each as the provider would, for the tests of a receiver.`,
};

/** What sender.ts imports: only what its methods use, so no import is left unused. */
function importsView(methods: readonly MethodView[]): { types: boolean; body: string[]; runtime: string[] } {
  const bodyParts = methods.flatMap((m) => (m.body === false ? [] : m.body.parts));
  const groups = methods.flatMap((m) => [m.query, m.headers, m.cookies]).filter((group) => group !== false);
  return {
    types: groups.length > 0 || [...bodyParts, ...methods.flatMap((m) => m.returns)].some((p) => p.prefix === "T."),
    body: [
      ...(bodyParts.some((p) => p.prefix === "" && p.name === "RawBody") ? ["RawBody"] : []),
      ...(bodyParts.some((p) => p.files.length > 0) ? ["WithFiles"] : []),
    ],
    runtime: methods.some((m) => m.noArgs) ? ["NoArgs"] : [],
  };
}
