import type { Emitter } from "./emitter.js";
import { type LaneInput, type LaneOutcome, runLaneOutcome } from "./run-lane.js";
import { emitTypes } from "./types/emit-types.js";
import { loadOpenapiTypescript } from "./typescript-once.js";

/**
 * The types lane: openapi-typescript. Loading it (and the TypeScript compiler it brings) takes
 * longer than generating everything else for a small document, so the lane's worker loads it as
 * the run starts, while this thread loads the spec (types-lane-worker.ts).
 */
export const TYPES_LANE: readonly Emitter[] = [emitTypes];

/** Loads the lane's library ahead of its input. */
export function preloadTypesLane(): void {
  loadOpenapiTypescript();
}

export function runTypesLane(input: LaneInput): Promise<LaneOutcome> {
  return runLaneOutcome(TYPES_LANE, input);
}
