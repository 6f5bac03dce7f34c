import type { OperationModel } from "../../model/types.js";
import type { EmitInput, GeneratedFile } from "../emitter.js";
import { CodeRef } from "../literal.js";
import { buildRouteView } from "./route-view.js";

/** The name of an operation's own route constant in routes.ts: `listEvents` → `listEventsRoute`. */
export function routeConstName(operation: OperationModel): string {
  return `${operation.names.method}Route`;
}

/**
 * generated/routes.ts: the route table shared by the server and the client; its types,
 * route-types.ts, from the runtime. Each operation's entry is a constant of its own, which the
 * table names: code that names one operation's constant (the TanStack Query options) bundles that
 * entry and its validators, not the whole table.
 */
export function emitRoutes({ model, config }: EmitInput): GeneratedFile[] {
  const entries = model.operations.map((operation) => ({
    name: routeConstName(operation),
    doc: `\`${operation.method.toUpperCase()} ${operation.path}\` (${operation.names.method}): its entry in \`routes\`.`,
    route: buildRouteView(operation, model),
  }));
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
    config.templates.file("routes.ts", "routes/routes.ts", { basePath: model.basePath, servers, entries, routes }),
    ...config.runtime.take("route-types.ts"),
    ...config.runtime.take("media-types.ts"),
    ...config.runtime.take("statuses.ts"),
  ];
}
