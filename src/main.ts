/**
 * The service's entry point (`node dist/main.js`; serve.ts is the process
 * around the service). `node dist/main.js hash-password` prints a password
 * hash for AUTH_USERS, `--help` lists the settings.
 *
 * SIGTERM and SIGINT are taken first, before anything else is loaded:
 * Node's default for both is to end the process there and then (exit 143
 * or 130, not a line), which in the middle of the start-up would leave the
 * store thread unstopped and DATA_DIR's LOCK behind, and an orchestrator
 * sends SIGTERM at any moment of a rolling deploy. Hence nothing is imported
 * at the top of this file: whatever it imported would load before its first
 * line. Only Node's own start comes before (tens of milliseconds); a signal
 * then still ends the process by default, before it has claimed anything.
 *
 * The two commands keep Node's default: they hold no thread, no folder and
 * no socket, and Ctrl-C at the password prompt should end it at once.
 */
const args = process.argv.slice(2);
const [command, ...rest] = args;
if (command === 'hash-password') {
  const { runHashPassword } = await import('./auth/hash-password-command.js');
  process.exitCode = await runHashPassword(rest);
} else if (command === '--help' || command === '-h') {
  const { settingsHelp } = await import('./config/setting-help.js');
  process.stdout.write(settingsHelp());
} else {
  const stopRequest = takeStopSignals();
  const { serve } = await import('./serve.js');
  await serve(args, stopRequest);
}

/** Aborted by the first SIGTERM or SIGINT, with the signal's name as its reason; later ones change nothing (abort happens once). */
function takeStopSignals(): AbortSignal {
  const stop = new AbortController();
  const onSignal = (signal: NodeJS.Signals): void => stop.abort(signal);
  process.on('SIGTERM', onSignal).on('SIGINT', onSignal);
  return stop.signal;
}
