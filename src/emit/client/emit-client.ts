import type { EmitInput, GeneratedFile } from "../emitter.js";
import { hasItemBody, hasStreams, hasStyles } from "../routes/route-view.js";
import { buildMethodView, type MethodView, type TypePart } from "./method-view.js";
import { buildOptionsView, type OptionsView } from "./options-view.js";

/**
 * generated/client/: the typed client. `client.ts` has one method per operation, typed from the
 * generated types and documented from the spec, and `isApiError` typed by its declared answers;
 * `index.ts` is the entry point. The engine behind them, the same for every spec, is the runtime's
 * client/, to which client.ts passes the route table and the servers.
 */
export function emitClient({ model, config }: EmitInput): GeneratedFile[] {
  const render = (name: string, view: object): GeneratedFile =>
    config.templates.file(`client/${name}.ts`, `client/${name}.ts`, view);
  const title = `${model.source.title} (version ${model.source.version})`;
  const options = buildOptionsView(model);
  const methods = model.operations.map(buildMethodView);
  const view = {
    classDoc: `The typed client of ${title}: one method per operation. Create it with \`createClient\`.`,
    imports: importsView(options, methods),
    options,
    methods,
  };
  const styles = [...model.operations, ...model.webhooks].some(hasStyles);
  const streams = model.operations.some(hasStreams);
  const querystring = model.operations.some((operation) => operation.querystring !== undefined);
  const itemBodies = model.operations.some(hasItemBody);
  const left = [
    ...(styles ? [] : [STYLES_RUNTIME]),
    ...(streams ? [] : STREAMS_RUNTIME),
    ...(querystring ? [] : [QUERYSTRING_RUNTIME]),
    ...(itemBodies ? [] : [ITEM_BODIES_RUNTIME]),
    ...(streams || itemBodies ? [] : [STREAMED_CALLS_RUNTIME]),
  ];
  return [render("client", view), render("index", {}), ...config.runtime.take("client", left)];
}

/** Written only for specs with label or matrix path parameters or cookie parameters (the routes' style encoder). */
const STYLES_RUNTIME = "client/styles.ts";

/** Written only for specs with answers that are sequences of items (the routes' stream encoder and its reader). */
const STREAMS_RUNTIME = ["client/stream-answers.ts", "client/streams.ts"];

/** Written only for specs with a request body that is a sequence of items (the routes' item body encoder). */
const ITEM_BODIES_RUNTIME = "client/item-bodies.ts";

/** Written only for specs with a body or an answer that is a sequence of items (the routes' stream encoders' call). */
const STREAMED_CALLS_RUNTIME = "client/streamed-calls.ts";

/** Written only for specs with an `in: querystring` parameter (the routes' querystring encoder). */
const QUERYSTRING_RUNTIME = "client/querystring.ts";

/** What client.ts imports: only what its methods and options use, so no import is left unused. */
function importsView(
  options: OptionsView,
  methods: readonly MethodView[],
): { types: boolean; basic: boolean; body: string[]; runtime: string[] } {
  const bodyParts = methods.flatMap((m) => (m.body === false ? [] : m.body.parts));
  const typeParts: TypePart[] = [...bodyParts, ...methods.flatMap((m) => m.returns)];
  const groups = methods.flatMap((m) => [m.path, m.query, m.headers, m.cookies]).filter((group) => group !== false);
  const errorTypes = methods.some((m) => m.errors.some((e) => e.type !== undefined));
  const body = [
    ...(bodyParts.some((p) => p.prefix === "" && p.name === "RawBody") ? ["RawBody"] : []),
    ...(bodyParts.some((p) => p.files.length > 0) ? ["WithFiles"] : []),
  ];
  const runtime = [
    ...(methods.length > 0 ? ["CallOptions"] : []),
    ...(methods.some((m) => m.noArgs) ? ["NoArgs"] : []),
  ];
  return {
    types: groups.length > 0 || errorTypes || typeParts.some((p) => p.prefix === "T."),
    basic: options.basic !== false || options.schemes.some((s) => s.basic),
    body,
    runtime,
  };
}
