import { emitClient } from "./client/emit-client.js";
import type { EmitterEntry } from "./emitter.js";
import { emitHandlers } from "./handlers/emit-handlers.js";
import { emitJsonSchemas } from "./json-schemas/emit-json-schemas.js";
import { emitMsw } from "./msw/emit-msw.js";
import { emitIndex } from "./package/emit-index.js";
import { emitQuery } from "./query/emit-query.js";
import { emitRoutes } from "./routes/emit-routes.js";
import { emitMock } from "./server/emit-mock.js";
import { emitServer } from "./server/emit-server.js";
import { emitSpecJson } from "./spec/emit-spec-json.js";
import { emitTypes } from "./types/emit-types.js";
import { emitValidators } from "./validators/emit-validators.js";
import { emitWebhooks } from "./webhooks/emit-webhooks.js";

/**
 * Every target, each with what it needs; the scheduler (schedule.ts) decides from that where each
 * runs. Emitters that share a thread run in this order.
 */
export const EMITTERS: readonly EmitterEntry[] = [
  // types.ts: openapi-typescript's paths, components and operations, and a named type per schema
  { emit: emitTypes, needs: "openapi-typescript" },
  // validators/: the project's schema compiler's standalone validators
  { emit: emitValidators, needs: "validators" },
  // server/mock.ts: data the validators accept, for every operation
  { emit: emitMock, needs: "validators" },
  // routes.ts, the route table the server and the client share
  { emit: emitRoutes },
  // server/: the Fastify plugin, the handler types and stubs, the server's runtime
  { emit: emitServer },
  // handlers/: the handlers' entry, without Fastify
  { emit: emitHandlers },
  // client/: the typed client and its runtime
  { emit: emitClient },
  // msw/: MSW request handlers over the server's pipeline
  { emit: emitMsw },
  // webhooks/: the webhooks' and callbacks' table, receivers and sender (only when the spec has some)
  { emit: emitWebhooks },
  // query/: TanStack Query options and the invalidation map
  { emit: emitQuery },
  // openapi.json: the bundled document
  { emit: emitSpecJson },
  // json-schemas.ts: each schema as JSON Schema
  { emit: emitJsonSchemas },
  // index.ts: the package's entry
  { emit: emitIndex },
];
