import { Block, type Code, code, comment, str, tsOnly } from "../code/code.js";
import { FailScope, FunctionBuilder, InstancePath, type NodeCtx } from "../keywords/context.js";
import { compileNode } from "../keywords/node.js";
import type { FunctionRequest, ModuleState } from "./module-state.js";

/**
 * One validator function: `(d, e, a, depth[, t]) => boolean`. `e` collects errors (null:
 * just answer), `a` asks for all errors, `depth` bounds recursion, `t` receives
 * evaluated-property/item annotations for the caller's unevaluated* keywords.
 */
export function compileFunction(module: ModuleState, request: FunctionRequest): Code {
  const body = new Block();
  const schemaPath = module.registry.schemaPath(request.location);
  const ctx = rootContext(module, request, schemaPath);
  compileNode(ctx, body);
  if (request.tracking) module.helper("tracker");
  const out = new Block();
  out.line(comment(schemaPath));
  const bounded = module.graph.mayRecur(request.location);
  out.open(code`function ${request.name}(${parameters(ctx, body, request.tracking, bounded)})${tsOnly`: boolean`}`);
  // the function's own path, when its errors' paths start with it (FunctionBuilder.schemaPath)
  const own = ctx.fn.usesSchemaPath ? code`sp` : str(schemaPath);
  if (ctx.fn.usesSchemaPath) out.line(code`const sp = ${str(schemaPath)};`);
  // only a schema that may recur can meet an instance deeper than its own nesting
  if (bounded) out.line(code`if (depth > $MAX_DEPTH) return ${module.helper("deep")}(e, ${own});`);
  if (body.empty) {
    out.line(code`return true;`);
  } else {
    out.line(code`let ok = true;`);
    out.append(body);
    out.line(code`return ok;`);
  }
  out.close();
  // flattened right away so the function's block tree can be collected young
  return out.toCode();
}

/** Parameters the body never reads get a leading underscore, for projects checking unused parameters. */
function parameters(ctx: NodeCtx, body: Block, tracking: boolean, bounded: boolean): Code {
  const data = body.mentions(/\bd\b/) ? code`d` : code`_d`;
  const depth = bounded || body.mentions(/\bdepth\b/) ? code`depth` : code`_depth`;
  const sink = bounded || body.mentions(/\be\b/) ? code`e` : code`_e`;
  const all = ctx.fn.usage.all > 0 ? code`a` : code`_a`;
  const tracker = !tracking ? code`` : code`, ${body.mentions(/\bt\b/) ? code`t` : code`_t`}${tsOnly`: $Evaluated`}`;
  return code`${data}${tsOnly`: unknown`}, ${sink}${tsOnly`: $Errors`}, ${all}${tsOnly`: boolean`}, ${depth}${tsOnly`: number`}${tracker}`;
}

function rootContext(module: ModuleState, request: FunctionRequest, schemaPath: string): NodeCtx {
  const { registry } = module;
  const { location } = request;
  return {
    fn: new FunctionBuilder(module, compileNode, schemaPath),
    schema: registry.schemaAt(location),
    at: location,
    base: registry.baseOf(location),
    data: code`d`,
    path: InstancePath.root,
    scope: new FailScope(code`ok`, null),
    evaluated: request.tracking ? code`t` : null,
    direction: request.direction,
    dynamic: request.dynamic,
  };
}
