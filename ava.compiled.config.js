// `npm test` runs the tests as JavaScript that `npm run build:tests` transpiled
// into build/ (one file per source file, same layout; build/dist links to the
// real dist/), which spares every test process the TypeScript loader.
// package.json's own "ava" entry still runs test/**/*.test.ts through tsx.
export default {
  files: ['build/test/**/*.test.js'],
  workerThreads: false,
  timeout: '300s',
  concurrency: 4,
};
