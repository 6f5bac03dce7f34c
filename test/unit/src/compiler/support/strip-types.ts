import ts from "typescript";

/**
 * Turns generated TypeScript into JavaScript by blanking out type syntax with spaces (the
 * approach of ts-blank-space): one parse, no printing, so multi-megabyte modules load fast.
 * It covers the syntax the compiler generates (annotations, `as`, type arguments, optional
 * parameters, interfaces, type aliases, `import type`); anything else fails to load loudly.
 */
export function stripTypes(source: string): string {
  const file = ts.createSourceFile("module.ts", source, ts.ScriptTarget.ES2022, false, ts.ScriptKind.TS);
  const text = source.split("");
  const blank = (start: number, end: number): void => {
    for (let i = start; i < end; i++) if (text[i] !== "\n") text[i] = " ";
  };
  const visit = (node: ts.Node): void => {
    if (isTypeOnly(node)) {
      blank(node.getStart(file), node.end);
      return;
    }
    blankParts(node, file, blank);
    ts.forEachChild(node, visit);
  };
  visit(file);
  return text.join("");
}

function isTypeOnly(node: ts.Node): boolean {
  if (ts.isInterfaceDeclaration(node) || ts.isTypeAliasDeclaration(node)) return true;
  if (
    ts.isModuleDeclaration(node) &&
    node.modifiers?.some((modifier) => modifier.kind === ts.SyntaxKind.DeclareKeyword) === true
  )
    return true;
  return ts.isImportDeclaration(node) && node.importClause?.isTypeOnly === true;
}

function blankParts(node: ts.Node, file: ts.SourceFile, blank: (start: number, end: number) => void): void {
  if ((ts.isParameter(node) || ts.isVariableDeclaration(node) || ts.isFunctionLike(node)) && node.type !== undefined) {
    blank(colonBefore(node.type, file), node.type.end);
  }
  if (ts.isParameter(node) && node.questionToken !== undefined)
    blank(node.questionToken.getStart(file), node.questionToken.end);
  if (ts.isAsExpression(node)) blank(node.expression.end, node.end);
  if ((ts.isNewExpression(node) || ts.isCallExpression(node)) && node.typeArguments !== undefined) {
    blank(node.typeArguments.pos - 1, node.typeArguments.end + 1);
  }
  if (ts.isFunctionLike(node) && node.typeParameters !== undefined)
    blank(node.typeParameters.pos - 1, node.typeParameters.end + 1);
}

/** Position of the `:` that introduces a type annotation. */
function colonBefore(type: ts.TypeNode, file: ts.SourceFile): number {
  const text = file.text;
  let at = type.getStart(file) - 1;
  while (at > 0 && text[at] !== ":") at--;
  return at;
}
