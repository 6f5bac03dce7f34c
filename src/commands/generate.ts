import { parseArgs } from "node:util";
import { type Diagnostic, GenerationFailed } from "../diagnostics/diagnostic.js";
import { formatDiagnostic, sortDiagnostics } from "../diagnostics/format.js";
import { parsePagingRules } from "../emit/query/paging.js";
import { type GenerateOptions, generate } from "../pipeline.js";
import { isInSync, type OutputDrift } from "../write/check-output.js";
import type { CommandIo } from "./command.js";
import { watchAndGenerate } from "./watch.js";

const USAGE = `Usage: npm run generate -- [options]

  --spec FILE      the OpenAPI 3.0/3.1 document (default: spec/openapi.yaml)
  --out DIR        the output folder (default: generated)
  --check          write nothing; exit 1 and list every file that differs, is missing or is stale
  --watch          regenerate when the spec or a template changes
  --formats MODE   "assert" (default): validators check \`format\`; "annotate": they ignore it
  --paging NAME    the optional query parameter that pages GET operations (infinite query
                   options), beside cursor, offset, page and their kin; operationId=NAME for one
                   operation; may be repeated
  --include-operation SELECTOR
                   generate only the operations it selects: an operationId, tag:NAME or
                   path:GLOB (* within a path segment, ** across segments); may be repeated
  --exclude-operation SELECTOR
                   leave out the operations it selects (after the includes); may be repeated.
                   What only the operations left out use is left out too
  --templates DIR  use these handlebars templates instead of the built-in ones
  --debug          print the duration of every stage
  --help           show this text`;

/** `npm run generate`: parses arguments, runs the pipeline, prints diagnostics and a summary; returns the exit code. */
export async function runGenerateCommand(argv: readonly string[], io: CommandIo): Promise<number> {
  let parsed: ReturnType<typeof parseOptions>;
  try {
    parsed = parseOptions(argv, io);
  } catch (error) {
    io.err(`error ${(error as Error).message}\n\n${USAGE}\n`);
    return 2;
  }
  if (parsed.help) {
    io.out(`${USAGE}\n`);
    return 0;
  }
  if (parsed.watch) return watchAndGenerate(parsed.options, (options) => runOnce(options, io), io);
  return runOnce(parsed.options, io);
}

function parseOptions(
  argv: readonly string[],
  io: CommandIo,
): { options: GenerateOptions; watch: boolean; help: boolean } {
  const { values } = parseArgs({
    args: [...argv],
    strict: true,
    options: {
      spec: { type: "string", default: "spec/openapi.yaml" },
      out: { type: "string", default: "generated" },
      check: { type: "boolean", default: false },
      watch: { type: "boolean", default: false },
      formats: { type: "string", default: "assert" },
      paging: { type: "string", multiple: true, default: [] },
      "include-operation": { type: "string", multiple: true, default: [] },
      "exclude-operation": { type: "string", multiple: true, default: [] },
      templates: { type: "string" },
      debug: { type: "boolean", default: false },
      help: { type: "boolean", default: false },
    },
  });
  if (values.formats !== "assert" && values.formats !== "annotate")
    throw new Error(`--formats must be "assert" or "annotate", not "${values.formats}"`);
  if (values.check && values.watch) throw new Error("--check and --watch cannot be combined");
  const options: GenerateOptions = {
    spec: values.spec,
    out: values.out,
    check: values.check,
    formats: values.formats,
    paging: parsePagingRules(values.paging),
    operations: { include: values["include-operation"], exclude: values["exclude-operation"] },
    ...(values.templates !== undefined ? { templatesDir: values.templates } : {}),
    ...(values.debug ? { onStage: (stage: string, ms: number) => io.err(`  ${stage}: ${ms.toFixed(0)} ms\n`) } : {}),
  };
  return { options, watch: values.watch, help: values.help };
}

/** One generation: prints what happened and returns 0 (success), or 1 (errors, or drift with --check). */
export async function runOnce(options: GenerateOptions, io: CommandIo): Promise<number> {
  const started = performance.now();
  try {
    const result = await generate(options);
    printDiagnostics(result.diagnostics, io);
    const seconds = ((performance.now() - started) / 1000).toFixed(2);
    if (result.drift !== undefined) return reportDrift(options.out, result.drift, result.files.length, io);
    io.out(`Generated ${result.files.length} files in ${options.out}/ from ${options.spec} (${seconds} s)\n`);
    return 0;
  } catch (error) {
    if (!(error instanceof GenerationFailed)) throw error;
    printDiagnostics(error.diagnostics, io);
    const errors = error.diagnostics.filter((d) => d.severity === "error").length;
    io.err(`Generation failed: ${errors} error(s). ${options.check ? "" : `${options.out}/ was left as it was.`}\n`);
    return 1;
  }
}

function printDiagnostics(diagnostics: readonly Diagnostic[], io: CommandIo): void {
  for (const diagnostic of sortDiagnostics(diagnostics)) io.err(`${formatDiagnostic(diagnostic)}\n`);
}

function reportDrift(out: string, drift: OutputDrift, count: number, io: CommandIo): number {
  if (isInSync(drift)) {
    io.out(`${out}/ is up to date with the spec (${count} files)\n`);
    return 0;
  }
  const lines = [
    ...drift.changed.map((file) => `  changed: ${out}/${file}`),
    ...drift.missing.map((file) => `  missing: ${out}/${file}`),
    ...drift.stale.map((file) => `  stale:   ${out}/${file} (no longer generated)`),
  ];
  io.err(
    `${out}/ is out of date with the spec:\n${lines.join("\n")}\nRun \`npm run generate\` and commit the result.\n`,
  );
  return 1;
}
