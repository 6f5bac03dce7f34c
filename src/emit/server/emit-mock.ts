import { buildMockAnswers, mockValidatorNames } from "../../mock/answers.js";
import { loadValidators } from "../../mock/validators.js";
import type { EmitInput, GeneratedFile } from "../emitter.js";
import { wrap } from "./emit-server.js";

/**
 * generated/server/mock.ts: the mock handlers, each answering its operation's first 2xx response
 * with data checked, at generation time, by the validators the compiler produced for this run
 * (loaded from their JavaScript), so the mock and the server can never disagree on what is valid.
 */
export function emitMock({ model, document, config }: EmitInput): GeneratedFile[] {
  const title = `${model.source.title} (version ${model.source.version})`;
  const validators = loadValidators(config.validators().javascript(mockValidatorNames(model)));
  const fileDoc = wrap(
    `The mock handlers of ${title}: every operation answers its first 2xx response with example data.`,
  );
  return [
    config.templates.file("server/mock.ts", "server/mock.ts", {
      fileDoc,
      answers: buildMockAnswers(model, document, validators),
    }),
  ];
}
