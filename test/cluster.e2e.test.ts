/**
 * docs/cluster.md, run as far as this machine allows: its Slurm array and merge scripts with bash and
 * the variables sbatch sets for each array task; its Kubernetes Indexed Job's container command for each
 * completion index, with the manifest's environment and Kubernetes' $(VAR) expansion, then the merge
 * Job's. `vllm` and `nvidia-smi` are fakes on PATH; the Kubernetes vLLM Service is a loopback server.
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { readResultsFile } from 'assay/results';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { fakeServerBin, GPU_NAME } from './fakes/inference-server-bin.js';
import { startTestServer, type TestServer } from './fakes/openai-server.js';
import { writeChoiceTask } from './support/choice-task.js';
import { runCliAsync } from './support/cli.js';
import { findOne, readJsonl, repoRoot, tempDir } from './support/helpers.js';

// biome-ignore lint/suspicious/noExplicitAny: results files are checked field by field
type Json = Record<string, any>;

const doc = readFileSync(path.join(repoRoot, 'docs', 'cluster.md'), 'utf8');
/** The fenced block after `<!-- cluster.md: NAME -->`. */
function block(name: string): string {
  const match = new RegExp(`<!-- cluster\\.md: ${name} -->\\n\`\`\`\\w+\\n([\\s\\S]*?)\`\`\``).exec(doc);
  if (!match) throw new Error(`docs/cluster.md has no block ${name}`);
  return match[1];
}

function run(
  command: string,
  args: string[],
  env: Record<string, string>,
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd: work,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

const bin = fakeServerBin();
const PATH = `${bin}${path.delimiter}${process.env.PATH}`;
const work = tempDir('assay-cluster-');
let taskFile: string;
let service: TestServer;

beforeAll(async () => {
  taskFile = writeChoiceTask(
    work,
    'cluster_mc',
    Array.from({ length: 13 }, (_, i) => ({
      question: `Item ${i}: which word follows ${i % 5}?`,
      choices: ['red', 'green', `word ${i}`],
      answer: i % 3,
    })),
    { absolutePaths: true },
  );
  // The Kubernetes Service `vllm`: a server someone else started, answering /v1/models and /version.
  service = await startTestServer({}, 1, {
    model: 'meta-llama/Llama-3.1-8B-Instruct',
    routes: {
      'GET /v1/models': () => ({
        status: 200,
        body: { object: 'list', data: [{ id: 'meta-llama/Llama-3.1-8B-Instruct', max_model_len: 4096 }] },
      }),
      'GET /version': () => ({ status: 200, body: { version: '0.0.0-service' } }),
    },
  });
});
afterAll(() => service?.close());

function merged(folder: string): Json {
  const model = readdirSync(folder)[0];
  return readResultsFile(findOne(path.join(folder, model), /^results_.*\.json$/));
}

describe('docs/cluster.md', () => {
  it('the Slurm array script runs every shard with its own vllm serve, and the merge script joins them', async () => {
    const out = path.join(work, 'slurm');
    const script = path.join(work, 'eval-shards.sbatch');
    writeFileSync(script, block('slurm-array'));
    writeFileSync(path.join(work, 'merge.sbatch'), block('slurm-merge'));
    // What sbatch --array=0-1 sets in each task.
    const task = (id: number) =>
      run('bash', [script], {
        PATH,
        OUT: out,
        TASKS: taskFile,
        SLURM_JOB_ID: '4242',
        SLURM_ARRAY_JOB_ID: '4242',
        SLURM_ARRAY_TASK_ID: String(id),
        SLURM_ARRAY_TASK_MIN: '0',
        SLURM_ARRAY_TASK_MAX: '1',
        SLURM_ARRAY_TASK_COUNT: '2',
        SLURM_ARRAY_TASK_STEP: '1',
      });
    const shards = await Promise.all([task(0), task(1)]);
    for (const shard of shards) expect(shard.stderr).toContain('results written to');
    expect(shards.map((shard) => shard.status)).toEqual([0, 0]);
    const shardResults = [0, 1].map((id) => merged(path.join(out, `shard-${id}`)));
    for (const [id, results] of shardResults.entries()) {
      expect(results.config.shard).toBe(`${id}/2`);
      const { server } = results.manifest.model.info;
      expect(server.kind).toBe('vllm');
      expect(server.version).toBe('0.0.0-fake-vllm');
      expect(server.command).toMatch(
        /^vllm serve meta-llama\/Llama-3\.1-8B-Instruct --seed 0 --dtype bfloat16 --gpu-memory-utilization 0\.9 --max-model-len 4096 --host 127\.0\.0\.1 --port \d+$/,
      );
      expect(results.manifest.hardware.gpu).toBe(`${GPU_NAME} x2`);
      // The server's log sits in the shard's output folder.
      expect(path.dirname(server.log)).toBe(
        path.join(out, `shard-${id}`, 'meta-llama__Llama-3.1-8B-Instruct'),
      );
      expect(readFileSync(server.log, 'utf8')).toContain(
        'REQUEST completions prompt=token-ids prompt_logprobs=1',
      );
    }
    const merge = await run('bash', [path.join(work, 'merge.sbatch')], { PATH, OUT: out });
    expect(merge.status, merge.stderr).toBe(0);
    const results = merged(path.join(out, 'merged'));
    expect(results.partial).toBe(false);
    expect(results['n-samples'].cluster_mc).toEqual({ original: 13, effective: 13 });
    const samples = readJsonl(
      findOne(
        path.dirname(
          findOne(path.join(out, 'merged', readdirSync(path.join(out, 'merged'))[0]), /^results_/),
        ),
        /^samples_cluster_mc_/,
      ),
    );
    expect(samples.map((line) => line.doc_id)).toEqual(Array.from({ length: 13 }, (_, i) => i));
    slurmAcc = results.results.cluster_mc['acc,none'];
  });

  let slurmAcc: number | undefined;

  it('the Kubernetes Indexed Job runs each index against the vLLM Service, and the merge Job joins them', async () => {
    const [deployment, serviceDoc, job] = parseAllDocuments(block('kubernetes')).map((part) => part.toJSON());
    expect([deployment.kind, serviceDoc.kind, job.kind]).toEqual(['Deployment', 'Service', 'Job']);
    expect(job.spec.completionMode).toBe('Indexed');
    const container = job.spec.template.spec.containers[0];
    const results = path.join(work, 'k8s');
    const overrides: Record<string, string> = {
      VLLM_URL: service.url,
      TASKS: taskFile,
      RESULTS_DIR: results,
      ASSAY_SHARD_COUNT: '2',
    };
    const podEnv = (index: number) => {
      const env: Record<string, string> = { PATH, JOB_COMPLETION_INDEX: String(index) };
      for (const entry of container.env as Array<{ name: string; value: string }>)
        env[entry.name] = overrides[entry.name] ?? entry.value;
      expect(Object.keys(env).sort()).toEqual([
        'ASSAY_SHARD_COUNT',
        'JOB_COMPLETION_INDEX',
        'PATH',
        'RESULTS_DIR',
        'TASKS',
        'VLLM_URL',
      ]);
      return env;
    };
    // Kubernetes expands $(NAME) in command and args from the container's environment.
    const expand = (text: string, env: Record<string, string>) =>
      text.replace(/\$\(([A-Z_]+)\)/g, (_, name: string) => env[name] ?? `$(${name})`);
    const pods = [0, 1].map((index) => {
      const env = podEnv(index);
      const [command, ...rest] = [...container.command, ...container.args].map((part: string) =>
        expand(part, env),
      );
      return run(command, rest, env);
    });
    const finished = await Promise.all(pods);
    expect(
      finished.map((pod) => pod.status),
      finished.map((pod) => pod.stderr).join('\n'),
    ).toEqual([0, 0]);
    const shard = merged(path.join(results, 'shard-1'));
    expect(shard.config.shard).toBe('1/2');
    expect(shard.manifest.model.info.server).toMatchObject({
      started_by_assay: false,
      version: '0.0.0-service',
      url: service.url,
    });

    const [mergeJob] = parseAllDocuments(block('kubernetes-merge')).map((part) => part.toJSON());
    const merger = mergeJob.spec.template.spec.containers[0];
    const env: Record<string, string> = { PATH };
    for (const entry of merger.env as Array<{ name: string; value: string }>)
      env[entry.name] = overrides[entry.name] ?? entry.value;
    const [command, ...rest] = [...merger.command, ...merger.args].map((part: string) => expand(part, env));
    const merge = await run(command, rest, env);
    expect(merge.status, merge.stderr).toBe(0);
    const joined = merged(path.join(results, 'merged'));
    expect(joined['n-samples'].cluster_mc).toEqual({ original: 13, effective: 13 });
    // The same deterministic model behind both: the same score by either route.
    expect(joined.results.cluster_mc['acc,none']).toBe(slurmAcc);
  });

  it('--shard auto outside any scheduler stops before a server starts', async () => {
    // The `assay` on PATH of the scripts above is this checkout's CLI (inference-server-bin.ts).
    const result = await runCliAsync(
      [
        'run',
        '--model',
        'vllm',
        '--model_args',
        'pretrained=m',
        '--tasks',
        taskFile,
        '--shard',
        'auto',
        '--log_samples',
        '--output_path',
        path.join(work, 'none'),
      ],
      { cwd: work, env: { PATH, FAKE_SERVER_RECORD: path.join(work, 'none.json') } },
    );
    expect(result.status).toBe(2);
    expect(result.stderr).toBe(
      'assay: error: --shard auto: no scheduler told this process its shard: none of SLURM_ARRAY_TASK_ID (a Slurm job array), JOB_COMPLETION_INDEX (a Kubernetes Indexed Job) or RANK and WORLD_SIZE (torchrun, accelerate) is set; pass --shard i/N\n',
    );
  });
});
