import { type Diagnostic, GenerationFailed } from "../diagnostics/diagnostic.js";
import { emitClient } from "./client/emit-client.js";
import type { Emitter, GeneratedFile } from "./emitter.js";
import { type LaneInput, runLane } from "./run-lane.js";
import { emitMock } from "./server/emit-mock.js";
import { emitValidators } from "./validators/emit-validators.js";

/**
 * The side lane: the validators, the mock handlers (whose data those validators check) and the
 * client. It runs in a worker thread beside the main lane (main-lane.ts) and so imports nothing of
 * the types emitter (openapi-typescript).
 */
export const SIDE_LANE: readonly Emitter[] = [emitValidators, emitMock, emitClient];

/** The side lane's files, or the diagnostics that stopped it (they may cross threads, as data). */
export type SideLaneOutcome = { ok: true; files: GeneratedFile[]; stages: [string, number][] } | { ok: false; diagnostics: Diagnostic[] };

export async function runSideLane(input: LaneInput): Promise<SideLaneOutcome> {
  const stages: [string, number][] = [];
  try {
    return { ok: true, files: await runLane(SIDE_LANE, input, (stage, ms) => stages.push([stage, ms])), stages };
  } catch (error) {
    if (error instanceof GenerationFailed) return { ok: false, diagnostics: [...error.diagnostics] };
    throw error;
  }
}
