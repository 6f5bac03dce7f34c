// Every 2xx response (except 204 and 205, which have no body) must declare content, and every media
// type in it must have a schema, so the generated client and server can type and check the answer.
import { createRulesetFunction } from "@stoplight/spectral-core";

const BODYLESS = new Set(["204", "205"]);

export default createRulesetFunction({ input: { type: "object" }, options: null }, (responses, _opts, context) => {
  const results = [];
  for (const [status, response] of Object.entries(responses)) {
    if (!/^2(\d\d|XX)$/.test(status) || BODYLESS.has(status)) continue;
    const content = response?.content;
    if (content === undefined || Object.keys(content).length === 0) {
      results.push({
        message: `Response ${status} has no content: declare its media type and schema.`,
        path: [...context.path, status],
      });
      continue;
    }
    for (const [mediaType, media] of Object.entries(content)) {
      if (media?.schema === undefined) {
        results.push({
          message: `Response ${status} ${mediaType} has no schema.`,
          path: [...context.path, status, "content", mediaType],
        });
      }
    }
  }
  return results;
});
