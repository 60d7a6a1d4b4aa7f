// `npm test`: the in-process rooms (test/unit/, test/http/) in groups of up to twelve files of
// one folder per process (test/helpers/runner/room-groups.ts writes them into build/groups/),
// the process and fault rooms a process per file, every property case.
// One file alone: ava.compiled.config.js (docs/testing.md).
import compiled from './ava.compiled.config.js';

export default { ...compiled, files: ['build/groups/*.test.js', 'build/test/process/**/*.test.js', 'build/test/faults/**/*.test.js'] };
