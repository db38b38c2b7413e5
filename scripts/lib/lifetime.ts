/**
 * Run `stop` once when this process is asked to end: SIGINT (Ctrl-C), SIGTERM, SIGHUP, or when the
 * process that started it goes away (a shell or `npm run` killed by PID leaves its children behind,
 * re-parented; we notice within `pollMs` and stop). Then exit with `code`.
 *
 * @param stop - Stops every service this process started (each by its own PID).
 * @param pollMs - How often to check that the parent is still the one that started us, in ms.
 */
export function stopOnExit(stop: () => Promise<void>, pollMs = 250): void {
  const parent = process.ppid;
  let stopping = false;
  /**
   * Stop once, then exit.
   *
   * @param code - The exit code.
   */
  const shutdown = (code: number): void => {
    if (stopping) {
      return;
    }
    stopping = true;
    stop()
      .catch((error: unknown) => console.error(error))
      .finally(() => process.exit(code));
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.on(signal, () => shutdown(0));
  }
  const watch = setInterval(() => {
    if (process.ppid !== parent) {
      shutdown(0);
    }
  }, pollMs);
  watch.unref();
}
