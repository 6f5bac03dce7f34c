import { type FSWatcher, watch } from "node:fs";
import { basename, dirname, resolve } from "node:path";
import type { CommandIo } from "./generate-cli.js";
import { DEFAULT_TEMPLATES_DIR, type GenerateOptions } from "./pipeline.js";

const DEBOUNCE_MS = 150;

/**
 * Generates once, then again whenever the spec (or any file beside it, for $refs) or a template
 * changes. Runs until interrupted; a failed run is reported and the next change tries again.
 */
export function watchAndGenerate(options: GenerateOptions, run: (options: GenerateOptions) => Promise<number>, io: CommandIo): Promise<number> {
  return new Promise((done) => {
    let timer: NodeJS.Timeout | undefined;
    let running = Promise.resolve(0);
    const trigger = (): void => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        running = running
          .then(() => run({ ...options, check: false }))
          .then((code) => {
            io.out(`Watching ${options.spec} and the templates for changes (Ctrl+C to stop)\n`);
            return code;
          });
      }, DEBOUNCE_MS);
    };
    const watchers = watchSources(options, trigger);
    process.once("SIGINT", () => {
      for (const watcher of watchers) watcher.close();
      clearTimeout(timer);
      void running.then(() => done(0));
    });
    trigger();
  });
}

function watchSources(options: GenerateOptions, onChange: () => void): FSWatcher[] {
  const specDir = dirname(resolve(options.spec));
  const outDirName = basename(resolve(options.out));
  const specWatcher = watch(specDir, { recursive: true }, (_event, file) => {
    // the output folder may sit beside the spec: our own writes are not changes
    if (file !== null && !String(file).startsWith(outDirName) && !String(file).startsWith(`.${outDirName}`)) onChange();
  });
  const templateWatcher = watch(resolve(options.templatesDir ?? DEFAULT_TEMPLATES_DIR), { recursive: true }, () => onChange());
  return [specWatcher, templateWatcher];
}
