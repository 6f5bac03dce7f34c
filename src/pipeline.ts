import { relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { type Diagnostic, GenerationFailed, hasErrors } from "./diagnostics/diagnostic.js";
import type { GeneratedFile } from "./emit/emitter.js";
import { MAIN_LANE } from "./emit/main-lane.js";
import { type LaneInput, type LaneOutcome, runLane } from "./emit/run-lane.js";
import { runSideLane, SIDE_LANE } from "./emit/side-lane.js";
import { runTypesLane } from "./emit/types-lane.js";
import { gateSyntax } from "./finalize/finalize.js";
import { loadSpec } from "./load/load-spec.js";
import { buildModel } from "./model/build-model.js";
import type { ApiModel } from "./model/types.js";
import { runWorkerTask, startWorkerTask, type WorkerTask } from "./worker-task.js";
import { checkOutput, type OutputDrift } from "./write/check-output.js";
import { writeOutput } from "./write/write-output.js";

/** The templates shipped with the generator. */
export const DEFAULT_TEMPLATES_DIR = fileURLToPath(new URL("../templates", import.meta.url));

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
 * load → model → emit → finalize → write. Throws GenerationFailed, carrying every diagnostic,
 * when the spec cannot be generated from; the output folder is then left as it was.
 */
export async function generate(options: GenerateOptions): Promise<GenerateResult> {
  // the types lane's worker loads its libraries while this thread loads the spec
  const types = startWorkerTask<LaneInput, LaneOutcome>(import.meta.url, "emit/types-lane-worker", runTypesLane);
  try {
    return await generateWith(types, options);
  } finally {
    types.stop();
  }
}

async function generateWith(types: WorkerTask<LaneInput, LaneOutcome>, options: GenerateOptions): Promise<GenerateResult> {
  const time = stopwatch(options.onStage);
  const loaded = await time("load", () => loadSpec(options.spec));
  options.onSources?.(loaded.files);
  const { model, diagnostics: found } = time("model", () => buildModel(loaded, displayPath(loaded.file)));
  const warnings = [...loaded.diagnostics, ...found];
  if (hasErrors(warnings)) throw new GenerationFailed(await loaded.resolvePositions(warnings));
  // Positions of the warnings are found beside the emitters (in a worker for a large spec).
  const positioned = loaded.resolvePositions(warnings);
  positioned.catch(() => undefined);
  const lane: LaneInput = { model, document: loaded.document, templatesDir: options.templatesDir ?? DEFAULT_TEMPLATES_DIR, formats: options.formats ?? "assert" };
  const emitted = await time("emit", () => emitLanes(lane, types, options.onStage)).catch(async (error: unknown) => {
    if (!(error instanceof GenerationFailed)) throw error;
    throw new GenerationFailed(await loaded.resolvePositions(error.diagnostics));
  });
  const diagnostics = await positioned;
  const files = emitted.sort((a, b) => a.path.localeCompare(b.path));
  const out = resolve(options.out);
  const sources = loaded.files;
  if (options.check) return { model, sources, files, diagnostics, drift: await time("check", () => checkOutput(out, files)) };
  await time("write", () => writeOutput(out, files));
  return { model, sources, files, diagnostics };
}

/** Below this many operations and schemas, starting a worker costs more than it saves. */
const WORKER_THRESHOLD = 150;

/**
 * The lanes of emitters (main-lane.ts): the types lane in its worker; for a large document the side
 * lane in a worker thread of its own, for a small one here, before the main lane. A lane that
 * cannot have a worker runs here. The workers' files pass the syntax gate here, where the main
 * lane has loaded the compiler for its own.
 */
async function emitLanes(lane: LaneInput, types: WorkerTask<LaneInput, LaneOutcome>, onStage: GenerateOptions["onStage"]): Promise<GeneratedFile[]> {
  const large = lane.model.operations.length + lane.model.schemas.length >= WORKER_THRESHOLD;
  const others: [string, Promise<LaneOutcome>][] = [["types lane", types.run(lane)]];
  if (large) others.push(["side lane", runWorkerTask(import.meta.url, "emit/side-lane-worker", lane, runSideLane)]);
  for (const [, outcome] of others) outcome.catch(() => undefined);
  const main = await runLane(large ? MAIN_LANE : [...SIDE_LANE, ...MAIN_LANE], lane, onStage);
  const files = [...main];
  for (const [name, pending] of others) {
    const outcome = await pending;
    if (!outcome.ok) throw new GenerationFailed(outcome.diagnostics);
    for (const [stage, ms] of outcome.stages) onStage?.(`${stage} [${name}]`, ms);
    const started = performance.now();
    files.push(...gateSyntax(outcome.files));
    onStage?.(`syntax gate [${name}]`, performance.now() - started);
  }
  return files;
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
