/**
 * Swagger 2.0 documents, read once upgraded to OpenAPI 3.0 by Scalar's upgrader
 * (`@scalar/openapi-upgrader`): the 2.0 document is first checked against the 2.0 schema, so a
 * fault is reported at its own line and column; the upgraded document then goes through the same
 * load as any 3.0 one, with every pointer into it placed back in the 2.0 file
 * (upgrade-positions.ts).
 */
import { upgradeFromTwoToThree } from "@scalar/openapi-upgrader/2.0-to-3.0";
import { createDiagnostic, type Diagnostic } from "../diagnostics/diagnostic.js";
import { isRecord } from "../json-value.js";
import type { Locate } from "./source-locator.js";
import { originalPointer } from "./upgrade-positions.js";
import { validateDocument } from "./validate-document.js";

/** A 2.0 document upgraded: the OpenAPI 3.0 document, and where its places were in the 2.0 file. */
export interface UpgradedDocument {
  readonly document: Record<string, unknown>;
  readonly locate: Locate;
}

/**
 * The 2.0 document upgraded to OpenAPI 3.0, or the diagnostics of its faults against the 2.0
 * schema (at the 2.0 file's positions). `document` is not changed.
 */
export async function upgradeSwagger2(
  file: string,
  document: Record<string, unknown>,
  locate: Locate,
): Promise<UpgradedDocument | Diagnostic[]> {
  const faults = await validateDocument(file, document, locate);
  if (faults.some((fault) => fault.severity === "error")) return faults;
  let upgraded: unknown;
  try {
    upgraded = upgradeFromTwoToThree(structuredClone(document));
  } catch (error) {
    return [
      createDiagnostic(
        "OAS_INVALID",
        `the Swagger 2.0 document could not be upgraded to OpenAPI 3.0: ${(error as Error).message}`,
        locate("#/swagger"),
      ),
    ];
  }
  if (!isRecord(upgraded) || typeof upgraded.openapi !== "string")
    return [createDiagnostic("OAS_INVALID", "the Swagger 2.0 document could not be upgraded", locate("#/swagger"))];
  return { document: upgraded, locate: (pointer) => locate(originalPointer(pointer, document)) };
}
