import { execFile } from 'node:child_process';
import { z } from 'zod';

/**
 * What a served model says about itself, for the manifest: the server's version (vLLM's GET /version,
 * SGLang's GET /get_server_info), the model it serves with its context length (GET /v1/models), and the
 * GPUs the machine reports (nvidia-smi, for servers assay started on this machine). Each is null when
 * the server or the machine does not say; none of them is guessed.
 */
const versionSchema = z.object({ version: z.string() });
const modelsSchema = z.object({
  data: z.array(z.object({ id: z.string(), max_model_len: z.number().int().positive().optional() })),
});

async function getJson(url: string, timeoutMs = 10_000): Promise<unknown> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
    if (!response.ok) {
      await response.body?.cancel();
      return undefined;
    }
    return await response.json();
  } catch {
    return undefined;
  }
}

export async function serverVersion(root: string): Promise<string | null> {
  for (const route of ['/version', '/get_server_info']) {
    const parsed = versionSchema.safeParse(await getJson(root + route));
    if (parsed.success) return parsed.data.version;
  }
  return null;
}

export interface ServedModels {
  ids: string[];
  maxModelLen: Map<string, number>;
}

export async function servedModels(root: string): Promise<ServedModels | undefined> {
  const parsed = modelsSchema.safeParse(await getJson(`${root}/v1/models`));
  if (!parsed.success) return undefined;
  const maxModelLen = new Map<string, number>();
  for (const model of parsed.data.data)
    if (model.max_model_len) maxModelLen.set(model.id, model.max_model_len);
  return { ids: parsed.data.data.map((model) => model.id), maxModelLen };
}

/** GPU names from nvidia-smi (those CUDA_VISIBLE_DEVICES selects, when it lists indices), or [] without one. */
export function localGpus(env: NodeJS.ProcessEnv = process.env): Promise<string[]> {
  const visible = env.CUDA_VISIBLE_DEVICES;
  const select = visible && /^\d+(,\d+)*$/.test(visible) ? ['-i', visible] : [];
  return new Promise((resolve) => {
    execFile(
      'nvidia-smi',
      ['--query-gpu=name', '--format=csv,noheader', ...select],
      { timeout: 10_000, env },
      (error, stdout) => {
        if (error) return resolve([]);
        resolve(
          stdout
            .split('\n')
            .map((line) => line.trim())
            .filter(Boolean),
        );
      },
    );
  });
}

/** `NVIDIA H100 80GB HBM3 x4`: one name per kind, with its count. */
export function gpuSummary(gpus: string[]): string | null {
  if (gpus.length === 0) return null;
  const counts = new Map<string, number>();
  for (const gpu of gpus) counts.set(gpu, (counts.get(gpu) ?? 0) + 1);
  return [...counts].map(([name, count]) => (count > 1 ? `${name} x${count}` : name)).join(', ');
}
