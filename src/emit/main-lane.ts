import { emitClient } from "./client/emit-client.js";
import type { Emitter } from "./emitter.js";
import { emitJsonSchemas } from "./json-schemas/emit-json-schemas.js";
import { emitMsw } from "./msw/emit-msw.js";
import { emitIndex } from "./package/emit-index.js";
import { emitQuery } from "./query/emit-query.js";
import { emitRoutes } from "./routes/emit-routes.js";
import { emitServer } from "./server/emit-server.js";
import { emitSpecJson } from "./spec/emit-spec-json.js";

/**
 * Targets in three lanes that can run at the same time. The types lane (types-lane.ts) renders the
 * types with openapi-typescript in a worker started with the run; the side lane
 * (side-lane.ts) compiles the validators and renders the mock, in a worker of its own for a large
 * document; the main lane renders the route table, the server, the client, the MSW handlers, the
 * query options, the spec JSON, the JSON Schemas and the package index, and runs the syntax gate
 * over the other lanes' files.
 */
export const MAIN_LANE: readonly Emitter[] = [emitRoutes, emitServer, emitClient, emitMsw, emitQuery, emitSpecJson, emitJsonSchemas, emitIndex];
