import { resolve } from "node:path";
import SwaggerParser from "@apidevtools/swagger-parser";
import { createDiagnostic, GenerationFailed, hasErrors, type Diagnostic } from "../diagnostics/diagnostic.js";
import { findBrokenLocalRefs, hasExternalRefs } from "./check-refs.js";
import { parseSource } from "./parse-source.js";
import { createLocator, type Locate } from "./source-locator.js";
import { validateDocument } from "./validate-document.js";

/** The loaded, validated and bundled document, and how to point back into its source. */
export interface LoadedSpec {
  /** absolute path of the spec file */
  readonly file: string;
  /** the bundled document: every $ref is local ("#/..."); component names are kept */
  readonly document: Readonly<Record<string, unknown>>;
  readonly version: "3.0" | "3.1";
  readonly locate: Locate;
  /** warnings found while loading */
  readonly diagnostics: readonly Diagnostic[];
}

/**
 * Loads a spec: parse (swagger-parser's parsers), check the OpenAPI version and local $refs,
 * validate (swagger-parser), then bundle external references into the document. Throws
 * GenerationFailed with every diagnostic when the document cannot be generated from.
 */
export async function loadSpec(path: string): Promise<LoadedSpec> {
  const file = resolve(path);
  const parsed = await parseSource(file);
  if (!parsed.ok) throw new GenerationFailed(parsed.diagnostics);
  const locate = createLocator(file, parsed.text);
  const version = checkVersion(file, parsed.document, locate);
  const document = parsed.document as Record<string, unknown>;
  const broken = findBrokenLocalRefs(document).map(({ ref, at }) =>
    createDiagnostic("REF_UNRESOLVED", `$ref "${ref}" does not resolve: nothing at ${ref}`, locate(at)),
  );
  if (broken.length > 0) throw new GenerationFailed(broken);
  const diagnostics = await validateDocument(file, document, locate);
  if (hasErrors(diagnostics)) throw new GenerationFailed(diagnostics);
  const bundled = hasExternalRefs(document) ? await bundleDocument(file, document, locate) : document;
  return { file, document: bundled, version, locate, diagnostics };
}

function checkVersion(file: string, document: unknown, locate: Locate): "3.0" | "3.1" {
  if (document === null || typeof document !== "object" || Array.isArray(document)) {
    throw new GenerationFailed([createDiagnostic("SPEC_NOT_OPENAPI", "the document is not an object", { file, pointer: "" })]);
  }
  const { openapi, swagger } = document as { openapi?: unknown; swagger?: unknown };
  if (typeof openapi === "string" && /^3\.[01]\.\d+$/.test(openapi)) return openapi.startsWith("3.0") ? "3.0" : "3.1";
  if (swagger !== undefined) {
    throw new GenerationFailed([createDiagnostic("UNSUPPORTED_VERSION", `Swagger ${String(swagger)} documents are not supported`, locate("#/swagger"))]);
  }
  if (openapi === undefined) {
    throw new GenerationFailed([createDiagnostic("SPEC_NOT_OPENAPI", "the document has no `openapi` version field", { file, pointer: "" })]);
  }
  throw new GenerationFailed([createDiagnostic("UNSUPPORTED_VERSION", `OpenAPI ${JSON.stringify(openapi)} is not supported (3.0.x and 3.1.x are)`, locate("#/openapi"))]);
}

async function bundleDocument(file: string, document: Record<string, unknown>, locate: Locate): Promise<Record<string, unknown>> {
  try {
    return (await SwaggerParser.bundle(file, structuredClone(document) as never)) as unknown as Record<string, unknown>;
  } catch (error) {
    throw new GenerationFailed([createDiagnostic("REF_EXTERNAL_FAILED", (error as Error).message.split("\n")[0] ?? "bundling failed", locate("#"))]);
  }
}
