/**
 * A document of several files, bundled into one and still located in its files. Bundling writes
 * what other files hold into the entry document; the bundled document is then checked against the
 * OpenAPI schema as if every object of another file were written where it is used, and every
 * diagnostic about such an object (that check's, the model's, the emitters') names the file, line
 * and column where it is written (origins.ts).
 */
import SwaggerParser from "@apidevtools/swagger-parser";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import { type ExternalSchemas, prepareExternalSchemas, type ReadFile } from "./external-schemas.js";
import { traceOrigins } from "./origins.js";
import { createLocator, type Locate, type ResolvePositions } from "./source-locator.js";
import { validateDocument } from "./validate-document.js";

/** A document of several files, bundled. */
export interface BundledFiles {
  /** the bundled document: every $ref is local ("#/..."); component names are kept */
  readonly document: Record<string, unknown>;
  /** every file the document was read from, absolute, the entry first */
  readonly files: readonly string[];
  /** the location of a pointer of the bundled document */
  readonly locate: Locate;
  /** adds file, line and column to diagnostics: in the file where the place they point at is written */
  readonly resolvePositions: ResolvePositions;
  /** whether a pointer of the bundled document names a place written in another file than the entry */
  readonly fromOtherFile: (pointer: string) => boolean;
}

/**
 * The document with the other files it references bundled in (each schema of another file a
 * component of its own: external-schemas.ts), every file read, and where each place was written;
 * or why that failed. `text` is the entry file's text.
 */
export async function bundleFiles(
  file: string,
  text: string,
  document: Record<string, unknown>,
  read: ReadFile,
): Promise<BundledFiles | string> {
  let prepared: ExternalSchemas;
  try {
    prepared = await prepareExternalSchemas(file, structuredClone(document), read);
  } catch (error) {
    return (error as Error).message.split("\n")[0] ?? "reading a referenced file failed";
  }
  const bundled = await bundleWithSwaggerParser(file, prepared);
  if (typeof bundled === "string") return bundled;
  const origins = traceOrigins(bundled, file, prepared.documents);
  const { locate, resolvePositions } = createLocator(file, text, { origins, texts: prepared.sources });
  const fromOtherFile = (pointer: string): boolean => origins.of(pointer).file !== file;
  return { document: bundled, files: prepared.files, locate, resolvePositions, fromOtherFile };
}

/**
 * The bundled document checked against the OpenAPI schema: the objects written in other files are
 * checked where they are used, as if written there. Only what is about them is returned (the entry
 * file's own objects were checked as written); `resolvePositions` places each in its file.
 */
export async function checkOtherFiles(file: string, bundled: BundledFiles): Promise<Diagnostic[]> {
  const found = await validateDocument(file, bundled.document, bundled.locate);
  return found.filter((d) => d.location !== undefined && bundled.fromOtherFile(d.location.pointer));
}

/** swagger-parser's bundle of the prepared files, read from memory; or why it failed. */
async function bundleWithSwaggerParser(
  file: string,
  prepared: ExternalSchemas,
): Promise<Record<string, unknown> | string> {
  const texts = prepared.texts;
  const memory = {
    order: 1,
    canRead: (source: { url: string }) => texts.has(source.url),
    read: (source: { url: string }) => texts.get(source.url) ?? "",
  };
  // swagger-parser's bundle() refuses a 3.1 document without `paths` or `webhooks`, which 3.1
  // allows (one of paths, components, webhooks): it is given an empty `paths`, taken away after.
  // It is given a copy: the prepared document stays as written, for the origins.
  const pathless = !("paths" in prepared.document) && !("webhooks" in prepared.document);
  const input = structuredClone(pathless ? { ...prepared.document, paths: {} } : prepared.document);
  // nor does it know OpenAPI 3.2, whose references bundle as 3.1's do: it is given 3.1's version,
  // and the document its own back
  const version = input.openapi;
  if (typeof version === "string" && version.startsWith("3.2.")) input.openapi = "3.1.2";
  try {
    const bundled = (await SwaggerParser.bundle(
      file,
      input as never,
      { resolve: { memory } } as SwaggerParser.Options,
    )) as unknown as Record<string, unknown>;
    if (pathless) delete bundled.paths;
    bundled.openapi = version;
    return bundled;
  } catch (error) {
    return (error as Error).message.split("\n")[0] ?? "bundling failed";
  }
}
