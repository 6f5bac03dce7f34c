import { type Diagnostic, GenerationFailed } from "../diagnostics/diagnostic.js";
import type { ApiModel } from "../model/types.js";
import type { EmitterEntry, GeneratedFile } from "./emitter.js";
import type { PagingRule } from "./query/paging.js";
import { loadRuntimeFiles } from "./runtime-files.js";
import { loadTemplates } from "./templates.js";
import { compileModelValidators } from "./validators/compile-model.js";

/** What the emitters of a thread need, as plain data (it may cross into a worker thread). */
export interface EmitTask {
  readonly model: ApiModel;
  readonly document: Readonly<Record<string, unknown>>;
  readonly templatesDir: string;
  readonly formats: "assert" | "annotate";
  readonly paging: readonly PagingRule[];
}

/** Receives the duration of a stage. */
export type OnStage = (stage: string, milliseconds: number) => void;

/**
 * Runs emitters one after the other in this thread: they share one load of the templates and the
 * runtime, and one compilation of the validators (on first use).
 */
export async function runEmitters(
  emitters: readonly EmitterEntry[],
  task: EmitTask,
  onStage?: OnStage,
): Promise<GeneratedFile[]> {
  const validators = once(() => compileModelValidators(task.model, task.document, task.formats));
  const config = {
    templates: loadTemplates(task.templatesDir),
    runtime: loadRuntimeFiles(),
    formats: task.formats,
    paging: task.paging,
    validators,
  };
  const input = { model: task.model, document: task.document, config };
  const files: GeneratedFile[] = [];
  for (const { emit } of emitters) {
    const started = performance.now();
    files.push(...(await emit(input)));
    onStage?.(`emit ${emit.name}`, performance.now() - started);
  }
  return files;
}

/** What a worker thread answers: its files and stage times, or the diagnostics that stopped it (both plain data). */
export type EmitOutcome =
  | { ok: true; files: GeneratedFile[]; stages: [string, number][] }
  | { ok: false; diagnostics: Diagnostic[] };

/** Runs emitters as runEmitters does, keeping the stage times and turning GenerationFailed into data. */
export async function runEmittersOutcome(emitters: readonly EmitterEntry[], task: EmitTask): Promise<EmitOutcome> {
  const stages: [string, number][] = [];
  try {
    return { ok: true, files: await runEmitters(emitters, task, (stage, ms) => stages.push([stage, ms])), stages };
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
