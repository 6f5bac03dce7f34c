/** One failed check, in Ajv's ErrorObject shape. */
export interface ValidationError {
  /** JSON Pointer to the failing value ("" for the whole value) */
  instancePath: string;
  /** pointer to the schema keyword that failed, e.g. "#/components/schemas/Venue/properties/name/maxLength" */
  schemaPath: string;
  keyword: string;
  /** the keyword's values (Ajv's names); frozen, and shared by the errors one check reports */
  readonly params: Readonly<Record<string, unknown>>;
  /** readable text starting with the instance path, e.g. "/name must be at most 150 characters" */
  message: string;
}
/** Options of a validate function. */
export interface ValidateOptions {
  /** collect every error instead of stopping at the first */
  allErrors?: boolean;
}
/** The outcome of a validate function: the (possibly converted) value, or the errors. */
export type ValidationResult<T> =
  | { valid: true; value: T; errors?: undefined }
  | { valid: false; value?: undefined; errors: ValidationError[] };
