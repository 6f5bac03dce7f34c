import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { createDiagnostic, type Diagnostic, GenerationFailed, hasErrors } from "../diagnostics/diagnostic.js";
import type { OpenApiVersion } from "../schema/dialect.js";
import { bundleFiles, checkOtherFiles } from "./bundle-files.js";
import { type BrokenRef, findBrokenLocalRefs, findMisplacedComponentsRefs, hasExternalRefs } from "./check-refs.js";
import type { ReadFile } from "./external-schemas.js";
import { findLegacyPatterns } from "./legacy-patterns.js";
import { hasSelectors, type OperationSelection, selectOperations } from "./operation-filter.js";
import { parseSource } from "./parse-source.js";
import { sameTemplateDiagnostics } from "./path-templates.js";
import { finishSelection } from "./prune-document.js";
import { filesUnder } from "./self-base.js";
import { createLocator, type Locate, type ResolvePositions } from "./source-locator.js";
import { upgradeSwagger2 } from "./swagger-2.js";
import { validateDocument } from "./validate-document.js";

/** The loaded, validated and bundled document, and how to point back into its source. */
export interface LoadedSpec {
  /** absolute path of the spec file */
  readonly file: string;
  /** the bundled document: every $ref is local ("#/..."); component names are kept */
  readonly document: Readonly<Record<string, unknown>>;
  /** every file the document was read from, absolute, the spec first */
  readonly files: readonly string[];
  /** the OpenAPI version the document is read as (a Swagger 2.0 document's is "3.0", once upgraded) */
  readonly version: OpenApiVersion;
  /** "2.0" when the document was a Swagger 2.0 one, upgraded to OpenAPI 3.0 to be read */
  readonly upgradedFrom?: "2.0";
  /** the location of a pointer (file and pointer; line and column come from resolvePositions) */
  readonly locate: Locate;
  /** adds line and column to diagnostics that point into this spec */
  readonly resolvePositions: ResolvePositions;
  /** warnings found while loading */
  readonly diagnostics: readonly Diagnostic[];
}

/** Files read from disk, and the folders beside the entry listed (for documents named by their `$self`). */
const readFromDisk: ReadFile = Object.assign((other: string) => readFile(other, "utf8"), { list: filesUnder });

/**
 * Loads a spec: parse (swagger-parser's parsers), check the OpenAPI version and local $refs,
 * upgrade a Swagger 2.0 document to OpenAPI 3.0 (swagger-2.ts), validate (swagger-parser), bundle external references into the document, then refuse paths that
 * are one template and share a method (path-templates.ts). Throws
 * GenerationFailed with every diagnostic when the document cannot be generated from. With
 * `text`, the document is that text and `path` only names it in diagnostics (it need not exist);
 * `read` reads the other files a multi-file document references (by default, from disk); with
 * `selection`, only the operations it selects are kept (operation-filter.ts), and what only the
 * others use is taken out before anything else reads the document (prune-document.ts).
 */
export async function loadSpec(
  path: string,
  text?: string,
  read: ReadFile = readFromDisk,
  selection?: OperationSelection,
): Promise<LoadedSpec> {
  const file = resolve(path);
  const parsed = await parseSource(file, text);
  if (!parsed.ok) throw new GenerationFailed(parsed.diagnostics);
  const located = createLocator(file, parsed.text);
  const resolvePositions = located.resolvePositions;
  const fail = async (diagnostics: readonly Diagnostic[]): Promise<never> => {
    throw new GenerationFailed(await resolvePositions(diagnostics));
  };
  const found = checkVersion(file, parsed.document, located.locate);
  if (typeof found !== "string") return fail([found]);
  const written = parsed.document as Record<string, unknown>;
  const misplaced = findMisplacedComponentsRefs(written).map(({ at, map }) =>
    createDiagnostic(
      "OAS_INVALID",
      `${at} is a $ref, but OpenAPI allows no Reference Object here: the map of ${map} must be written in the document. Bundle the files first (for example with \`redocly bundle\`), or give each entry its own $ref`,
      located.locate(at),
    ),
  );
  if (misplaced.length > 0) return fail(misplaced);
  // references are checked as written, so a broken one is named as the document spells it
  const broken = findBrokenLocalRefs(written, found === "2.0" ? "3.0" : found);
  if (broken.length > 0) return fail(broken.map((ref) => brokenRefDiagnostic(ref, located.locate)));
  const upgraded =
    found === "2.0"
      ? await upgradeSwagger2(file, written, located.locate)
      : { document: written, locate: located.locate };
  if (Array.isArray(upgraded)) return fail(upgraded);
  const { locate } = upgraded;
  const version = found === "2.0" ? "3.0" : found;
  const selected = hasSelectors(selection)
    ? await selectOperations(file, upgraded.document, selection, read)
    : undefined;
  if (selected !== undefined && hasErrors(selected.diagnostics)) return fail(selected.diagnostics);
  const document = selected?.document ?? upgraded.document;
  const multiFile = hasExternalRefs(document, version);
  // in one file, what the filters leave out is gone before the document is checked
  if (selected !== undefined && !multiFile) finishSelection(document, selected.pending, version);
  const diagnostics = await validateDocument(file, document, locate);
  if (hasErrors(diagnostics)) return fail(diagnostics);
  const external = multiFile
    ? await bundleFiles(file, parsed.text, document, read)
    : { document, files: [file], locate, resolvePositions };
  if (typeof external === "string") return fail([createDiagnostic("REF_EXTERNAL_FAILED", external, locate("#"))]);
  const bundled = external.document;
  if (selected !== undefined && multiFile) finishSelection(bundled, selected.pending, version);
  const inPlace = "fromOtherFile" in external ? await checkOtherFiles(file, external) : [];
  if (hasErrors(inPlace)) throw new GenerationFailed(await external.resolvePositions(inPlace));
  const sameTemplates = sameTemplateDiagnostics(bundled, locate);
  if (hasErrors(sameTemplates)) throw new GenerationFailed(await external.resolvePositions(sameTemplates));
  const patterns =
    version === "3.0"
      ? findLegacyPatterns(bundled).map(({ pattern, at }) => legacyPatternDiagnostic(pattern, locate(at)))
      : [];
  return {
    file,
    document: bundled,
    files: external.files,
    version,
    ...(found === "2.0" ? { upgradedFrom: found } : {}),
    locate,
    resolvePositions: external.resolvePositions,
    diagnostics: [...diagnostics, ...inPlace, ...sameTemplates, ...patterns],
  };
}

/**
 * A local `$ref` that leads nowhere; when an enclosing `$id` is why (the pointer exists in the
 * document, but the `$ref` reads against the `$id`, JSON Schema 2020-12 §8.2.1), the message says so.
 */
function brokenRefDiagnostic({ ref, at, underId }: BrokenRef, locate: Locate): Diagnostic {
  if (underId === undefined)
    return createDiagnostic("REF_UNRESOLVED", `$ref "${ref}" does not resolve: nothing at ${ref}`, locate(at));
  const diagnostic = createDiagnostic(
    "REF_UNRESOLVED",
    `$ref "${ref}" does not resolve: it is read against the $id ${JSON.stringify(underId.id)} of the schema at ${underId.at}, so it points into that schema, which has nothing at ${ref.slice(1)}`,
    locate(at),
  );
  return {
    ...diagnostic,
    hint: `Remove the $id at ${underId.at} (a "#/..." $ref inside it then reads against the document), or give the target schema an $id and refer to that.`,
  };
}

function legacyPatternDiagnostic(pattern: string, location: ReturnType<Locate>): Diagnostic {
  return createDiagnostic(
    "PATTERN_WITHOUT_UNICODE",
    `the pattern ${JSON.stringify(pattern)} does not compile with the u flag (an identity escape of ECMA-262 5.1, such as \\:, is not allowed with it): it is compiled without, which reads it as OpenAPI 3.0 says but counts a character outside the BMP as two`,
    location,
  );
}

/** The OpenAPI (or Swagger) version, or the diagnostic that says why the document cannot be read as one. */
function checkVersion(file: string, document: unknown, locate: Locate): OpenApiVersion | "2.0" | Diagnostic {
  if (document === null || typeof document !== "object" || Array.isArray(document)) {
    return createDiagnostic("SPEC_NOT_OPENAPI", "the document is not an object", { file, pointer: "" });
  }
  const { openapi, swagger } = document as { openapi?: unknown; swagger?: unknown };
  if (typeof openapi === "string" && /^3\.[012]\.\d+(-.+)?$/.test(openapi))
    return openapi.slice(0, 3) as OpenApiVersion;
  if (swagger === "2.0" && openapi === undefined) return "2.0";
  if (swagger !== undefined)
    return createDiagnostic(
      "UNSUPPORTED_VERSION",
      `Swagger ${JSON.stringify(swagger)} is not supported (Swagger "2.0" and OpenAPI 3.0.x, 3.1.x and 3.2.x are)`,
      locate("#/swagger"),
    );
  if (openapi === undefined)
    return createDiagnostic("SPEC_NOT_OPENAPI", "the document has no `openapi` version field", { file, pointer: "" });
  return createDiagnostic(
    "UNSUPPORTED_VERSION",
    `OpenAPI ${JSON.stringify(openapi)} is not supported (3.0.x, 3.1.x and 3.2.x are, and Swagger "2.0")`,
    locate("#/openapi"),
  );
}
