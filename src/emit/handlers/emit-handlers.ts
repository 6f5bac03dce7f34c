import type { EmitInput, GeneratedFile } from "../emitter.js";

/**
 * generated/handlers/: the entry point of an implementation of the API without its Fastify server:
 * the `Handlers` interface and the helpers a handler answers with (problems, long lists streamed),
 * the mock and stub handlers. It names none of the server's Fastify or node: modules, so handlers
 * built on it run where MSW does: in a browser page, or in Node without Fastify installed.
 */
export function emitHandlers({ config }: EmitInput): GeneratedFile[] {
  return [config.templates.file("handlers/index.ts", "handlers/index.ts", {})];
}
