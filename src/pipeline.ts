import { relative, resolve, sep } from "node:path";
import { type Diagnostic, GenerationFailed, hasErrors } from "./diagnostics/diagnostic.js";
import type { GeneratedFile } from "./emit/emitter.js";
import { checkPagingRules, type PagingRule } from "./emit/query/paging.js";
import { loadRuntimeFiles } from "./emit/runtime-files.js";
import { scheduleEmitters } from "./emit/schedule.js";
import { checkTemplateSyntax, finalizeFiles } from "./finalize/finalize.js";
import { type LoadedSpec, loadSpec } from "./load/load-spec.js";
import type { OperationSelection } from "./load/operation-filter.js";
import { buildModel } from "./model/build-model.js";
import type { ApiModel } from "./model/types.js";
import { repositoryPath } from "./repository.js";
import { checkOutput, type OutputDrift } from "./write/check-output.js";
import { writeOutput } from "./write/write-output.js";

/** The templates shipped with the generator. */
export const DEFAULT_TEMPLATES_DIR = repositoryPath("templates");

export interface GenerateOptions {
  /** the OpenAPI 3.0/3.1 document */
  readonly spec: string;
  /** the output folder */
  readonly out: string;
  /** compare with the output folder instead of writing it */
  readonly check?: boolean;
  /** templates to render instead of the built-in ones; their output passes a syntax gate */
  readonly templatesDir?: string;
  /** assert `format` in validators (default), or treat it as an annotation */
  readonly formats?: "assert" | "annotate";
  /** query parameters that page, beside the common names (a cursor, an offset, a page number) */
  readonly paging?: readonly PagingRule[];
  /**
   * the operations to generate: selectors to include (every operation when there is none) and to
   * exclude, each an operationId, `tag:NAME` or `path:GLOB`; what only the others use is left out too
   */
  readonly operations?: OperationSelection;
  /** receives one line per stage with its duration */
  readonly onStage?: (stage: string, milliseconds: number) => void;
  /** receives every file the document was read from (the spec, and the files its $refs reach), once loaded */
  readonly onSources?: (files: readonly string[]) => void;
}

export interface GenerateResult {
  readonly model: ApiModel;
  /** every file the document was read from, absolute, the spec first */
  readonly sources: readonly string[];
  readonly files: readonly GeneratedFile[];
  /** warnings (errors throw GenerationFailed) */
  readonly diagnostics: readonly Diagnostic[];
  /** present with `check`: how the output folder differs */
  readonly drift?: OutputDrift;
}

/**
 * load → model → emit → finalize → check | write. Throws GenerationFailed, carrying every
 * diagnostic, when the spec cannot be generated from; the output folder is then left as it was.
 */
export async function generate(options: GenerateOptions): Promise<GenerateResult> {
  const time = stopwatch(options.onStage);
  // the workers of emitters whose libraries take long to load start now, beside the load
  const emitters = scheduleEmitters();
  try {
    const loaded = await time("load", () => loadSpec(options.spec, undefined, undefined, options.operations));
    options.onSources?.(loaded.files);
    const { model, diagnostics: found } = time("model", () => buildModel(loaded, displayPath(loaded.file)));
    const warnings = [...loaded.diagnostics, ...found, ...checkPagingRules(model, options.paging ?? [])];
    if (hasErrors(warnings)) throw new GenerationFailed(await loaded.resolvePositions(warnings));
    // the warnings' positions are found beside the emitters (in a worker for a large spec)
    const positioned = loaded.resolvePositions(warnings);
    positioned.catch(() => undefined);
    const task = {
      model,
      document: loaded.document,
      templatesDir: options.templatesDir ?? DEFAULT_TEMPLATES_DIR,
      formats: options.formats ?? "assert",
      paging: options.paging ?? [],
    };
    const emitted = await time("emit", () => emitters.run(task, options.onStage)).catch(positionedFailure(loaded));
    const files = time("finalize", () => finalizeFiles(emitted, model.source.specPath));
    if (options.templatesDir !== undefined)
      time("syntax gate", () => checkTemplateSyntax(files, loadRuntimeFiles().paths));
    const diagnostics = await positioned;
    const result = { model, sources: loaded.files, files, diagnostics };
    const out = resolve(options.out);
    if (options.check) return { ...result, drift: await time("check", () => checkOutput(out, files)) };
    await time("write", () => writeOutput(out, files));
    return result;
  } finally {
    emitters.stop();
  }
}

/** Passes on a GenerationFailed with its diagnostics' positions in the spec found. */
function positionedFailure(loaded: LoadedSpec): (error: unknown) => Promise<never> {
  return async (error) => {
    if (!(error instanceof GenerationFailed)) throw error;
    throw new GenerationFailed(await loaded.resolvePositions(error.diagnostics));
  };
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
