/**
 * Started by npm (`npm start`), the server stops when npm is gone. npm passes SIGINT and
 * SIGTERM on to the script it runs, but npm ended any other way (SIGHUP from a closed
 * terminal, SIGKILL, a crash) would leave the server running and holding its port. Once
 * its parent has exited, a process's parent changes (to init or a subreaper): then the
 * process sends itself SIGTERM and stops as a signal would stop it. A fleet's workers watch
 * their primary the same way.
 */
export function stopWithParent(startedByNpm: boolean, intervalMs = 500): void {
  if (!startedByNpm) return;
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(timer);
    process.kill(process.pid, 'SIGTERM');
  }, intervalMs);
  timer.unref();
}
