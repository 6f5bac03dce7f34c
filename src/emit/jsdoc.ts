/**
 * Text made safe for a JSDoc comment: "*\/" cannot close the comment early, and the text is
 * trimmed to its lines. Every spec string that reaches a comment goes through here.
 */
export function toJsdocText(text: string): string {
  return text
    .replace(/\*\//g, "*\\/")
    .replace(/\r\n?/g, "\n")
    .replace(/[\u2028\u2029]/g, " ")
    .split("\n")
    .map((line) => line.trimEnd())
    .join("\n")
    .trim();
}

/** A JSDoc block comment with the given text, indented; "" when there is no text. */
export function toJsdocComment(text: string | undefined, indent = ""): string {
  const body = text === undefined ? "" : toJsdocText(text);
  if (body === "") return "";
  const lines = body.split("\n");
  if (lines.length === 1) return `${indent}/** ${lines[0]} */\n`;
  return `${indent}/**\n${lines.map((line) => `${indent} *${line === "" ? "" : ` ${line}`}`).join("\n")}\n${indent} */\n`;
}
