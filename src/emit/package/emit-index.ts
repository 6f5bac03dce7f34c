import type { EmitInput, GeneratedFile } from "../emitter.js";

/** generated/index.ts: the package root, the types and the route table. */
export function emitIndex(_input: EmitInput): GeneratedFile[] {
  const lines = [
    `export type * from "./types.js";`,
    `export * from "./routes.js";`,
  ];
  return [{ path: "index.ts", content: `${lines.join("\n")}\n` }];
}
