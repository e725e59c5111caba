/**
 * A loopback MLflow tracking server, written from MLflow's REST API reference (`/api/2.0/mlflow/...`)
 * and its artifact proxy (`/api/2.0/mlflow-artifacts/artifacts/<path>`, served by `mlflow server
 * --serve-artifacts`). It answers the endpoints below as the reference documents them and checks every
 * request it receives: method, path, JSON content type, required fields and their types (int64 fields
 * are integers), names MLflow accepts, and runs/log-batch's limits (1000 metrics, 100 params, 100 tags,
 * 1000 items, 1 MB). A request that breaks a rule is answered 400 INVALID_PARAMETER_VALUE, as MLflow
 * answers, and listed in `violations`, which tests assert empty.
 *   GET  experiments/get-by-name?experiment_name=   {experiment} | 404 RESOURCE_DOES_NOT_EXIST
 *   GET  experiments/get?experiment_id=             {experiment}
 *   POST experiments/create {name}                  {experiment_id} | 400 RESOURCE_ALREADY_EXISTS
 *   POST runs/create {experiment_id, run_name, start_time, tags}   {run: {info, data}}
 *   POST runs/log-batch {run_id, metrics, params, tags}            {}
 *   POST runs/update {run_id, status, end_time}     {run_info}
 *   PUT  /api/2.0/mlflow-artifacts/artifacts/<experiment>/<run>/artifacts/<file>   {}
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeExperiment {
  experiment_id: string;
  name: string;
  artifact_location: string;
  lifecycle_stage: 'active' | 'deleted';
}

export interface FakeRun {
  run_id: string;
  experiment_id: string;
  run_name: string;
  start_time: number;
  end_time?: number;
  status: string;
  artifact_uri: string;
  params: Map<string, string>;
  metrics: Array<{ key: string; value: number; timestamp: number; step: number }>;
  tags: Map<string, string>;
  artifacts: Map<string, Buffer>;
}

export interface MlflowRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: unknown;
  bytes: number;
}

export interface FakeMlflow {
  uri: string;
  requests: MlflowRequest[];
  violations: string[];
  experiments: Map<string, FakeExperiment>;
  runs: Map<string, FakeRun>;
  /** Accepted credentials: `Authorization` must equal this when set. */
  requireAuthorization?: string;
  /** Where new experiments keep artifacts (`mlflow-artifacts:` by default). */
  artifactRoot: string;
  /** Artifact uploads answer this status (to test failures). */
  failArtifacts?: number;
  /** Error answers quote the request's Authorization header (a careless server). */
  echoAuthorization: boolean;
  /** Said in every error answer, before the echoed header (a long message puts the echo far in). */
  errorDetail?: string;
  close(): Promise<void>;
}

const VALID_NAME = /^[/\w.\- :]*$/;
const RUN_STATUSES = ['RUNNING', 'SCHEDULED', 'FINISHED', 'FAILED', 'KILLED'];

function isInt64(value: unknown): boolean {
  return typeof value === 'number' && Number.isInteger(value);
}

export async function startFakeMlflow(): Promise<FakeMlflow> {
  let nextExperiment = 1;
  let nextRun = 1;
  const state: FakeMlflow = {
    uri: '',
    requests: [],
    violations: [],
    experiments: new Map(),
    runs: new Map(),
    artifactRoot: 'mlflow-artifacts:',
    echoAuthorization: false,
    close: async () => {},
  };
  // Every MLflow server has the Default experiment, id 0.
  state.experiments.set('0', {
    experiment_id: '0',
    name: 'Default',
    artifact_location: 'mlflow-artifacts:/0',
    lifecycle_stage: 'active',
  });

  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const raw = Buffer.concat(chunks);
      const url = new URL(request.url ?? '/', state.uri);
      const record: MlflowRequest = {
        method: request.method ?? '',
        path: url.pathname + url.search,
        headers: request.headers,
        body: undefined,
        bytes: raw.length,
      };
      state.requests.push(record);
      const reply = (status: number, body: unknown) => {
        response.writeHead(status, { 'content-type': 'application/json' });
        response.end(JSON.stringify(body));
      };
      const fail = (status: number, code: string, message: string) => {
        const echo = state.echoAuthorization ? ` (sent: ${request.headers.authorization})` : '';
        reply(status, { error_code: code, message: message + (state.errorDetail ?? '') + echo });
      };
      const invalid = (message: string) => {
        state.violations.push(`${record.method} ${url.pathname}: ${message}`);
        fail(400, 'INVALID_PARAMETER_VALUE', message);
      };
      if (state.requireAuthorization && request.headers.authorization !== state.requireAuthorization)
        return fail(401, 'UNAUTHENTICATED', 'You are not authenticated');

      const artifact = /^\/api\/2\.0\/mlflow-artifacts\/artifacts\/(.+)$/.exec(url.pathname);
      if (artifact) {
        if (request.method !== 'PUT') return invalid(`artifact ${request.method}: uploads are PUT`);
        const parts = decodeURIComponent(artifact[1]).split('/');
        const [experimentId, runId, folder, ...rest] = parts;
        const run = state.runs.get(runId);
        if (!run || run.experiment_id !== experimentId || folder !== 'artifacts' || rest.length === 0)
          return invalid(`artifact path ${artifact[1]} is not under a run's artifact root`);
        if (rest.some((segment) => segment === '' || segment === '.' || segment === '..'))
          return invalid(`artifact path ${artifact[1]} is not normalised`);
        if (state.failArtifacts) return fail(state.failArtifacts, 'INTERNAL_ERROR', 'storage unavailable');
        run.artifacts.set(rest.join('/'), raw);
        return reply(200, {});
      }

      const endpoint = /^\/api\/2\.0\/mlflow\/(.+)$/.exec(url.pathname)?.[1];
      if (!endpoint) return fail(404, 'ENDPOINT_NOT_FOUND', `no endpoint ${url.pathname}`);
      const expected: Record<string, string> = {
        'experiments/get-by-name': 'GET',
        'experiments/get': 'GET',
        'experiments/create': 'POST',
        'runs/create': 'POST',
        'runs/log-batch': 'POST',
        'runs/update': 'POST',
      };
      if (!expected[endpoint]) return fail(404, 'ENDPOINT_NOT_FOUND', `no endpoint ${endpoint}`);
      if (expected[endpoint] !== request.method)
        return invalid(`${endpoint} is ${expected[endpoint]}, got ${request.method}`);
      let body: Record<string, unknown> = {};
      if (request.method === 'POST') {
        // "The MLflow REST API requires content type application/json for all POST requests."
        if (!String(request.headers['content-type'] ?? '').startsWith('application/json'))
          return invalid(`content-type must be application/json, got ${request.headers['content-type']}`);
        try {
          body = JSON.parse(raw.toString('utf8'));
        } catch {
          return invalid('body is not JSON');
        }
        record.body = body;
      }

      if (endpoint === 'experiments/get-by-name') {
        const name = url.searchParams.get('experiment_name');
        if (!name) return invalid('experiment_name is required');
        const found = [...state.experiments.values()].find((experiment) => experiment.name === name);
        if (!found)
          return fail(404, 'RESOURCE_DOES_NOT_EXIST', `Could not find experiment with name '${name}'`);
        return reply(200, { experiment: found });
      }
      if (endpoint === 'experiments/get') {
        const found = state.experiments.get(url.searchParams.get('experiment_id') ?? '');
        if (!found) return fail(404, 'RESOURCE_DOES_NOT_EXIST', 'No Experiment with that id');
        return reply(200, { experiment: found });
      }
      if (endpoint === 'experiments/create') {
        if (typeof body.name !== 'string' || body.name === '') return invalid('name is required (STRING)');
        if ([...state.experiments.values()].some((experiment) => experiment.name === body.name))
          return fail(400, 'RESOURCE_ALREADY_EXISTS', `Experiment '${body.name}' already exists.`);
        const id = String(nextExperiment++);
        state.experiments.set(id, {
          experiment_id: id,
          name: body.name,
          artifact_location: `${state.artifactRoot}/${id}`,
          lifecycle_stage: 'active',
        });
        return reply(200, { experiment_id: id });
      }
      if (endpoint === 'runs/create') {
        const experiment = state.experiments.get(String(body.experiment_id));
        if (typeof body.experiment_id !== 'string' || !experiment)
          return invalid('experiment_id must name an experiment (STRING)');
        if (experiment.lifecycle_stage !== 'active') return invalid('experiment is not active');
        if (body.run_name !== undefined && typeof body.run_name !== 'string')
          return invalid('run_name is a STRING');
        if (body.start_time !== undefined && !isInt64(body.start_time))
          return invalid('start_time is an INT64');
        if (body.tags !== undefined && !Array.isArray(body.tags))
          return invalid('tags is an array of RunTag');
        const id = `run${String(nextRun++).padStart(4, '0')}`;
        const run: FakeRun = {
          run_id: id,
          experiment_id: experiment.experiment_id,
          run_name: String(body.run_name ?? ''),
          start_time: Number(body.start_time ?? 0),
          status: 'RUNNING',
          artifact_uri: `${experiment.artifact_location}/${id}/artifacts`,
          params: new Map(),
          metrics: [],
          tags: new Map(),
          artifacts: new Map(),
        };
        state.runs.set(id, run);
        const info = {
          run_id: id,
          run_uuid: id,
          experiment_id: run.experiment_id,
          run_name: run.run_name,
          status: run.status,
          start_time: run.start_time,
          artifact_uri: run.artifact_uri,
          lifecycle_stage: 'active',
        };
        return reply(200, { run: { info, data: {} } });
      }
      const run = state.runs.get(String(body.run_id));
      if (typeof body.run_id !== 'string' || !run) return invalid('run_id must name a run (STRING)');
      if (endpoint === 'runs/update') {
        if (typeof body.status !== 'string' || !RUN_STATUSES.includes(body.status))
          return invalid('status must be a RunStatus');
        if (body.end_time !== undefined && !isInt64(body.end_time)) return invalid('end_time is an INT64');
        run.status = body.status;
        run.end_time = body.end_time as number | undefined;
        return reply(200, { run_info: { run_id: run.run_id, status: run.status, end_time: run.end_time } });
      }
      // runs/log-batch
      const metrics = body.metrics ?? [];
      const params = body.params ?? [];
      const tags = body.tags ?? [];
      if (!Array.isArray(metrics) || !Array.isArray(params) || !Array.isArray(tags))
        return invalid('metrics, params and tags are arrays');
      if (raw.length > 1_000_000) return invalid(`request is ${raw.length} bytes, over 1 MB`);
      if (metrics.length > 1000)
        return invalid(
          `A batch logging request can contain at most 1000 metrics. Got ${metrics.length} metrics.`,
        );
      if (params.length > 100)
        return invalid(
          `A batch logging request can contain at most 100 params. Got ${params.length} params.`,
        );
      if (tags.length > 100)
        return invalid(`A batch logging request can contain at most 100 tags. Got ${tags.length} tags.`);
      const total = metrics.length + params.length + tags.length;
      if (total > 1000)
        return invalid(
          `A batch logging request can contain at most 1000 metrics, params and tags in total. Got ${total}.`,
        );
      const checkName = (kind: string, key: unknown): string | undefined => {
        if (typeof key !== 'string' || key === '') return `${kind} key must be a non-empty STRING`;
        if (key.length > 250) return `${kind} key ${key} is over 250 characters`;
        if (!VALID_NAME.test(key)) return `Invalid ${kind} name: '${key}'`;
        const normal = key.split('/');
        if (
          key.startsWith('/') ||
          normal.some((segment) => segment === '' || segment === '.' || segment === '..')
        )
          return `Invalid ${kind} name: '${key}' is not a normalised path`;
        return undefined;
      };
      for (const metric of metrics) {
        const problem =
          checkName('metric', metric?.key) ??
          (typeof metric.value !== 'number' ? `metric ${metric.key}: value must be a DOUBLE` : undefined) ??
          (!isInt64(metric.timestamp) ? `metric ${metric.key}: timestamp must be an INT64` : undefined) ??
          (metric.step !== undefined && !isInt64(metric.step)
            ? `metric ${metric.key}: step must be an INT64`
            : undefined);
        if (problem) return invalid(problem);
      }
      for (const param of params) {
        const problem =
          checkName('param', param?.key) ??
          (typeof param.value !== 'string' ? `param ${param.key}: value must be a STRING` : undefined) ??
          (param.value.length > 6000 ? `param ${param.key}: value is over 6000 characters` : undefined) ??
          (run.params.has(param.key) && run.params.get(param.key) !== param.value
            ? `Changing param values is not allowed. Param with key='${param.key}' was already logged`
            : undefined);
        if (problem) return invalid(problem);
      }
      for (const tag of tags) {
        const problem =
          checkName('tag', tag?.key) ??
          (typeof tag.value !== 'string' ? `tag ${tag.key}: value must be a STRING` : undefined) ??
          (tag.value.length > 5000 ? `tag ${tag.key}: value is over 5000 characters` : undefined);
        if (problem) return invalid(problem);
      }
      for (const param of params) run.params.set(param.key, param.value);
      for (const tag of tags) run.tags.set(tag.key, tag.value);
      for (const metric of metrics) run.metrics.push({ step: 0, ...metric });
      return reply(200, {});
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.uri = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.close = () =>
    new Promise<void>((resolve, reject) => {
      if (!server.listening) return resolve();
      server.closeAllConnections();
      server.close((error) => (error ? reject(error) : resolve()));
    });
  return state;
}
