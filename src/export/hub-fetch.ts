/**
 * The fetch every Hub call of an export goes through (@huggingface/hub takes it as `fetch`): each request,
 * from connecting to the last byte of the answer's body, must end within a time limit, or it is aborted
 * with a `HubTimeout` that names the request. Without it, a Hub that accepts the connection and never
 * answers holds the export (and the end of `assay run`) forever.
 *
 * A request that sends a body gets one more second per `UPLOAD_BYTES_PER_SECOND` bytes it sends, so a
 * large sample log going to LFS storage on a slow link is not cut off while it is still being sent.
 */
import { redactUrl } from '../util/secrets.js';

/** The default limit of one Hub request (the MLflow export's is the same). */
export const HUB_REQUEST_TIMEOUT_MS = 60_000;

/** The slowest upload rate the limit allows for: 256 KiB/s. */
export const UPLOAD_BYTES_PER_SECOND = 256 * 1024;

/** A Hub request that did not end within its limit: names the method, the URL and the limit. */
export class HubTimeout extends Error {
  constructor(
    readonly method: string,
    readonly url: string,
    readonly limitMs: number,
  ) {
    super(`no complete answer to ${method} ${redactUrl(url)} within ${seconds(limitMs)} s`);
    this.name = 'HubTimeout';
  }
}

function seconds(ms: number): string {
  return String(Number((ms / 1000).toFixed(3)));
}

function bodyBytes(body: unknown): number {
  if (body === undefined || body === null) return 0;
  if (typeof body === 'string') return Buffer.byteLength(body);
  if (body instanceof Blob) return body.size;
  if (body instanceof ArrayBuffer) return body.byteLength;
  if (ArrayBuffer.isView(body)) return body.byteLength;
  return 0;
}

/** A fetch whose every request ends within `timeoutMs` (plus the upload allowance), or fails with HubTimeout. */
export function timedFetch(timeoutMs: number): typeof fetch {
  return (input, init = {}) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const method = (init.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
    const limitMs = timeoutMs + (bodyBytes(init.body) / UPLOAD_BYTES_PER_SECOND) * 1000;
    const controller = new AbortController();
    // The abort reason is what fetch rejects with, and what a body read after the limit rejects with.
    const timer = setTimeout(() => controller.abort(new HubTimeout(method, url, limitMs)), limitMs);
    // An answer read in full leaves a timer that aborts nothing; it must not keep the process alive.
    timer.unref();
    const signal = init.signal ? AbortSignal.any([init.signal, controller.signal]) : controller.signal;
    return fetch(input, { ...init, signal });
  };
}

/** The HubTimeout behind an error the Hub client raised, if that is what it was. */
export function hubTimeoutOf(error: unknown): HubTimeout | undefined {
  for (let cause = error, depth = 0; cause && depth < 5; depth++) {
    if (cause instanceof HubTimeout) return cause;
    cause = (cause as { cause?: unknown }).cause;
  }
  return undefined;
}
