import type { RunEvent, RunListener } from '../events.js';

/**
 * Progress on stderr: the phase, requests done/total, rate and ETA. Silent when stderr is not a TTY,
 * except for warnings, which always print.
 */
export function progressListener(stream: NodeJS.WriteStream = process.stderr): RunListener {
  const tty = Boolean(stream.isTTY);
  let started = 0;
  let lastDraw = 0;
  return (event: RunEvent) => {
    if (event.type === 'warning') {
      stream.write(`${tty ? '\r\x1b[K' : ''}assay: warning: ${event.message}\n`);
      return;
    }
    if (!tty) return;
    switch (event.type) {
      case 'phase':
        stream.write(`\r\x1b[K[${event.phase}]${event.detail ? ` ${event.detail}` : ''}`);
        break;
      case 'request-batch-start':
        started = performance.now();
        stream.write(`\r\x1b[K[requests] ${event.requestType}: 0/${event.unique}`);
        break;
      case 'request-progress': {
        const now = performance.now();
        if (now - lastDraw < 100 && event.done < event.total) return;
        lastDraw = now;
        const seconds = (now - started) / 1000;
        const rate = seconds > 0 ? event.done / seconds : 0;
        const eta = rate > 0 ? (event.total - event.done) / rate : 0;
        stream.write(
          `\r\x1b[K[requests] ${event.requestType}: ${event.done}/${event.total} ${rate.toFixed(1)} req/s ETA ${eta.toFixed(0)}s`,
        );
        break;
      }
      case 'request-batch-end':
        stream.write(
          `\r\x1b[K[requests] ${event.requestType}: ${event.total} in ${event.seconds.toFixed(1)}s\n`,
        );
        break;
      case 'run-end':
        stream.write('\r\x1b[K');
        break;
      default:
        break;
    }
  };
}
