import type { OperationModel } from "../../model/types.js";
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
