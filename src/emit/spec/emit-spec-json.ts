import { headerLines } from "../../finalize/header.js";
import type { EmitInput, GeneratedFile } from "../emitter.js";

/**
 * generated/openapi.json: the bundled document as JSON, the package's `./spec` entry. JSON has no
 * comments, so the "generated, do not edit" header travels as the `x-generated` extension.
 */
export function emitSpecJson({ model, document }: EmitInput): GeneratedFile[] {
  const withHeader = { "x-generated": headerLines(model.source.specPath).join(" "), ...document };
  return [{ path: "openapi.json", content: `${JSON.stringify(withHeader, null, 2)}\n` }];
}
