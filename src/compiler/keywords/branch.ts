import { Block, type Code, code, tsOnly } from "../code/code.js";
import { compileSubschema, FailScope, type NodeCtx } from "./context.js";

/**
 * Compiles a subschema whose failure must not fail the caller directly (anyOf, oneOf, not,
 * if, contains, propertyNames): it runs in a labelled block with its own `ok` flag, which is
 * returned. `silent` drops its errors entirely (not, if, contains, propertyNames) by shadowing
 * the error sink with null inside the block.
 */
export function compileBranch(sub: NodeCtx, out: Block, silent: boolean): Code {
  const ok = sub.fn.fresh("k");
  const scope = new FailScope(ok, sub.fn.fresh("L"));
  const checks = new Block();
  const before = sub.fn.usage;
  compileSubschema({ ...sub, scope }, checks);
  const after = sub.fn.usage;
  out.line(code`let ${ok} = true;`);
  if (checks.empty) return ok;
  out.open(scope.labelUsed && scope.label !== null ? code`${scope.label}:` : code``);
  if (silent && after.sink > before.sink) out.line(code`const e${tsOnly`: $Errors`} = null;`);
  if (silent && after.all > before.all) out.line(code`const a = false;`);
  out.append(checks);
  out.close();
  return ok;
}
