/**
 * Runs jobs pulled lazily from an iterator with at most `limit` in flight. Jobs are created only when a
 * slot frees, so 100,000 requests never exist as 100,000 promises (lm-eval's API path creates them all
 * up front and hangs near 20k, lm-eval #3089). The first job that throws stops the pulling and rejects.
 */
export function streamJobs<J>(
  jobs: Iterator<J>,
  limit: number,
  run: (job: J) => Promise<void>,
): Promise<void> {
  return new Promise((resolve, reject) => {
    let inFlight = 0;
    let exhausted = false;
    let failed = false;
    const pull = (): void => {
      while (!failed && !exhausted && inFlight < limit) {
        const next = jobs.next();
        if (next.done) {
          exhausted = true;
          break;
        }
        inFlight++;
        run(next.value).then(
          () => {
            inFlight--;
            pull();
          },
          (error: unknown) => {
            failed = true;
            reject(error);
          },
        );
      }
      if (exhausted && inFlight === 0 && !failed) resolve();
    };
    pull();
  });
}
