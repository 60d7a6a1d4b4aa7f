// `npm run test:quick`: the in-process rooms (test/unit/, test/http/) in groups of a few
// files per process (test/helpers/runner/quick-groups.ts writes them into build/quick/),
// property and fuzz tests at a quarter of their cases (test/helpers/property-runs.ts).
// `npm test` (ava.compiled.config.js) runs every file in a process of its own, every case.
import compiled from './ava.compiled.config.js';

export default { ...compiled, files: ['build/quick/*.test.js'], environmentVariables: { PROPERTY_RUNS_SCALE: '0.25' } };
