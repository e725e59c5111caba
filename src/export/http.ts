/**
 * The one HTTP call of the export targets: fetch with the target's headers, a time limit, and errors
 * that name what was being done, quote the server's answer (shortened) and never carry a credential.
 * Nothing is retried: a tracking write that timed out may have landed, and MLflow appends metric values,
 * so a blind retry could log a metric twice.
 */
import { AssayError } from '../errors.js';
import { quoteAnswer, redact, redactUrl } from '../util/secrets.js';

export interface HttpCall {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH';
  url: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  /** What the call does, for messages: "create the MLflow run". */
  what: string;
}

export interface HttpAnswer {
  status: number;
  text: string;
}

export interface HttpOptions {
  secrets: readonly string[];
  timeoutMs?: number;
  /** The target's name in messages ("MLflow", "the Hub"). */
  service: string;
}

export function exportError(message: string, secrets: readonly string[]): AssayError {
  return new AssayError('export_error', redact(message, secrets), { exitCode: 1 });
}

/** Sends the call; any answer (2xx or not) comes back, a failure to get one is an AssayError. */
export async function send(call: HttpCall, options: HttpOptions): Promise<HttpAnswer> {
  let response: Response;
  try {
    response = await fetch(call.url, {
      method: call.method,
      headers: call.headers,
      body: call.body as BodyInit | undefined,
      signal: AbortSignal.timeout(options.timeoutMs ?? 60_000),
    });
  } catch (error) {
    const reason = (error as Error).name === 'TimeoutError' ? 'no answer in time' : describe(error);
    throw exportError(
      `cannot ${call.what}: ${call.method} ${redactUrl(call.url)} failed (${reason})`,
      options.secrets,
    );
  }
  return { status: response.status, text: await response.text() };
}

function describe(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (error as Error).message;
}

/** A non-2xx answer as an error: the status and the start of the server's message. */
export function statusError(call: HttpCall, answer: HttpAnswer, options: HttpOptions, hint = ''): AssayError {
  const body = quoteAnswer(answer.text, options.secrets, 300);
  return exportError(
    `cannot ${call.what}: ${options.service} answered HTTP ${answer.status} to ${call.method} ${redactUrl(call.url)}${
      body ? `: ${body}` : ''
    }${hint ? `; ${hint}` : ''}`,
    options.secrets,
  );
}
