/**
 * Export to an MLflow tracking server through its REST API (`/api/2.0/mlflow/...`), as the MLflow
 * clients do: the experiment by name (got, or created), one run whose params are the run's settings and
 * seeds, whose metrics are every `metric,filter` with its stderr and interval (and, per task, its errored
 * and timed-out samples), whose tags are the task hashes, assay's version and whether the run is partial
 * (`assay.partial`, `assay.partial_reason`: a limit, a shard, errored or timed-out docs), and whose artifacts (the results file, sample logs and leaderboard, as
 * they are on disk) go through the tracking server's artifact proxy
 * (`/api/2.0/mlflow-artifacts/artifacts/...`), so a downloaded run folder reads in `assay compare`.
 *
 * Hand-written: the npm `mlflow` client has no artifact upload. Everything is built and checked against
 * MLflow's limits before the first request, so a run that cannot be logged fails before it is created.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { AssayError } from '../errors.js';
import { startOperation } from '../events.js';
import { redactUrl } from '../util/secrets.js';
import { type HttpCall, type HttpOptions, send, statusError } from './http.js';
import { metricPoints } from './metrics.js';
import { type ExportSource, runFiles } from './source.js';
import type { ExportContext, ExportReport } from './target.js';

export interface MlflowSettings {
  /** `http(s)://host[:port][/prefix]`, from MLFLOW_TRACKING_URI. */
  trackingUri: string;
  experimentName: string;
  runName?: string;
  /** Upload the results file, sample logs and leaderboard (default true). */
  artifacts: boolean;
  auth?: { token: string } | { username: string; password: string };
}

/** MLflow's request limits (runs/log-batch) and entity limits, from its REST API reference. */
export const MLFLOW_LIMITS = {
  metricsPerBatch: 1000,
  paramsPerBatch: 100,
  tagsPerBatch: 100,
  itemsPerBatch: 1000,
  bytesPerBatch: 1_000_000,
  keyLength: 250,
  paramValueLength: 6000,
  tagValueLength: 5000,
} as const;

/** Metric, param and tag names: alphanumerics, `_ - . / :` and spaces (MLflow's name check). */
const VALID_KEY = /^[/\w.\- :]*$/;

export function mlflowSettingsFromEnv(
  env: NodeJS.ProcessEnv,
  overrides: { experimentName?: string; runName?: string; artifacts?: boolean } = {},
): MlflowSettings {
  const uri = env.MLFLOW_TRACKING_URI?.trim();
  if (!uri) {
    throw new AssayError(
      'bad_environment',
      'MLFLOW_TRACKING_URI is not set: give the tracking server, e.g. MLFLOW_TRACKING_URI=http://127.0.0.1:5000',
    );
  }
  const token = env.MLFLOW_TRACKING_TOKEN || undefined;
  const username = env.MLFLOW_TRACKING_USERNAME || undefined;
  const password = env.MLFLOW_TRACKING_PASSWORD || undefined;
  return {
    trackingUri: uri,
    experimentName: overrides.experimentName ?? (env.MLFLOW_EXPERIMENT_NAME || 'Default'),
    runName: overrides.runName,
    artifacts: overrides.artifacts ?? true,
    auth: token ? { token } : username && password ? { username, password } : undefined,
  };
}

interface KeyValue {
  key: string;
  value: string;
}

interface MetricEntry {
  key: string;
  value: number;
  timestamp: number;
  step: number;
}

export interface LogBatch {
  metrics: MetricEntry[];
  params: KeyValue[];
  tags: KeyValue[];
}

/** A name segment MLflow accepts: other characters become `_`, and `.`/`..`/empty segments are not paths. */
function keySegment(text: string): string {
  const cleaned = text.replace(/[^\w.\- :]/g, '_');
  return cleaned === '' || cleaned === '.' || cleaned === '..' ? '_' : cleaned;
}

function metricKey(scope: string, name: string, filter: string): string {
  return [scope, name, ...(filter === 'none' ? [] : [filter])].map(keySegment).join('/');
}

function paramValue(value: unknown): string {
  if (typeof value === 'string') return value;
  return JSON.stringify(value) ?? 'null';
}

/** The params, metrics and tags of one run, checked against MLflow's limits. */
export function buildRunData(source: ExportSource, timestamp: number, context: ExportContext): LogBatch {
  const { results } = source;
  const params: KeyValue[] = [];
  const addParam = (key: string, value: unknown) => {
    let text = paramValue(value);
    if (text.length > MLFLOW_LIMITS.paramValueLength) {
      const note = `…[truncated from ${text.length} characters; the full value is in the results artifact]`;
      context.logger?.warn(
        `MLflow param ${key} is ${text.length} characters, over MLflow's ${MLFLOW_LIMITS.paramValueLength}: logged truncated`,
      );
      text = text.slice(0, MLFLOW_LIMITS.paramValueLength - note.length) + note;
    }
    params.push({ key, value: text });
  };
  if (results.model_name) addParam('model_name', results.model_name);
  if (results.model_source) addParam('model_source', results.model_source);
  for (const [key, value] of Object.entries(results.config ?? {})) addParam(keySegment(key), value);
  for (const [task, shots] of Object.entries(results['n-shot'] ?? {}))
    addParam(`num_fewshot/${keySegment(task)}`, shots);

  const metrics: MetricEntry[] = [];
  const addMetric = (key: string, value: number) => metrics.push({ key, value, timestamp, step: 0 });
  for (const point of metricPoints(results)) {
    addMetric(metricKey(point.scope, point.metric, point.filter), point.value);
    if (point.stderr !== undefined)
      addMetric(metricKey(point.scope, `${point.metric}_stderr`, point.filter), point.stderr);
    if (point.interval) {
      addMetric(metricKey(point.scope, `${point.metric}_ci_low`, point.filter), point.interval[0]);
      addMetric(metricKey(point.scope, `${point.metric}_ci_high`, point.filter), point.interval[1]);
    }
  }

  // A partial run's numbers say so where they are read: per-task counts beside its metrics, and tags.
  const { partial } = source;
  for (const [task, count] of Object.entries(partial.errors ?? {}))
    addMetric(metricKey(task, 'errored_samples', 'none'), count);
  for (const [task, count] of Object.entries(partial.timeouts ?? {}))
    addMetric(metricKey(task, 'timed_out_samples', 'none'), count);

  const tags: KeyValue[] = [{ key: 'assay.version', value: results.assay_version ?? 'unknown' }];
  tags.push({ key: 'assay.results_file', value: path.basename(source.resultsFile) });
  tags.push({ key: 'assay.partial', value: String(partial.partial) });
  if (partial.partial) {
    const reason = partial.reasons.join('; ');
    tags.push({
      key: 'assay.partial_reason',
      value:
        reason.length > MLFLOW_LIMITS.tagValueLength
          ? `${reason.slice(0, MLFLOW_LIMITS.tagValueLength - 1)}…`
          : reason,
    });
  }
  for (const [task, hash] of Object.entries(results.task_hashes ?? {}))
    tags.push({ key: `assay.task_hash.${keySegment(task)}`, value: hash });
  for (const [task, entry] of Object.entries(results.manifest?.tasks ?? {}))
    if (entry.sha256) tags.push({ key: `assay.task_sha256.${keySegment(task)}`, value: entry.sha256 });

  checkEntries('param', params, MLFLOW_LIMITS.paramValueLength);
  checkEntries('tag', tags, MLFLOW_LIMITS.tagValueLength);
  checkEntries('metric', metrics, undefined);
  return { metrics, params, tags };
}

function checkEntries(
  kind: string,
  entries: Array<{ key: string; value: unknown }>,
  valueLimit?: number,
): void {
  const seen = new Set<string>();
  for (const entry of entries) {
    if (
      !VALID_KEY.test(entry.key) ||
      entry.key.length > MLFLOW_LIMITS.keyLength ||
      entry.key.startsWith('/')
    ) {
      throw new AssayError(
        'bad_data',
        `MLflow ${kind} name "${entry.key}" is not valid (at most ${MLFLOW_LIMITS.keyLength} characters of letters, digits, _ - . / : and spaces)`,
      );
    }
    if (seen.has(entry.key)) {
      throw new AssayError(
        'bad_data',
        `two MLflow ${kind}s would be named "${entry.key}" (task, metric or filter names that differ only in characters MLflow does not allow)`,
      );
    }
    seen.add(entry.key);
    if (valueLimit !== undefined && String(entry.value).length > valueLimit)
      throw new AssayError('bad_data', `MLflow ${kind} ${entry.key} is longer than ${valueLimit} characters`);
  }
}

/**
 * Splits the run's data into runs/log-batch requests within MLflow's limits: at most 1000 metrics,
 * 100 params, 100 tags and 1000 items in all per request, and a body under 1 MB. Each request takes
 * as many params and tags as it may, then fills up with metrics, so the count of requests is the least
 * the limits allow (when the 1 MB limit does not bind). Order within each kind is kept.
 */
export function splitBatches(data: LogBatch, runId: string): LogBatch[] {
  const batches: LogBatch[] = [];
  const empty = JSON.stringify({ run_id: runId, metrics: [], params: [], tags: [] }).length;
  const next = { params: 0, tags: 0, metrics: 0 };
  const remaining = () =>
    data.params.length - next.params + data.tags.length - next.tags + data.metrics.length - next.metrics;
  while (remaining() > 0) {
    const batch: LogBatch = { metrics: [], params: [], tags: [] };
    let bytes = empty;
    let items = 0;
    const fill = <K extends keyof LogBatch>(kind: K, limit: number) => {
      const source = data[kind] as Array<LogBatch[K][number]>;
      const target = batch[kind] as Array<LogBatch[K][number]>;
      while (next[kind] < source.length && target.length < limit && items < MLFLOW_LIMITS.itemsPerBatch) {
        const size = JSON.stringify(source[next[kind]]).length + 1;
        if (bytes + size > MLFLOW_LIMITS.bytesPerBatch && items > 0) return;
        target.push(source[next[kind]]);
        next[kind]++;
        bytes += size;
        items++;
      }
    };
    fill('params', MLFLOW_LIMITS.paramsPerBatch);
    fill('tags', MLFLOW_LIMITS.tagsPerBatch);
    fill('metrics', MLFLOW_LIMITS.metricsPerBatch);
    batches.push(batch);
  }
  return batches;
}

/** Where a run's artifacts are PUT: the proxy for `mlflow-artifacts:` URIs, the URI itself for http(s). */
export function artifactBaseUrl(artifactUri: string, trackingUri: string): string | undefined {
  const tracking = new URL(trackingUri);
  if (/^https?:\/\//i.test(artifactUri)) return artifactUri.replace(/\/+$/, '');
  const match = /^mlflow-artifacts:(?:\/\/([^/]*))?(\/.*)?$/.exec(artifactUri);
  if (!match) return undefined;
  const host = match[1] || tracking.host;
  const prefix = tracking.pathname.replace(/\/+$/, '');
  const resolved = `${prefix}/api/2.0/mlflow-artifacts/artifacts${match[2] ?? '/'}`.replace(/\/\/+/g, '/');
  return `${tracking.protocol}//${host}${resolved}`.replace(/\/+$/, '');
}

const errorSchema = z.object({ error_code: z.string().optional(), message: z.string().optional() });
const experimentSchema = z.object({
  experiment: z.object({
    experiment_id: z.string(),
    artifact_location: z.string().optional(),
    lifecycle_stage: z.string().optional(),
  }),
});
const createdExperimentSchema = z.object({ experiment_id: z.string() });
const createdRunSchema = z.object({
  run: z.object({ info: z.object({ run_id: z.string(), artifact_uri: z.string().optional() }) }),
});

class MlflowClient {
  readonly base: string;
  readonly http: HttpOptions;
  private readonly headers: Record<string, string>;

  constructor(readonly settings: MlflowSettings) {
    let url: URL;
    try {
      url = new URL(settings.trackingUri);
    } catch {
      url = new URL('invalid:');
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new AssayError(
        'bad_environment',
        `MLFLOW_TRACKING_URI must be the http(s) URL of a tracking server (assay talks to MLflow through its REST API), got "${redactUrl(settings.trackingUri)}"`,
      );
    }
    const secrets: string[] = [];
    this.headers = {};
    let auth = settings.auth;
    if (url.username || url.password) {
      // fetch refuses URLs with credentials: they move to a Basic header.
      auth ??= { username: decodeURIComponent(url.username), password: decodeURIComponent(url.password) };
      secrets.push(url.username, url.password);
      url.username = '';
      url.password = '';
    }
    if (auth && 'token' in auth) {
      this.headers.authorization = `Bearer ${auth.token}`;
      secrets.push(auth.token);
    } else if (auth) {
      const basic = Buffer.from(`${auth.username}:${auth.password}`).toString('base64');
      this.headers.authorization = `Basic ${basic}`;
      secrets.push(auth.password, basic);
    }
    this.base = url.toString().replace(/\/+$/, '');
    this.http = { secrets, service: 'MLflow' };
  }

  /** The call's answer; an error answer is thrown, unless its MLflow error code is one of `allowed`. */
  async call<T>(
    method: 'GET' | 'POST',
    endpoint: string,
    body: unknown,
    what: string,
    schema: z.ZodType<T>,
  ): Promise<T> {
    const answer = await this.callAllowing(method, endpoint, body, what, schema, []);
    if (isError(answer)) throw new Error(`unexpected MLflow error ${answer.errorCode}`);
    return answer;
  }

  async callAllowing<T>(
    method: 'GET' | 'POST',
    endpoint: string,
    body: unknown,
    what: string,
    schema: z.ZodType<T>,
    allowed: string[],
  ): Promise<T | { errorCode: string }> {
    const call: HttpCall = {
      method,
      url: `${this.base}/api/2.0/mlflow/${endpoint}`,
      headers: { ...this.headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
      what,
    };
    const answer = await send(call, this.http);
    let parsed: unknown;
    try {
      parsed = answer.text ? JSON.parse(answer.text) : {};
    } catch {
      parsed = undefined;
    }
    if (answer.status < 200 || answer.status >= 300) {
      const error = errorSchema.safeParse(parsed);
      const code = error.success ? error.data.error_code : undefined;
      if (code && allowed.includes(code)) return { errorCode: code };
      const hint =
        answer.status === 401 || answer.status === 403
          ? 'set MLFLOW_TRACKING_TOKEN (or MLFLOW_TRACKING_USERNAME and MLFLOW_TRACKING_PASSWORD) to credentials the server accepts'
          : '';
      throw statusError(call, answer, this.http, hint);
    }
    const checked = schema.safeParse(parsed);
    if (!checked.success) {
      throw statusError(
        call,
        {
          status: answer.status,
          text: `unexpected answer (${checked.error.issues[0].message}): ${answer.text}`,
        },
        this.http,
      );
    }
    return checked.data;
  }

  async put(url: string, body: Uint8Array, what: string): Promise<void> {
    const call: HttpCall = {
      method: 'PUT',
      url,
      headers: { ...this.headers, 'content-type': 'application/octet-stream' },
      body,
      what,
    };
    const answer = await send(call, this.http);
    if (answer.status < 200 || answer.status >= 300) throw statusError(call, answer, this.http);
  }
}

function isError(value: unknown): value is { errorCode: string } {
  return typeof value === 'object' && value !== null && 'errorCode' in value;
}

function checkArtifactLocation(location: string, trackingUri: string, what: string): string {
  const base = artifactBaseUrl(location, trackingUri);
  if (base === undefined) {
    throw new AssayError(
      'export_error',
      `MLflow stores the artifacts of ${what} at "${redactUrl(location)}", which only its own clients can write to; ` +
        'serve artifacts through the tracking server (mlflow server --serve-artifacts, the default since MLflow 2.0), ' +
        'or export without artifacts (`artifacts: false`)',
    );
  }
  return base;
}

export async function exportToMlflow(
  source: ExportSource,
  settings: MlflowSettings,
  context: ExportContext = {},
): Promise<ExportReport> {
  const client = new MlflowClient(settings);
  const timestamp = Math.round((source.results.date ?? Date.now() / 1000) * 1000);
  const data = buildRunData(source, timestamp, context);
  const files = settings.artifacts ? runFiles(source, { samples: true }) : [];

  // The experiment, by name: got, or created.
  const name = settings.experimentName;
  const found = await client.callAllowing(
    'GET',
    `experiments/get-by-name?experiment_name=${encodeURIComponent(name)}`,
    undefined,
    `find MLflow experiment "${name}"`,
    experimentSchema,
    ['RESOURCE_DOES_NOT_EXIST'],
  );
  let experiment: z.infer<typeof experimentSchema>['experiment'];
  if (isError(found)) {
    const created = await client.call(
      'POST',
      'experiments/create',
      { name },
      `create MLflow experiment "${name}"`,
      createdExperimentSchema,
    );
    const got = await client.call(
      'GET',
      `experiments/get?experiment_id=${encodeURIComponent(created.experiment_id)}`,
      undefined,
      `read MLflow experiment "${name}"`,
      experimentSchema,
    );
    experiment = got.experiment;
    context.logger?.info(`created MLflow experiment "${name}" (id ${experiment.experiment_id})`);
  } else {
    experiment = found.experiment;
  }
  if (experiment.lifecycle_stage === 'deleted') {
    throw new AssayError(
      'export_error',
      `MLflow experiment "${name}" is deleted: restore it (mlflow experiments restore) or choose another name`,
    );
  }
  if (settings.artifacts && experiment.artifact_location)
    checkArtifactLocation(experiment.artifact_location, client.base, `experiment "${name}"`);

  const runName =
    settings.runName ??
    `${source.results.model_name ?? 'model'} ${source.stamp ?? new Date(timestamp).toISOString()}`;
  const created = await client.call(
    'POST',
    'runs/create',
    { experiment_id: experiment.experiment_id, run_name: runName, start_time: timestamp, tags: [] },
    'create the MLflow run',
    createdRunSchema,
  );
  const runId = created.run.info.run_id;
  const finish = (status: 'FINISHED' | 'FAILED') =>
    client.call(
      'POST',
      'runs/update',
      { run_id: runId, status, end_time: context.now?.() ?? Date.now() },
      `mark MLflow run ${runId} ${status}`,
      z.object({}).passthrough(),
    );

  const artifacts: string[] = [];
  const batches = splitBatches(data, runId);
  try {
    for (const [index, batch] of batches.entries()) {
      await client.call(
        'POST',
        'runs/log-batch',
        { run_id: runId, ...batch },
        `log batch ${index + 1} of ${batches.length} to MLflow run ${runId}`,
        z.object({}).passthrough(),
      );
    }
    if (files.length) {
      const uri = created.run.info.artifact_uri ?? `${experiment.artifact_location ?? ''}/${runId}/artifacts`;
      const base = checkArtifactLocation(uri, client.base, `run ${runId}`);
      const progress = startOperation(context.listener, {
        id: `mlflow:${runId}`,
        label: `upload artifacts to MLflow run ${runId}`,
        unit: 'files',
        total: files.length,
      });
      for (const file of files) {
        const name = path.basename(file);
        await client.put(
          `${base}/${encodeURIComponent(name)}`,
          await readFile(file),
          `upload ${name} to MLflow run ${runId}`,
        );
        artifacts.push(name);
        progress.progress(artifacts.length);
      }
      progress.end();
    }
  } catch (error) {
    await finish('FAILED').catch(() => undefined);
    if (error instanceof AssayError)
      throw new AssayError(error.code, `${error.message} (MLflow run ${runId} is marked FAILED)`, {
        exitCode: error.exitCode,
      });
    throw error;
  }
  await finish('FINISHED');
  return {
    target: 'mlflow',
    url: `${client.base}/#/experiments/${experiment.experiment_id}/runs/${runId}`,
    summary: `MLflow run ${runId} in experiment "${name}": ${data.params.length} params, ${data.metrics.length} metrics, ${data.tags.length} tags in ${batches.length} batch${batches.length === 1 ? '' : 'es'}, ${artifacts.length} artifacts`,
    files: artifacts,
  };
}
