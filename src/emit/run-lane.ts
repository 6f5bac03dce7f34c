import { type Diagnostic, GenerationFailed } from "../diagnostics/diagnostic.js";
import { finalizeFiles } from "../finalize/finalize.js";
import type { ApiModel } from "../model/types.js";
import type { Emitter, GeneratedFile } from "./emitter.js";
import { loadRuntimeFiles } from "./runtime-files.js";
import { loadTemplates } from "./templates.js";
import { compileModelValidators } from "./validators/compile-model.js";

/** What a lane needs, as plain data (it may cross into a worker thread). */
export interface LaneInput {
  readonly model: ApiModel;
  readonly document: Readonly<Record<string, unknown>>;
  readonly templatesDir: string;
  readonly formats: "assert" | "annotate";
}

/**
 * Runs a lane's emitters one after the other and finalizes their files; with `gate: false` the
 * syntax gate is left to the caller (`gateSyntax`), as for a lane in a worker thread.
 */
export async function runLane(emitters: readonly Emitter[], lane: LaneInput, onStage?: (stage: string, ms: number) => void, options: { gate?: boolean } = {}): Promise<GeneratedFile[]> {
  const runtime = loadRuntimeFiles();
  const validators = once(() => compileModelValidators(lane.model, lane.document, lane.formats));
  const input = { model: lane.model, document: lane.document, config: { templates: loadTemplates(lane.templatesDir), runtime, formats: lane.formats, validators } };
  const emitted: GeneratedFile[] = [];
  for (const emit of emitters) {
    const started = performance.now();
    emitted.push(...(await emit(input)));
    onStage?.(`emit ${emit.name}`, performance.now() - started);
  }
  const started = performance.now();
  const files = finalizeFiles(emitted, lane.model.source.specPath, runtime.paths, options);
  onStage?.(`finalize (${emitters.map((e) => e.name).join(", ")})`, performance.now() - started);
  return files;
}

/** A lane's files, or the diagnostics that stopped it (both may cross threads, as data). */
export type LaneOutcome = { ok: true; files: GeneratedFile[]; stages: [string, number][] } | { ok: false; diagnostics: Diagnostic[] };

/**
 * Runs a lane as runLane does, keeping its stage times and turning GenerationFailed into data. The
 * syntax gate is left to the thread that collects the lanes: it has the compiler loaded already,
 * and a worker is spared loading it.
 */
export async function runLaneOutcome(emitters: readonly Emitter[], lane: LaneInput): Promise<LaneOutcome> {
  const stages: [string, number][] = [];
  try {
    return { ok: true, files: await runLane(emitters, lane, (stage, ms) => stages.push([stage, ms]), { gate: false }), stages };
  } catch (error) {
    if (error instanceof GenerationFailed) return { ok: false, diagnostics: [...error.diagnostics] };
    throw error;
  }
}

/** A function computing its value on the first call only. */
function once<T>(compute: () => T): () => T {
  let done: { value: T } | undefined;
  return () => {
    done ??= { value: compute() };
    return done.value;
  };
}
