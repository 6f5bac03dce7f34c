/** The storm's plan: each kind of abuse and how many cases of it, drawn with a fixed seed. */
import fc from "fast-check";
import { brokenJson, brokenMultipart, deepNesting, formFields, nearLimit, wrongTypes } from "./cases-body.js";
import {
  badEscapes,
  badKeys,
  chunkedBodies,
  contentTypes,
  ids,
  lengthMismatch,
  manyHeaders,
  queryFlood,
  randomBytes,
  slowSenders,
} from "./cases-transport.js";
import type { StormCase } from "./model.js";

const SEED = 20_261_122;

/** Each kind of abuse and how many cases of it. */
export const PLAN: readonly (readonly [fc.Arbitrary<StormCase>, number])[] = [
  [randomBytes, 600],
  [brokenJson, 600],
  [wrongTypes, 1200],
  [deepNesting, 32],
  [nearLimit, 48],
  [lengthMismatch, 300],
  [chunkedBodies, 400],
  [contentTypes, 400],
  [badKeys, 600],
  [badEscapes, 400],
  [ids, 800],
  [queryFlood, 24],
  [formFields, 160],
  [brokenMultipart, 240],
  [manyHeaders, 120],
  [slowSenders, 120],
];

/** Every case of the plan, the same on every run. */
export function stormCases(): StormCase[] {
  return PLAN.flatMap(([arbitrary, count], index) => fc.sample(arbitrary, { seed: SEED + index, numRuns: count }));
}
