/**
 * A schema the compiler cannot turn into a correct validator: an unknown type name, a
 * `$ref` that does not resolve, an invalid regular expression, a keyword with a value of
 * the wrong shape. `pointer` locates the offending keyword (`#/components/schemas/Venue/type`).
 */
export class SchemaCompileError extends Error {
  /** URI-fragment JSON pointer of the offending keyword, e.g. `#/components/schemas/Venue/type` */
  readonly pointer: string;

  constructor(pointer: string, message: string) {
    super(`${pointer}: ${message}`);
    this.name = "SchemaCompileError";
    this.pointer = pointer;
  }
}
