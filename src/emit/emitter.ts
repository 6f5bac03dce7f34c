import type { CompiledValidators } from "../compiler/index.js";
import type { ApiModel } from "../model/types.js";
import type { RuntimeFiles } from "./runtime-files.js";
import type { TemplateSet } from "./templates.js";

/** One output file: its path relative to the output folder (with "/"), and its text. */
export interface GeneratedFile {
  readonly path: string;
  readonly content: string;
  /**
   * What the syntax gate (finalize.ts) is still to parse in place of `content`: from the
   * templates, a rendered file's code with its printed data literals left empty; after a
   * finalize that leaves the gate to another thread, the text to check of every file that needs
   * it. Absent once checked.
   */
  readonly gate?: string;
}

/** Options that change what the emitters write. */
export interface EmitConfig {
  /** the handlebars templates, loaded once per run */
  readonly templates: TemplateSet;
  /** the runtime modules copied into the output, loaded once per run */
  readonly runtime: RuntimeFiles;
  /** whether generated validators assert `format` (default) or treat it as an annotation */
  readonly formats: "assert" | "annotate";
  /** the model's validators, compiled on first use and then shared by the emitters of a lane */
  readonly validators: () => CompiledValidators;
}

/** What every emitter receives: the model, the bundled document its pointers point into, and config. */
export interface EmitInput {
  readonly model: ApiModel;
  readonly document: Readonly<Record<string, unknown>>;
  readonly config: EmitConfig;
}

/** An emitter is a pure function of its input: it never touches the disk or another emitter. */
export type Emitter = (input: EmitInput) => readonly GeneratedFile[] | Promise<readonly GeneratedFile[]>;
