/**
 * The sandbox: a stateful implementation of the Workforce Scheduling Service API on a real
 * database (PGlite in this process, or PostgreSQL), served by the generated server
 * (`createSandbox`) or in this process without one (`openSandbox`). It is an application of this
 * package: it uses only what the package's other entries export.
 *
 * Its dependencies are optional peers of the package, needed only by this entry, each loaded when
 * first used (a missing one is named in one line): `kysely` (always), `@electric-sql/pglite`
 * (embedded), `pg` (PostgreSQL; used on PGlite too when installed), `yaml` (seed files), and for
 * `createSandbox`'s server `fastify`, `@fastify/multipart`, `@fastify/swagger` and
 * `@fastify/swagger-ui`.
 */
export { type InProcessSandbox, type InProcessSandboxOptions, openSandbox } from "./in-process.js";
export { createSandbox, type Sandbox, type SandboxOptions } from "./sandbox.js";
export { checkSeed, readSeedFile, SeedError } from "./seed/load-seed.js";
export { DEMO_SEED, type Seed, type SeedCompany, type SeedCredentialType } from "./seed/seed.js";
export { createSandboxHandlers } from "./service/handlers.js";
export type { Caller } from "./service/keys.js";
