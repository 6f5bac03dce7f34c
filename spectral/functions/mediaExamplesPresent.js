// Every request and response body must carry at least one example, so reviewers and the mock server
// have a concrete instance (the built-in oas3-valid-media-example rule checks each against its schema).
import { createRulesetFunction } from "@stoplight/spectral-core";

export default createRulesetFunction({ input: { type: "object" }, options: null }, (content, _opts, context) => {
  const results = [];
  for (const [mediaType, media] of Object.entries(content)) {
    const hasExample = media?.example !== undefined || Object.keys(media?.examples ?? {}).length > 0;
    if (!hasExample) {
      results.push({
        message: `${mediaType} body has no example: add \`examples\`.`,
        path: [...context.path, mediaType],
      });
    }
  }
  return results;
});
