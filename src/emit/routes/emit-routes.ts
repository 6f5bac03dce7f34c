import type { EmitInput, GeneratedFile } from "../emitter.js";
import { buildRouteView } from "./route-view.js";

/** generated/routes.ts: the route table shared by the server and the client; its types, route-types.ts, from the runtime. */
export function emitRoutes({ model, config }: EmitInput): GeneratedFile[] {
  const routes = Object.fromEntries(
    model.operations.map((operation) => [operation.names.method, buildRouteView(operation, model)]),
  );
  const servers = model.servers.map((server) => ({
    url: server.url,
    variables: Object.fromEntries(
      server.variables.map((v) => [v.name, { default: v.default, ...(v.enum ? { enum: v.enum } : {}) }]),
    ),
  }));
  return [
    config.templates.file("routes.ts", "routes/routes.ts", { basePath: model.basePath, servers, routes }),
    ...config.runtime.take("route-types.ts"),
    ...config.runtime.take("media-types.ts"),
    ...config.runtime.take("statuses.ts"),
  ];
}
