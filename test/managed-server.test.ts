/**
 * `--model vllm` and `--model sglang` as managed servers: fake `vllm`, `python` and `nvidia-smi`
 * executables put first on PATH start the loopback OpenAI-compatible fixture on the port assay chose,
 * after parsing their flags as the real servers' argparse does. Each test checks the command line the
 * server got, that evaluation went through local-completions with token ids (and prompt_logprobs for
 * vLLM), and that no server process or worker is left once the backend closes, fails or is interrupted.
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withFlagNames } from '../src/cli/errors.js';
import type { LoglikelihoodRequest, ModelBackend } from '../src/models/backend.js';
import { createHttpBackend } from '../src/models/http/create.js';
import { createManagedBackend } from '../src/models/managed-server/managed-backend.js';
import { checkModelArgs } from '../src/models/registry.js';
import { runBackendConformance } from '../src/testing/backend-conformance.js';
import { fakeServerBin } from './fakes/inference-server-bin.js';
import { startTestServer, type TestServer } from './fakes/openai-server.js';
import { tempDir } from './support/helpers.js';

const bin = fakeServerBin();
const savedPath = process.env.PATH;
const work = tempDir('assay-managed-');
let recordCount = 0;

/** Sets the fake's environment for one server start; returns where it records its argv and pids. */
function fakeEnv(values: Record<string, string> = {}): string {
  const record = path.join(work, `record-${recordCount++}.json`);
  for (const key of [
    'FAKE_SERVER_MODE',
    'FAKE_SERVER_DIE_AFTER',
    'FAKE_SERVER_DELAY_MS',
    'FAKE_SERVER_LATENCY_MS',
  ])
    delete process.env[key];
  Object.assign(process.env, { FAKE_SERVER_RECORD: record, ...values });
  return record;
}

function readRecord(file: string): { argv: string[]; pid: number; worker: number } {
  return JSON.parse(readFileSync(file, 'utf8'));
}

/** Running: not gone and not a zombie waiting for its parent (a killed process, to every purpose). */
function running(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

/** A killed worker is reparented and reaped a moment after its group is signalled. */
async function gone(pid: number): Promise<boolean> {
  const deadline = Date.now() + 3000;
  while (running(pid) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  return !running(pid);
}

const REQUESTS: LoglikelihoodRequest[] = [
  { context: 'Question: 2+2=\nAnswer:', continuation: ' 4' },
  { context: 'The capital of France is', continuation: ' Paris' },
  { context: 'Once', continuation: ' upon a time' },
];

let reference: TestServer;
beforeAll(async () => {
  process.env.PATH = `${bin}${path.delimiter}${savedPath}`;
  reference = await startTestServer();
});
afterAll(async () => {
  process.env.PATH = savedPath;
  delete process.env.FAKE_SERVER_RECORD;
  await reference?.close();
});

/** Servers that answer HTTP 500 to bodies holding the suite's marker (createFailing). */
const poisoned: TestServer[] = [];
afterAll(async () => {
  for (const started of poisoned) await started.close();
});

runBackendConformance({
  name: 'vllm (managed: the fake vllm serve, started for the suite)',
  create: () => {
    fakeEnv();
    return createManagedBackend('vllm', { pretrained: 'org/fake-7b', max_model_len: 512 });
  },
  // The same client attached to a running server (base_url=) that fails the requests naming the marker.
  createFailing: async (marker) => {
    const server = await startTestServer({ failBodiesContaining: { text: marker, message: 'poisoned' } });
    poisoned.push(server);
    return createManagedBackend('vllm', {
      base_url: server.completionsUrl,
      pretrained: 'test',
      max_model_len: 512,
      max_retries: 2,
      retry_backoff: 0.001,
    });
  },
});

describe('--model vllm starts vllm serve, evaluates through it and stops it', () => {
  it('maps lm-eval model args to vllm serve flags, scores with token ids and prompt_logprobs, records the server', async () => {
    const record = fakeEnv();
    const warnings: string[] = [];
    const output = path.join(work, 'out-vllm');
    mkdirSync(output);
    const backend = await createManagedBackend(
      'vllm',
      {
        pretrained: 'org/fake-7b',
        tensor_parallel_size: 2,
        dtype: 'bfloat16',
        gpu_memory_utilization: 0.5,
        max_model_len: 512,
        enable_prefix_caching: false,
        trust_remote_code: true,
        seed: 3,
        enable_chunked_prefill: true,
        device: 'cuda:1',
        vllm_args: '--max-num-seqs=8,--enforce-eager',
        batch_size: 2,
      },
      { outputDirectory: output, warn: (message) => warnings.push(message) },
    );
    const { argv, pid, worker } = readRecord(record);
    const port = argv[argv.indexOf('--port') + 1];
    expect(argv).toEqual([
      'serve',
      'org/fake-7b',
      '--tensor-parallel-size',
      '2',
      '--dtype',
      'bfloat16',
      '--gpu-memory-utilization',
      '0.5',
      '--max-model-len',
      '512',
      '--no-enable-prefix-caching',
      '--trust-remote-code',
      '--seed',
      '3',
      '--enable-chunked-prefill',
      '--max-num-seqs=8',
      '--enforce-eager',
      '--host',
      '127.0.0.1',
      '--port',
      port,
    ]);
    try {
      // The same deterministic model behind a local-completions backend, token ids and prompt_logprobs.
      const direct = createHttpBackend('local-completions', {
        // The server's /tokenize, named rather than left to lm-eval's default tokenizer_backend=auto.
        tokenizer_backend: 'remote',
        model: 'm',
        base_url: reference.completionsUrl,
        tokenized_requests: true,
        prompt_logprobs: true,
        max_length: 512,
      });
      expect(await backend.loglikelihood({ requests: REQUESTS })).toEqual(
        await direct.loglikelihood({ requests: REQUESTS }),
      );
      await direct.close?.();
      const generation = {
        context: 'Q: 3+4?\nA:',
        until: ['\n'],
        maxGenToks: 8,
        temperature: 0,
        doSample: false,
        extra: {},
      };
      expect(await backend.generate({ requests: [generation] })).toHaveLength(1);
      const info = backend.info();
      const log = (info.server as { log: string }).log;
      expect(path.dirname(log)).toBe(output);
      expect(path.basename(log)).toMatch(/^vllm_server_.*\.log$/);
      expect(info.server).toEqual({
        kind: 'vllm',
        started_by_assay: true,
        url: `http://127.0.0.1:${port}`,
        version: '0.0.0-fake-vllm',
        command: `vllm ${argv.join(' ')}`,
        pid,
        log,
        gpus: ['NVIDIA Fake A100 80GB', 'NVIDIA Fake A100 80GB'],
      });
      expect(info.gpu).toBe('NVIDIA Fake A100 80GB x2');
      expect(info.name).toBe('org/fake-7b');
      // Every scoring request went out as token ids asking for prompt_logprobs, and none for echo.
      const requests = readFileSync(log, 'utf8')
        .split('\n')
        .filter((line) => line.startsWith('REQUEST') && line.includes('prompt_logprobs=1'));
      expect(requests.length).toBe(2);
      expect(requests.every((line) => line.includes('prompt=token-ids') && line.includes('echo=-'))).toBe(
        true,
      );
      expect(readFileSync(log, 'utf8')).toContain(
        `# assay started pid ${pid} (process group ${pid}): vllm serve`,
      );
      expect(running(pid) && running(worker)).toBe(true);
    } finally {
      await backend.close?.();
    }
    expect(await gone(pid)).toBe(true);
    expect(await gone(worker)).toBe(true);
    expect(warnings).toEqual([
      'device= is ignored for vLLM (lm-eval ignores it too): choose GPUs with CUDA_VISIBLE_DEVICES before running assay',
    ]);
  });

  it('a server that never becomes healthy is stopped at the time limit, with its log', async () => {
    const record = fakeEnv({ FAKE_SERVER_MODE: 'never-healthy' });
    const started = Date.now();
    const error = await createManagedBackend('vllm', { pretrained: 'org/slow', server_timeout: 1.5 }).catch(
      (caught: Error) => caught,
    );
    expect(Date.now() - started).toBeLessThan(10_000);
    // The library names the option field (`modelArgs`); the CLI shows the flag, as here.
    expect(withFlagNames((error as Error).message)).toMatch(
      /^vllm serve \(pid \d+\) did not answer \/health within 2 s \(raise --model_args server_timeout=SECONDS for a model that loads slowly\); its log is .*assay-vllm-server-\d+-\d+\.log, ending:\n/,
    );
    expect((error as Error).message).toContain('Uvicorn running on');
    const { pid, worker } = readRecord(record);
    expect(await gone(pid)).toBe(true);
    expect(await gone(worker)).toBe(true);
  });

  it('a server that exits while loading, and a flag vLLM does not know, fail with the end of its log', async () => {
    fakeEnv({ FAKE_SERVER_MODE: 'exit-on-start' });
    const crashed = await createManagedBackend('vllm', { pretrained: 'org/big' }).catch(
      (caught: Error) => caught,
    );
    expect((crashed as Error).message).toMatch(
      /^vllm serve \(pid \d+\) exited with code 1 before it became healthy/,
    );
    expect((crashed as Error).message).toContain('  | RuntimeError: CUDA error: out of memory (fake)');
    // Unknown names pass through as --kebab-case; vLLM's argparse is the judge.
    fakeEnv();
    const unknown = await createManagedBackend('vllm', { pretrained: 'org/m', speculative_tokens: 4 }).catch(
      (caught: Error) => caught,
    );
    expect((unknown as Error).message).toMatch(/exited with code 2 before it became healthy/);
    expect((unknown as Error).message).toContain('vllm: error: unrecognized arguments: --speculative-tokens');
  });

  it('a server that dies mid-run ends the run with its log, and its worker is stopped', async () => {
    const record = fakeEnv({ FAKE_SERVER_DIE_AFTER: '3' });
    const backend = await createManagedBackend('vllm', { pretrained: 'org/fragile', num_concurrent: 1 });
    const { pid, worker } = readRecord(record);
    const many = Array.from({ length: 40 }, (_, i) => ({ context: `item ${i}:`, continuation: ' yes' }));
    const error = await backend.loglikelihood({ requests: many }).catch((caught: Error) => caught);
    expect((error as Error).message).toMatch(
      /^vllm serve \(pid \d+\) was killed by SIGKILL during the run; its log is/,
    );
    expect((error as Error).message).toContain('fatal: the engine core died unexpectedly (fake)');
    await backend.close?.();
    expect(await gone(pid)).toBe(true);
    expect(await gone(worker)).toBe(true);
  });
});

describe('--model sglang starts python -m sglang.launch_server', () => {
  it("maps lm-eval's SGLang args and vLLM's names to SGLang flags and scores by echo", async () => {
    const record = fakeEnv();
    const backend = await createManagedBackend('sglang', {
      pretrained: 'org/fake-sg',
      tp_size: 2,
      mem_fraction_static: 0.8,
      context_length: 256,
      enable_prefix_caching: false,
      seed: 5,
      sglang_args: ['--chunked-prefill-size', '512'],
    });
    const { argv, pid, worker } = readRecord(record);
    try {
      const port = argv[argv.indexOf('--port') + 1];
      expect(argv).toEqual([
        '-m',
        'sglang.launch_server',
        '--model-path',
        'org/fake-sg',
        '--tp-size',
        '2',
        '--mem-fraction-static',
        '0.8',
        '--context-length',
        '256',
        '--disable-radix-cache',
        '--random-seed',
        '5',
        '--chunked-prefill-size',
        '512',
        '--host',
        '127.0.0.1',
        '--port',
        port,
      ]);
      const direct = createHttpBackend('local-completions', {
        // The server's /tokenize, named rather than left to lm-eval's default tokenizer_backend=auto.
        tokenizer_backend: 'remote',
        model: 'm',
        base_url: reference.completionsUrl,
        tokenized_requests: true,
        prompt_logprobs: false,
        max_length: 256,
      });
      expect(await backend.loglikelihood({ requests: REQUESTS })).toEqual(
        await direct.loglikelihood({ requests: REQUESTS }),
      );
      await direct.close?.();
      const server = backend.info().server as { version: string; command: string };
      expect(server.version).toBe('0.0.0-fake-sglang');
      expect(server.command.startsWith('python -m sglang.launch_server --model-path org/fake-sg')).toBe(true);
      const log = readFileSync((backend.info().server as { log: string }).log, 'utf8');
      expect(log).toContain('REQUEST completions prompt=token-ids prompt_logprobs=- echo=true');
    } finally {
      await backend.close?.();
    }
    expect(await gone(pid)).toBe(true);
    expect(await gone(worker)).toBe(true);
  });
});

describe('model args of the managed servers', () => {
  it('base_url= uses a running server and starts nothing', async () => {
    const running = await startTestServer({}, 1, {
      model: 'served-elsewhere',
      routes: {
        'GET /v1/models': () => ({
          status: 200,
          body: { object: 'list', data: [{ id: 'served-elsewhere', max_model_len: 128 }] },
        }),
        'GET /version': () => ({ status: 200, body: { version: '0.9.9' } }),
      },
    });
    let backend: ModelBackend | undefined;
    try {
      fakeEnv();
      backend = await createManagedBackend('vllm', { base_url: running.url });
      expect(backend.info().server).toEqual({
        kind: 'vllm',
        started_by_assay: false,
        url: running.url,
        version: '0.9.9',
        command: null,
        pid: null,
        log: null,
        gpus: [],
      });
      expect(backend.info().name).toBe('served-elsewhere');
      const answers = await backend.loglikelihood({ requests: REQUESTS });
      expect(answers.every((answer) => typeof (answer as { logprob: number }).logprob === 'number')).toBe(
        true,
      );
      expect(running.stats.promptLogprobsRequests).toBeGreaterThan(0);
      expect(existsSync(process.env.FAKE_SERVER_RECORD as string)).toBe(false);
    } finally {
      await backend?.close?.();
      await running.close();
    }
  });

  it('refuses typos, contradictions and server flags for a server assay does not start, before starting anything', async () => {
    const refused = (kind: string, args: Record<string, unknown>) =>
      checkModelArgs(kind, args).then(
        () => 'accepted',
        (error: Error) => withFlagNames(error.message),
      );
    expect(await refused('vllm', { pretrained: 'm', tensor_paralel_size: 2 })).toBe(
      '--model_args for vllm: unknown argument "tensor_paralel_size"; did you mean "tensor_parallel_size"? (unknown names go to the server as --kebab-case flags, so a typo is refused here)',
    );
    expect(await refused('vllm', { pretrained: 'm', max_length: 10, max_model_len: 10 })).toBe(
      '--model_args for vllm: give max_length or max_model_len, not both (lm-eval refuses both too)',
    );
    expect(await refused('vllm', { base_url: 'http://127.0.0.1:9', tensor_parallel_size: 4 })).toBe(
      '--model_args for vllm: base_url= names a server assay does not start, so server flags (tensor_parallel_size) cannot apply; set them where that server is started',
    );
    expect(await refused('vllm', {})).toMatch(/pretrained=<model> is required/);
    // think_end_token goes to the client (reasoning-backends.test.ts), checked with the client's args.
    expect(await refused('vllm', { pretrained: 'm', think_end_token: '</think>' })).toBe('accepted');
    expect(
      await refused('sglang', { pretrained: 'm', think_end_token: 151668, tokenizer_backend: null }),
    ).toMatch(/^--model_args for sglang: think_end_token=151668 is a token id, which needs a tokenizer/);
    expect(await refused('vllm', { pretrained: 'm', prefix_token_id: 1 })).toMatch(
      /prefix_token_id: a custom prefix token is not supported/,
    );
    expect(await refused('sglang', { pretrained: 'm', vllm_args: '--x' })).toBe(
      '--model_args for sglang: vllm_args is for --model vllm; use sglang_args',
    );
    expect(await refused('vllm', { pretrained: 'm', enforce_eager: true, kv_cache_dtype: 'fp8' })).toBe(
      'accepted',
    );
    // The client's args are checked before a server starts too.
    expect(await refused('vllm', { pretrained: 'm', num_concurrent: 'many' })).toMatch(
      /^--model_args for vllm: num_concurrent: /,
    );
    // A Hub tokenizer is fetched before the server starts: offline, with an empty cache, that stops here.
    const saved = { offline: process.env.HF_HUB_OFFLINE, cache: process.env.HF_HUB_CACHE };
    Object.assign(process.env, { HF_HUB_OFFLINE: '1', HF_HUB_CACHE: path.join(work, 'empty-hub-cache') });
    try {
      expect(await refused('vllm', { pretrained: 'org/uncached', tokenizer_backend: 'huggingface' })).toMatch(
        /^tokenizer=org\/uncached: not a file or folder, and not in the Hugging Face cache \(.*\): HF_HUB_OFFLINE is set/,
      );
    } finally {
      for (const [key, value] of [
        ['HF_HUB_OFFLINE', saved.offline],
        ['HF_HUB_CACHE', saved.cache],
      ] as const) {
        if (value === undefined) delete process.env[key];
        else process.env[key] = value;
      }
    }
    const missing = path.join(work, 'no-such-vllm');
    await expect(
      createManagedBackend('vllm', { pretrained: 'm', executable: missing }).catch((error: Error) => {
        throw new Error(withFlagNames(error.message));
      }),
    ).rejects.toThrow(
      `vllm serve: ${missing} is not on PATH (or not executable); install it, or give its path with --model_args executable=PATH`,
    );
  });

  it('--model hf and the other in-process lm-eval backends name the alternatives with the user’s model', async () => {
    const message = await checkModelArgs('hf', {
      pretrained: 'EleutherAI/pythia-160m',
      dtype: 'float16',
    }).catch((error: Error) => withFlagNames(error.message));
    expect(message).toBe(
      "--model hf is lm-eval's in-process Hugging Face transformers backend, which assay does not have (it runs no PyTorch); instead use --model vllm --model_args pretrained=EleutherAI/pythia-160m,dtype=float16 (assay starts a vLLM server for the run and stops it), --model local-completions --model_args model=EleutherAI/pythia-160m,base_url=http://127.0.0.1:8000/v1/completions (any OpenAI-compatible server you run), or --model gguf --model_args model=FILE.gguf (llama.cpp in process)",
    );
    for (const name of [
      'hf-auto',
      'huggingface',
      'openvino',
      'neuronx',
      'mamba_ssm',
      'hf-multimodal',
      'trtllm',
    ]) {
      const text = await checkModelArgs(name, {}).catch((error: Error) => withFlagNames(error.message));
      expect(text).toContain(`--model ${name} is lm-eval's in-process`);
      expect(text).toContain('--model vllm --model_args pretrained=MODEL');
    }
  });

  it("lm-eval's API clients assay has no client for are answered by name with what works instead", async () => {
    const said = (name: string, args: Record<string, unknown> = {}) =>
      checkModelArgs(name, args).then(
        () => 'accepted',
        (error: Error & { code?: string }) => `${error.code}: ${withFlagNames(error.message)}`,
      );
    expect(await said('litellm')).toBe(
      "unknown_model: lm-eval's --model litellm is a client of the LiteLLM library; assay runs no Python model code. Run a LiteLLM proxy and use --model local-chat-completions --model_args model=MODEL,base_url=http://HOST:4000/v1/chat/completions (or local-completions for its /v1/completions)",
    );
    expect(await said('sglang-generate')).toContain(
      'use --model sglang --model_args base_url=http://HOST:PORT',
    );
    for (const name of ['anthropic-chat', 'anthropic-completions', 'anthropic-chat-completions']) {
      expect(await said(name)).toContain(
        'use --model openai-chat-completions --model_args model=MODEL,base_url=https://api.anthropic.com/v1/chat/completions',
      );
    }
    for (const name of ['azure-openai-chat-completions', 'textsynth', 'watsonx_llm']) {
      const text = await said(name);
      expect(text).toMatch(
        new RegExp(`^unknown_model: lm-eval's --model ${name} is a client of [^;]+; assay has no`),
      );
      expect(text).toMatch(
        / --model local-(chat-)?completions --model_args model=\w+,base_url=| --model openai-chat-completions /,
      );
    }
    // lm-eval's gguf is a llama.cpp server client: base_url= under assay's in-process gguf says so.
    for (const name of ['ggml', 'gguf']) {
      expect(await said(name, { base_url: 'http://127.0.0.1:8080' })).toContain(
        'for a running llama-server use --model local-completions --model_args base_url=http://HOST:PORT/v1/completions',
      );
    }
    // A name close to no lm-eval backend is still the usual did-you-mean.
    expect(await said('dumy')).toMatch(/^unknown_model: unknown model "dumy" \(did you mean dummy[,)]/);
  });
});
