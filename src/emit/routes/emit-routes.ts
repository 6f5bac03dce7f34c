import type { OperationModel, ServerModel } from "../../model/types.js";
import type { EmitInput, GeneratedFile } from "../emitter.js";
import { CodeRef } from "../literal.js";
import { buildRouteView, encoderImports } from "./route-view.js";

/** The name of an operation's own route constant in routes.ts: `listEvents` → `listEventsRoute`. */
export function routeConstName(operation: OperationModel): string {
  return `${operation.names.method}Route`;
}

/** The name of an operation's call entry in routes.ts: `listEvents` → `listEventsCall`. */
export function callConstName(operation: OperationModel): string {
  return `${operation.names.method}Call`;
}

/**
 * generated/routes.ts: the route table shared by the server and the client; its types,
 * route-types.ts, from the runtime. Each operation's entry is a constant of its own, which the
 * table names: code that names one operation's constant (the TanStack Query options) bundles that
 * entry and its validators, not the whole table. Each has a call entry too, the same without its
 * answers' validators, which the TanStack Query options name: a client checks answers only when
 * given `validateResponses` (its answers' validators, `responseValidators`, with them). The two
 * are written out in full: a route spread from its call entry would be kept by bundlers unused.
 * An operation with parameters (and of them, query and header ones, deepObject's apart), a body
 * other than JSON, or credentials other than API keys in headers, names the client's encoders of
 * those (`encoders`), so a page whose operations have none does not bundle them.
 */
export function emitRoutes({ model, config }: EmitInput): GeneratedFile[] {
  const entries = model.operations.map((operation) => {
    const route = buildRouteView(operation, model);
    const { responses, ...request } = route.validators;
    return {
      name: routeConstName(operation),
      callName: callConstName(operation),
      key: operation.names.method,
      doc: `\`${operation.httpMethod} ${operation.path}\` (${operation.names.method}): its entry in \`routes\`.`,
      route,
      call: { ...route, validators: request },
      responses,
    };
  });
  const routes = Object.fromEntries(
    model.operations.map((operation) => [operation.names.method, new CodeRef(routeConstName(operation))]),
  );
  const servers = model.servers.map((server) => ({
    url: server.url,
    variables: Object.fromEntries(
      server.variables.map((v) => [v.name, { default: v.default, ...(v.enum ? { enum: v.enum } : {}) }]),
    ),
  }));
  return [
    config.templates.file("routes.ts", "routes/routes.ts", {
      basePath: model.basePath,
      servers,
      serverUrl: serverUrlParts(model.servers[0]),
      serverVariables: (model.servers[0]?.variables.length ?? 0) > 0,
      entries,
      routes,
      encoders: encoderImports(model.operations, model),
    }),
    ...config.runtime.take("route-types.ts"),
    ...config.runtime.take("media-types.ts"),
    ...config.runtime.take("sequences.ts"),
    ...config.runtime.take("statuses.ts"),
  ];
}

/** A piece of the first server's URL: text as it is, or a declared variable's placeholder and its default. */
export interface ServerUrlPart {
  readonly text: string;
  readonly variable: string | null;
}

/**
 * The first server's URL in pieces, each `{name}` placeholder of a declared variable apart: what
 * the generated `serverUrl` joins, the variable given or its default in place of each
 * placeholder ("" without a server).
 */
export function serverUrlParts(server: ServerModel | undefined): ServerUrlPart[] {
  if (server === undefined) return [{ text: "", variable: null }];
  const defaults = new Map(server.variables.map((v) => [v.name, v.default]));
  const parts: ServerUrlPart[] = [];
  let from = 0;
  for (const match of server.url.matchAll(/\{([^{}]+)\}/g)) {
    const name = match[1] ?? "";
    const fallback = defaults.get(name);
    if (fallback === undefined) continue;
    if (match.index > from) parts.push({ text: server.url.slice(from, match.index), variable: null });
    parts.push({ text: fallback, variable: name });
    from = match.index + match[0].length;
  }
  if (from < server.url.length || parts.length === 0) parts.push({ text: server.url.slice(from), variable: null });
  return parts;
}
