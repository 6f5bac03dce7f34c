/**
 * The sandbox: a stateful implementation of the Workforce Scheduling Service API on a real
 * database (PGlite in this process, or PostgreSQL), served by the generated server. It is an
 * application of this package: it uses only what the package's other entries export.
 *
 * Its dependencies are optional peers of the package, needed only by this entry:
 * `@electric-sql/pglite` (embedded), `pg` and `kysely` (both), `yaml` (seed files), and the
 * server's `fastify`, `@fastify/multipart`, `@fastify/swagger` and `@fastify/swagger-ui`.
 */
export { createSandbox, type Sandbox, type SandboxOptions } from "./sandbox.js";
export { checkSeed, readSeedFile, SeedError } from "./seed/load-seed.js";
export { DEMO_SEED, type Seed, type SeedCompany, type SeedCredentialType } from "./seed/seed.js";
export { createSandboxHandlers } from "./service/handlers.js";
export type { Caller } from "./service/keys.js";
