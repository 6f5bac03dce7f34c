import { GenerationFailed } from "../diagnostics/diagnostic.js";
import { startWorkerTask, type WorkerTask } from "../worker-task.js";
import type { EmitterEntry, EmitterNeed, GeneratedFile } from "./emitter.js";
import { EMITTERS } from "./emitters.js";
import { type EmitOutcome, type EmitTask, type OnStage, runEmitters, runEmittersOutcome } from "./run-emitters.js";
import { loadOpenapiTypescript } from "./typescript-once.js";

/**
 * Needs whose emitters run in a worker started with the run, which loads the library while this
 * thread loads the spec: openapi-typescript, with the TypeScript compiler it brings, takes longer
 * to load than the rest of a small document takes to generate.
 */
const PRELOADED: Readonly<Partial<Record<EmitterNeed, () => void>>> = { "openapi-typescript": loadOpenapiTypescript };

/** Below this many operations and schemas, starting a worker costs more than it saves. */
const WORKER_THRESHOLD = 150;

/**
 * Where the emitters with a need run, for a document of `size` operations and schemas: in a
 * worker of their own, or here. A preloaded library's emitters always have their worker; the
 * validators' (the compiler, and the mock, which checks its data with them) have one for a large
 * document. Emitters that need neither run here, after the validators' when those run here too.
 */
export function runsInWorker(need: EmitterNeed | undefined, size: number): boolean {
  if (need === undefined) return false;
  return PRELOADED[need] !== undefined || size >= WORKER_THRESHOLD;
}

/** The emit stage, its preloading workers started ahead of its task. */
export interface EmitSchedule {
  /** runs every emitter (emitters.ts) where `runsInWorker` says; resolves with all their files */
  run(task: EmitTask, onStage?: OnStage): Promise<GeneratedFile[]>;
  /** ends the workers (a run that never came, or one that failed) */
  stop(): void;
}

/** Starts the workers of the preloaded needs; where the others run is decided per task. */
export function scheduleEmitters(): EmitSchedule {
  const needs = [...new Set(EMITTERS.flatMap((entry) => (entry.needs === undefined ? [] : [entry.needs])))];
  const ahead = new Map(
    needs.filter((need) => PRELOADED[need] !== undefined).map((need) => [need, startNeedWorker(need)]),
  );
  return {
    async run(task, onStage) {
      const size = task.model.operations.length + task.model.schemas.length;
      const workers = needs
        .filter((need) => runsInWorker(need, size))
        .map((need) => ({ need, outcome: (ahead.get(need) ?? startNeedWorker(need)).run(task) }));
      for (const { outcome } of workers) outcome.catch(() => undefined);
      const files = await runEmitters(
        EMITTERS.filter((entry) => !runsInWorker(entry.needs, size)),
        task,
        onStage,
      );
      for (const { need, outcome } of workers) {
        const answer = await outcome;
        if (!answer.ok) throw new GenerationFailed(answer.diagnostics);
        for (const [stage, ms] of answer.stages) onStage?.(`${stage} [worker: ${need}]`, ms);
        files.push(...answer.files);
      }
      return files;
    },
    stop() {
      for (const worker of ahead.values()) worker.stop();
    },
  };
}

/** A worker for the emitters with this need (emit-worker.ts), or this thread when none can run. */
function startNeedWorker(need: EmitterNeed): WorkerTask<EmitTask, EmitOutcome> {
  return startWorkerTask(import.meta.url, "emit-worker", (task: EmitTask) => runNeed(need, task), need);
}

/** Runs the emitters with this need, in their order (what a worker does). */
export function runNeed(need: EmitterNeed, task: EmitTask): Promise<EmitOutcome> {
  return runEmittersOutcome(
    EMITTERS.filter((entry: EmitterEntry) => entry.needs === need),
    task,
  );
}

/** In a worker: loads the need's library, if it is one that takes long to load, ahead of the task. */
export function preload(need: EmitterNeed): void {
  PRELOADED[need]?.();
}
