/**
 * The validator helpers: the functions and constants generated validator modules call, written
 * once here as real TypeScript. A TypeScript module gets the text of those it uses
 * (compiler/code/helpers.ts reads these files); the generator's own checks of the mock's data run
 * the compiler's JavaScript with these very functions.
 */
export * from "./coerce.js";
export * from "./errors.js";
export * from "./format-datetime.js";
export * from "./format-idna.js";
export * from "./format-network.js";
export * from "./module.js";
export * from "./standard-schema.js";
export * from "./tracking.js";
export * from "./values.js";
