import openapiTS, { astToString } from "openapi-typescript";

/**
 * openapi-typescript's `paths`, `components`, `operations` (and `webhooks`) for the document.
 * `emptyObjectsUnknown` types a schemaless object as Record<string, unknown> rather than an
 * object that accepts nothing; read/write markers are on only when the document uses them.
 */
export async function renderOpenapiTypes(document: Readonly<Record<string, unknown>>, readWriteMarkers: boolean): Promise<string> {
  const nodes = await openapiTS(structuredClone(document) as unknown as Parameters<typeof openapiTS>[0], {
    silent: true,
    emptyObjectsUnknown: true,
    readWriteMarkers,
  });
  return astToString(nodes);
}
