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
  const copy = structuredClone(document);
  const schemes = takeOperationSchemes(copy);
  try {
    upgraded = upgradeFromTwoToThree(copy);
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
  giveOperationServers(upgraded, document, schemes);
  return { document: upgraded, locate: (pointer) => locate(originalPointer(pointer, document)) };
}

const METHODS = ["get", "put", "post", "delete", "options", "head", "patch"] as const;

/**
 * Takes the `schemes` of each operation out of a 2.0 document, and the document's own where it
 * names no host (the upgrader leaves them where the OpenAPI 3.0 schema allows none): by path and
 * method, the operations' that differ from the document's.
 */
function takeOperationSchemes(document: Record<string, unknown>): Map<string, string[]> {
  const taken = new Map<string, string[]>();
  const own = Array.isArray(document.schemes) ? document.schemes.join(" ") : undefined;
  for (const [path, item] of Object.entries(isRecord(document.paths) ? document.paths : {})) {
    if (!isRecord(item)) continue;
    for (const method of METHODS) {
      const operation = item[method];
      if (!isRecord(operation) || !Array.isArray(operation.schemes)) continue;
      const schemes = operation.schemes.filter((scheme): scheme is string => typeof scheme === "string");
      delete operation.schemes;
      if (schemes.length > 0 && schemes.join(" ") !== own) taken.set(`${method} ${path}`, schemes);
    }
  }
  // without a host the upgrader writes no URL with the document's schemes, and leaves them
  if (typeof document.host !== "string") delete document.schemes;
  return taken;
}

/**
 * An operation whose `schemes` differ from the document's is served at the document's host and
 * base path by those schemes: it gets the `servers` OpenAPI 3.0 writes that with. Without a host
 * (a URL relative to where the document is served), a scheme cannot be written: it is left out.
 */
function giveOperationServers(
  upgraded: Record<string, unknown>,
  original: Record<string, unknown>,
  schemes: ReadonlyMap<string, string[]>,
): void {
  if (typeof original.host !== "string" || !isRecord(upgraded.paths)) return;
  const base = typeof original.basePath === "string" ? original.basePath : "";
  for (const [key, list] of schemes) {
    const [method = "", path = ""] = key.split(/ (.*)/s);
    const item = upgraded.paths[path];
    const operation = isRecord(item) ? item[method] : undefined;
    if (isRecord(operation)) operation.servers = list.map((scheme) => ({ url: `${scheme}://${original.host}${base}` }));
  }
}
