import { type FSWatcher, watch } from "node:fs";
import { basename, dirname, isAbsolute, relative, resolve } from "node:path";
import { DEFAULT_TEMPLATES_DIR, type GenerateOptions } from "../pipeline.js";
import type { CommandIo } from "./command.js";

const DEBOUNCE_MS = 150;

/**
 * Generates once, then again whenever the spec, any file beside it or below, any other file its
 * $refs reach (wherever it is), or a template changes. Runs until interrupted; a failed run is
 * reported and the next change tries again.
 */
export function watchAndGenerate(
  options: GenerateOptions,
  run: (options: GenerateOptions) => Promise<number>,
  io: CommandIo,
): Promise<number> {
  return new Promise((done) => {
    let timer: NodeJS.Timeout | undefined;
    let running = Promise.resolve(0);
    const trigger = (): void => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        running = running
          .then(() => run(watched))
          .then((code) => {
            io.out(`Watching ${options.spec} and the templates for changes (Ctrl+C to stop)\n`);
            return code;
          });
      }, DEBOUNCE_MS);
    };
    const watchers = watchSources(options, trigger);
    const others = new OtherFiles(dirname(resolve(options.spec)), trigger);
    const watched: GenerateOptions = { ...options, check: false, onSources: (files) => others.follow(files) };
    process.once("SIGINT", () => {
      for (const watcher of watchers) watcher.close();
      others.close();
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
  const templateWatcher = watch(resolve(options.templatesDir ?? DEFAULT_TEMPLATES_DIR), { recursive: true }, () =>
    onChange(),
  );
  return [specWatcher, templateWatcher];
}

/**
 * The files a document's $refs reach outside the spec's folder, each followed by a watcher on its
 * folder (files inside the spec's folder are followed by its own watcher). The set is renewed
 * after every load, so a $ref added to another file is followed from the next run.
 */
class OtherFiles {
  readonly #specDir: string;
  readonly #onChange: () => void;
  readonly #watchers = new Map<string, FSWatcher>();
  #files = new Set<string>();

  constructor(specDir: string, onChange: () => void) {
    this.#specDir = specDir;
    this.#onChange = onChange;
  }

  follow(files: readonly string[]): void {
    this.#files = new Set(files.filter((file) => !inside(this.#specDir, file)));
    const dirs = new Set([...this.#files].map((file) => dirname(file)));
    for (const [dir, watcher] of this.#watchers) {
      if (dirs.has(dir)) continue;
      watcher.close();
      this.#watchers.delete(dir);
    }
    for (const dir of dirs) {
      if (this.#watchers.has(dir)) continue;
      this.#watchers.set(
        dir,
        watch(dir, (_event, name) => {
          if (name !== null && this.#files.has(resolve(dir, String(name)))) this.#onChange();
        }),
      );
    }
  }

  close(): void {
    for (const watcher of this.#watchers.values()) watcher.close();
    this.#watchers.clear();
  }
}

function inside(dir: string, file: string): boolean {
  const path = relative(dir, file);
  return path !== "" && !path.startsWith("..") && !isAbsolute(path);
}
