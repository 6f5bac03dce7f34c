import { GenerationFailed, hasErrors } from "../../diagnostics/diagnostic.js";
import { type LoadedSpec, loadSpec } from "../../load/load-spec.js";
import { buildModel } from "../../model/build-model.js";
import type { ApiModel } from "../../model/types.js";
import { createSchemaDoc, type SchemaDoc } from "../schema/shape.js";

/** A spec's text and the name it goes by in the report ("spec/openapi.yaml", "git:HEAD:spec/openapi.yaml"). */
export interface SpecSource {
  readonly name: string;
  readonly text: string;
}

/** One side of a comparison: the document loaded and modelled exactly as generation does it. */
export interface SpecSide {
  readonly name: string;
  readonly text: string;
  readonly loaded: LoadedSpec;
  readonly model: ApiModel;
  readonly schemas: SchemaDoc;
}

/**
 * Loads one side through the generator's load → model. Throws GenerationFailed, with every
 * diagnostic placed at `name:line:col`, when the document could not be generated from.
 */
export async function loadSide(source: SpecSource): Promise<SpecSide> {
  const loaded = await loadSpec(source.name, source.text).catch((error: unknown) => {
    throw source.name.startsWith("git:") && error instanceof GenerationFailed ? explainGitRefs(error) : error;
  });
  const { model, diagnostics } = buildModel(loaded, source.name);
  if (hasErrors(diagnostics)) throw new GenerationFailed(await loaded.resolvePositions(diagnostics));
  return { name: source.name, text: source.text, loaded, model, schemas: createSchemaDoc(loaded.document, loaded.version) };
}

/** A spec read from git is one document: its external $refs would need the other files at that ref. */
function explainGitRefs(error: GenerationFailed): GenerationFailed {
  const message = "external $refs cannot be followed in a spec read from git: compare a checkout's files, or bundle the spec into one document";
  return new GenerationFailed(error.diagnostics.map((d) => (d.code === "REF_EXTERNAL_FAILED" ? { ...d, message } : d)));
}
