import { GenerationFailed, hasErrors } from "../../diagnostics/diagnostic.js";
import type { ReadFile } from "../../load/external-schemas.js";
import { type LoadedSpec, loadSpec } from "../../load/load-spec.js";
import { buildModel } from "../../model/build-model.js";
import type { ApiModel } from "../../model/types.js";
import { createSchemaDoc, type SchemaDoc } from "../schema/shape.js";

/** A spec's text and the name it goes by in the report ("spec/openapi.yaml", "git:HEAD:spec/openapi.yaml"). */
export interface SpecSource {
  readonly name: string;
  readonly text: string;
  /** where a spec file is (absolute): its $refs to other files resolve from there */
  readonly path?: string;
  /** reads the other files its $refs reach, from the same place (a checkout, or the same git ref) */
  readonly read?: ReadFile;
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
  const loaded = await loadSpec(
    source.path ?? source.name,
    source.text,
    ...(source.read === undefined ? [] : [source.read]),
  );
  const { model, diagnostics } = buildModel(loaded, source.name);
  if (hasErrors(diagnostics)) throw new GenerationFailed(await loaded.resolvePositions(diagnostics));
  return {
    name: source.name,
    text: source.text,
    loaded,
    model,
    schemas: createSchemaDoc(loaded.document, loaded.version),
  };
}
