// Through the programmatic API of the package (src/index.ts), as users call it.
import { type CompileModuleOptions, compileSchema, compileValidatorModule } from "../../../../../src/index.js";
import { loadModule, type Validate, validatorOf } from "./load.js";

/** Compiles one JSON Schema with `compileSchema` and returns its default export. */
export async function validatorFor(schema: unknown, formats?: "assert" | "annotate"): Promise<Validate> {
  const source = compileSchema(schema, formats === undefined ? {} : { formats });
  return validatorOf(await loadModule(source), "default");
}

/** Compiles a module and returns its exports. */
export async function moduleFor(options: CompileModuleOptions): Promise<Record<string, unknown>> {
  return loadModule(compileValidatorModule(options));
}

/** A nested instance `{ child: { child: ... } }` of the given depth, built without recursion. */
export function nested(depth: number): unknown {
  let value: Record<string, unknown> = {};
  for (let i = 0; i < depth; i++) value = { child: value };
  return value;
}
