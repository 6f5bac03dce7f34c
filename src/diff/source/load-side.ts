import { GenerationFailed, hasErrors } from "../../diagnostics/diagnostic.js";
import { loadSpec, type LoadedSpec } from "../../load/load-spec.js";
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
  const loaded = await loadSpec(source.name, source.text);
  const { model, diagnostics } = buildModel(loaded, source.name);
  if (hasErrors(diagnostics)) throw new GenerationFailed(await loaded.resolvePositions(diagnostics));
  return { name: source.name, text: source.text, loaded, model, schemas: createSchemaDoc(loaded.document, loaded.version) };
}
