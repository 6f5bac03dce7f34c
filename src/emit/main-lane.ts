import type { Emitter } from "./emitter.js";
import { emitJsonSchemas } from "./json-schemas/emit-json-schemas.js";
import { emitIndex } from "./package/emit-index.js";
import { emitRoutes } from "./routes/emit-routes.js";
import { emitServer } from "./server/emit-server.js";
import { emitSpecJson } from "./spec/emit-spec-json.js";
import { emitTypes } from "./types/emit-types.js";

/**
 * Targets in two lanes that can run at the same time. On large documents openapi-typescript (the
 * types) and the validator compiler take seconds each, so the main lane renders the types, the
 * route table, the server, the spec JSON, the JSON Schemas and the package index, while the side
 * lane (side-lane.ts, in a worker thread) compiles the validators and renders the client.
 */
export const MAIN_LANE: readonly Emitter[] = [emitTypes, emitRoutes, emitServer, emitSpecJson, emitJsonSchemas, emitIndex];
