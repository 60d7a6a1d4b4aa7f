// `npm run test:quick`: the in-process rooms only, in the groups `npm test` runs them in
// (test/helpers/runner/room-groups.ts writes them into build/groups/), property and fuzz
// tests at a quarter of their cases (test/helpers/property-runs.ts).
import compiled from './ava.compiled.config.js';

export default { ...compiled, files: ['build/groups/*.test.js'], environmentVariables: { PROPERTY_RUNS_SCALE: '0.25' } };
