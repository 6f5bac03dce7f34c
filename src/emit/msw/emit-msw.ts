import type { EmitInput, GeneratedFile } from "../emitter.js";

/**
 * generated/msw/: `createMswHandlers`, MSW request handlers serving the generated `Handlers` through
 * the server's request pipeline. The same for every spec: the runtime's msw/, driven by the route
 * table and typed by the handlers interface.
 */
export function emitMsw({ config }: EmitInput): GeneratedFile[] {
  return config.runtime.take("msw");
}
