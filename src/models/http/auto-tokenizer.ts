import { fetchTokenizerInfo, serverUrl } from './remote-tokenizer.js';

/**
 * lm-eval's `tokenizer_backend=auto`, local-completions' default (openai_completions.py
 * LocalCompletionsAPI, lm_eval/utils.py check_remote_tokenizer_support): the server's own tokenizer
 * (`remote`) when its `GET /tokenizer_info` answers a JSON object holding `eos_token` (vLLM served with
 * --enable-tokenizer-info-endpoint) and its `POST /tokenize` answers `{tokens: [...]}`; otherwise
 * `huggingface`, the tokenizer named by `tokenizer=` or the model's own name. Like lm-eval, each request
 * is tried three times before the answer counts as no.
 */
export async function autoTokenizerBackend(
  baseUrl: string,
  headers: Record<string, string>,
  timeoutMs: number,
): Promise<'remote' | 'huggingface'> {
  const attempts = 3;
  let info: Awaited<ReturnType<typeof fetchTokenizerInfo>>;
  for (let attempt = 0; attempt < attempts && !info; attempt++)
    info = await fetchTokenizerInfo(baseUrl, headers, timeoutMs);
  if (!info || info.eos_token === undefined) return 'huggingface';
  for (let attempt = 0; attempt < attempts; attempt++) {
    try {
      const response = await fetch(serverUrl(baseUrl, '/tokenize'), {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ prompt: 'test', add_special_tokens: false }),
        signal: AbortSignal.timeout(timeoutMs),
      });
      if (!response.ok) {
        await response.body?.cancel();
        continue;
      }
      const body = (await response.json()) as { tokens?: unknown };
      return Array.isArray(body?.tokens) ? 'remote' : 'huggingface';
    } catch {
      // Tried again, as lm-eval's _request_with_retries does.
    }
  }
  return 'huggingface';
}
