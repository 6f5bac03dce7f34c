/**
 * Unit tests of the server runtime (runtime/server/runtime/), one suite per source module.
 * They run in this one file, so in one worker process: a process per module would cost more
 * than all the tests together. Run one module's tests with `-t`, e.g.
 * `npx vitest run test/unit/runtime/server.test.ts -t parseForm`.
 */
import "./server/form.suite.js";
import "./server/parameters.suite.js";
import "./server/content.suite.js";
import "./server/body-stream.suite.js";
import "./server/problems.suite.js";
import "./server/errors.suite.js";
import "./server/request.suite.js";
import "./server/refusals.suite.js";
import "./server/security.suite.js";
import "./server/logging.suite.js";
import "./server/not-found.suite.js";
import "./server/responses.suite.js";
import "./server/json-stream.suite.js";
import "./server/answers.suite.js";
import "./server/multipart.suite.js";
import "./server/pipeline.suite.js";
import "./server/app.suite.js";
import "./server/stop-reading.suite.js";
