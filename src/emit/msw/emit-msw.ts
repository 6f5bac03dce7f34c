import type { EmitInput, GeneratedFile } from "../emitter.js";

/**
 * generated/msw/: `createMswHandlers`, MSW request handlers serving the generated `Handlers` through
 * the server's request pipeline. The entry point (index.ts) binds the runtime's msw/, the same for
 * every spec, to the route table, the base path and the handlers interface.
 */
export function emitMsw({ model, config }: EmitInput): GeneratedFile[] {
  const view = { cookies: model.operations.some((operation) => operation.parameters.cookie.length > 0) };
  return [config.templates.file("msw/index.ts", "msw/index.ts", view), ...config.runtime.take("msw")];
}
