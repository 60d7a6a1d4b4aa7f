// The tests as JavaScript that `npm run build:tests` transpiled into build/ (one file per
// source file, same layout; build/dist links to the real dist/), which spares every test
// process the TypeScript loader. Every file in a process of its own: the config for one file,
// `npx ava --config ava.compiled.config.js build/test/ROOM/NAME.test.js`. `npm test` and
// `npm run test:quick` run ava.suite.config.js and ava.quick.config.js, built on this one.
// package.json's own "ava" entry still runs test/**/*.test.ts through tsx.
export default {
  files: ['build/test/**/*.test.js'],
  workerThreads: false,
  timeout: '300s',
  concurrency: 4,
};
