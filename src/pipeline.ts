import { relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { GenerationFailed, hasErrors, type Diagnostic } from "./diagnostics/diagnostic.js";
import type { EmitInput, Emitter, GeneratedFile } from "./emit/emitter.js";
import { emitIndex } from "./emit/package/emit-index.js";
import { emitClient } from "./emit/client/emit-client.js";
import { emitRoutes } from "./emit/routes/emit-routes.js";
import { emitServer } from "./emit/server/emit-server.js";
import { emitSpecJson } from "./emit/spec/emit-spec-json.js";
import { loadTemplates } from "./emit/templates.js";
import { emitTypes } from "./emit/types/emit-types.js";
import { emitValidators } from "./emit/validators/emit-validators.js";
import { finalizeFiles } from "./finalize/finalize.js";
import { loadSpec, type LoadedSpec } from "./load/load-spec.js";
import { buildModel } from "./model/build-model.js";
import type { ApiModel } from "./model/types.js";
import { checkOutput, type OutputDrift } from "./write/check-output.js";
import { writeOutput } from "./write/write-output.js";

/** The templates shipped with the generator. */
export const DEFAULT_TEMPLATES_DIR = fileURLToPath(new URL("../templates", import.meta.url));

/** Every target, in the order their files are listed. */
const EMITTERS: readonly Emitter[] = [emitTypes, emitValidators, emitRoutes, emitServer, emitClient, emitSpecJson, emitIndex];

export interface GenerateOptions {
  /** the OpenAPI 3.0/3.1 document */
  readonly spec: string;
  /** the output folder */
  readonly out: string;
  /** compare with the output folder instead of writing it */
  readonly check?: boolean;
  readonly templatesDir?: string;
  /** assert `format` in validators (default), or treat it as an annotation */
  readonly formats?: "assert" | "annotate";
  /** receives one line per stage with its duration */
  readonly onStage?: (stage: string, milliseconds: number) => void;
}

export interface GenerateResult {
  readonly model: ApiModel;
  readonly files: readonly GeneratedFile[];
  /** warnings (errors throw GenerationFailed) */
  readonly diagnostics: readonly Diagnostic[];
  /** present with `check`: how the output folder differs */
  readonly drift?: OutputDrift;
}

/**
 * load → model → emit → finalize → write. Throws GenerationFailed, carrying every diagnostic,
 * when the spec cannot be generated from; the output folder is then left as it was.
 */
export async function generate(options: GenerateOptions): Promise<GenerateResult> {
  const time = stopwatch(options.onStage);
  const loaded = await time("load", () => loadSpec(options.spec));
  const { model, diagnostics: modelDiagnostics } = time("model", () => buildModel(loaded, displayPath(loaded.file)));
  const diagnostics = [...loaded.diagnostics, ...modelDiagnostics];
  if (hasErrors(diagnostics)) throw new GenerationFailed(diagnostics);
  const templates = time("templates", () => loadTemplates(options.templatesDir ?? DEFAULT_TEMPLATES_DIR));
  const input: EmitInput = { model, document: loaded.document, config: { templates, formats: options.formats ?? "assert" } };
  const emitted: GeneratedFile[] = [];
  try {
    for (const emit of EMITTERS) emitted.push(...(await time(`emit ${emit.name}`, () => emit(input))));
  } catch (error) {
    if (!(error instanceof GenerationFailed)) throw error;
    throw new GenerationFailed(error.diagnostics.map((d) => withPosition(d, loaded)));
  }
  const files = time("finalize", () => finalizeFiles(emitted, model.source.specPath));
  const out = resolve(options.out);
  if (options.check) return { model, files, diagnostics, drift: await time("check", () => checkOutput(out, files)) };
  await time("write", () => writeOutput(out, files));
  return { model, files, diagnostics };
}

/** Emitters point at the document by JSON pointer; the loader knows where that is in the file. */
function withPosition(diagnostic: Diagnostic, loaded: LoadedSpec): Diagnostic {
  const location = diagnostic.location;
  if (location === undefined || location.line !== undefined || location.pointer === "") return diagnostic;
  return { ...diagnostic, location: loaded.locate(location.pointer) };
}

/** The spec path as headers show it: relative to the working directory, with "/". */
function displayPath(file: string): string {
  return relative(process.cwd(), file).split(sep).join("/") || file;
}

type Timed = <T>(stage: string, run: () => T) => T;

function stopwatch(onStage: GenerateOptions["onStage"]): Timed {
  return (stage, run) => {
    if (onStage === undefined) return run();
    const started = performance.now();
    const result = run();
    const report = (): void => onStage(stage, performance.now() - started);
    if (result instanceof Promise) return result.finally(report) as typeof result;
    report();
    return result;
  };
}
