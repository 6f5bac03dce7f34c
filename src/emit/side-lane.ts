import type { Emitter } from "./emitter.js";
import { type LaneInput, type LaneOutcome, runLaneOutcome } from "./run-lane.js";
import { emitMock } from "./server/emit-mock.js";
import { emitValidators } from "./validators/emit-validators.js";

/**
 * The side lane: the validators and the mock handlers (whose data those validators check). For a
 * large document it runs in a worker thread beside the main lane (main-lane.ts); it imports
 * nothing of the types emitter (openapi-typescript).
 */
export const SIDE_LANE: readonly Emitter[] = [emitValidators, emitMock];

export function runSideLane(input: LaneInput): Promise<LaneOutcome> {
  return runLaneOutcome(SIDE_LANE, input);
}
