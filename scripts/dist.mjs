#!/usr/bin/env node
/**
 * The package's built form, dist/: generated/ compiled by tsconfig.build.json, then the sandbox
 * by tsconfig.sandbox.json (against dist/'s declarations, as a user of the package compiles).
 *
 *   node scripts/dist.mjs build            builds dist/ from scratch (npm run build, npm pack)
 *
 * `npm start` does not run dist/: it runs the sandbox bundled by esbuild (./run-bundled.mjs), about
 * a second to make where this build takes 12 s of CPU.
 */
import { rmSync, utimesSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const dist = join(root, "dist");
const stamp = join(dist, ".built");

/**
 * Compiles each configuration as `tsc -p <config> --noCheck` does (JavaScript and declarations,
 * without type checking: `npm test` typechecks), in this process, one after the other. The
 * declaration files of the libraries and of TypeScript's own lib are parsed once, for both:
 * the second costs a third of a process of its own.
 */
function compile(configs) {
  const ts = createRequire(import.meta.url)("typescript");
  const shared = new Map();
  const format = process.stderr.isTTY ? ts.formatDiagnosticsWithColorAndContext : ts.formatDiagnostics;
  const report = (diagnostics) =>
    format(diagnostics, {
      getCanonicalFileName: (name) => name,
      getCurrentDirectory: () => root,
      getNewLine: () => "\n",
    });
  for (const config of configs) {
    const parsed = ts.getParsedCommandLineOfConfigFile(
      join(root, config),
      { noCheck: true },
      {
        ...ts.sys,
        onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
          throw new Error(report([diagnostic]));
        },
      },
    );
    const host = ts.createCompilerHost(parsed.options);
    const read = host.getSourceFile.bind(host);
    // a library's declarations (never this package's own, which the first configuration writes)
    host.getSourceFile = (name, language, onError, create) => {
      if (!name.endsWith(".d.ts") || !name.includes("/node_modules/")) return read(name, language, onError, create);
      const key = `${name}\0${JSON.stringify(language)}`;
      if (!shared.has(key)) shared.set(key, read(name, language, onError, create));
      return shared.get(key);
    };
    const program = ts.createProgram({
      rootNames: parsed.fileNames,
      options: parsed.options,
      host,
      configFileParsingDiagnostics: parsed.errors,
    });
    const diagnostics = [
      ...program.getConfigFileParsingDiagnostics(),
      ...program.getOptionsDiagnostics(),
      ...program.getSyntacticDiagnostics(),
      ...program.emit().diagnostics,
    ];
    if (diagnostics.length > 0) return { config, output: report(diagnostics) };
  }
  return undefined;
}

/** Builds dist/ from scratch; exits with status 1 when it fails. */
function build() {
  const started = Date.now();
  rmSync(dist, { recursive: true, force: true });
  const failed = compile(["tsconfig.build.json", "tsconfig.sandbox.json"]);
  if (failed !== undefined) {
    process.stderr.write(failed.output);
    console.error(`building dist/ failed (${failed.config}, above); npm test typechecks everything and says more`);
    process.exit(1);
  }
  writeFileSync(stamp, `built in ${Date.now() - started} ms\n`);
  // dated when the build began: a source saved during the build makes the next run build again
  utimesSync(stamp, started / 1000, started / 1000);
}

if (process.argv[2] === "build" && process.argv.length === 3) build();
else {
  console.error("usage: node scripts/dist.mjs build");
  process.exit(2);
}
