import type { CompiledValidators } from "../compiler/index.js";
import type { ApiModel } from "../model/types.js";
import type { PagingRule } from "./query/paging.js";
import type { RuntimeFiles } from "./runtime-files.js";
import type { TemplateSet } from "./templates.js";

/** One output file: its path relative to the output folder (with "/"), and its text. */
export interface GeneratedFile {
  readonly path: string;
  readonly content: string;
}

/** Options that change what the emitters write. */
export interface EmitConfig {
  /** the handlebars templates, loaded once per thread */
  readonly templates: TemplateSet;
  /** the runtime modules copied into the output, loaded once per thread */
  readonly runtime: RuntimeFiles;
  /** whether generated validators assert `format` (default) or treat it as an annotation */
  readonly formats: "assert" | "annotate";
  /** the query parameters named in configuration as the ones that page (`--paging`) */
  readonly paging: readonly PagingRule[];
  /** the model's validators, compiled on first use and then shared by the emitters of a thread */
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

/**
 * What an emitter needs beyond its input, which decides the thread it runs in (schedule.ts):
 * the compiled validators (`config.validators()`), or openapi-typescript, a library that takes
 * long to load.
 */
export type EmitterNeed = "validators" | "openapi-typescript";

/** An emitter as the pipeline knows it: the function, and what it needs. */
export interface EmitterEntry {
  readonly emit: Emitter;
  readonly needs?: EmitterNeed;
}
