export default { files: ['build/quick/*.test.js'], workerThreads: false, timeout: '300s', concurrency: 4 };
