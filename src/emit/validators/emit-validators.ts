import type { EmitInput, GeneratedFile } from "../emitter.js";

/**
 * generated/validators/: standalone validators (no runtime dependency) for every component schema
 * and for each operation's parameters, request bodies and JSON responses (index.ts, compiled from
 * the JSON Schema in the document by the project's own compiler), and their public types (the
 * runtime's types.ts).
 */
export function emitValidators({ config }: EmitInput): GeneratedFile[] {
  return [
    { path: "validators/index.ts", content: config.validators().typescript() },
    ...config.runtime.take("validators/types.ts"),
  ];
}
