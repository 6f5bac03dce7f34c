/**
 * What every validator module declares beside the public types: the error sink its functions
 * share.
 */
import type { ValidationError } from "../types.js";

export interface $Sink { valid: boolean; value?: unknown; errors?: ValidationError[] }
export type $Errors = $Sink | null;
