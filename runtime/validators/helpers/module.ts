/**
 * What every validator module declares beside the public types: the error sink its functions
 * share, and how deep they may call each other.
 */
import type { ValidationError } from "../types.js";

export interface $Sink { valid: boolean; value?: unknown; errors?: ValidationError[] }
export type $Errors = $Sink | null;
export const $MAX_DEPTH = 1000;
