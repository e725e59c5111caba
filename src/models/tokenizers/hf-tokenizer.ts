import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { Tokenizer as HfTokenizerJs } from '@huggingface/tokenizers';
import { AssayError, readError } from '../../errors.js';
import type { Tokenizer, TokenizerIdentity } from './tokenizer.js';

/**
 * A Hugging Face fast tokenizer (`tokenizer.json`, with `tokenizer_config.json` beside it when there is
 * one) run by @huggingface/tokenizers, the pure-JS port of the Rust `tokenizers` crate that transformers'
 * fast tokenizers wrap: the same normalizers, pre-tokenizers, models (BPE, WordPiece, Unigram) and
 * post-processors, read from the same file.
 */
export class HfTokenizer implements Tokenizer {
  readonly backend = 'huggingface' as const;
  private readonly tokenizer: HfTokenizerJs;
  private readonly described: TokenizerIdentity;
  private readonly specialIds: { bos?: number; eos?: number };
  private bosToken?: Promise<number | null>;

  private constructor(
    json: Record<string, unknown>,
    config: Record<string, unknown>,
    options: { name: string; file: string; sha256: string; hub?: TokenizerIdentity['hub'] },
  ) {
    try {
      this.tokenizer = new HfTokenizerJs(json, config);
    } catch (error) {
      throw new AssayError(
        'bad_model_file',
        `${options.file}: not a tokenizer this library can run: ${(error as Error).message}`,
        { cause: error, location: { file: options.file } },
      );
    }
    const vocabulary = this.tokenizer.get_vocab(true);
    const tokens: Array<string | null> = [];
    for (const [token, id] of vocabulary) tokens[id] = token;
    for (let id = 0; id < tokens.length; id++) tokens[id] ??= null;
    this.described = {
      backend: 'huggingface',
      name: options.name,
      source: options.file,
      sha256: options.sha256,
      vocabSize: tokens.length,
      vocabSha256: createHash('sha256').update(JSON.stringify(tokens)).digest('hex'),
      ...(options.hub ? { hub: options.hub } : {}),
    };
    this.specialIds = {
      bos: this.specialId(config.bos_token),
      eos: this.specialId(config.eos_token),
    };
  }

  /**
   * Reads `file` (a tokenizer.json) and the tokenizer_config.json and special_tokens_map.json given with
   * it; the map's special tokens win, as transformers' from_pretrained lets them.
   */
  static async load(options: {
    name: string;
    file: string;
    configFile?: string;
    specialTokensMapFile?: string;
    hub?: TokenizerIdentity['hub'];
  }): Promise<HfTokenizer> {
    const bytes = await readFile(options.file).catch((error: unknown) => {
      throw readError('tokenizer', options.file, error);
    });
    const json = parseJson(bytes.toString('utf8'), options.file);
    const readJson = async (file: string | undefined) =>
      file ? parseJson(await readFile(file, 'utf8'), file) : {};
    const config = {
      ...(await readJson(options.configFile)),
      ...(await readJson(options.specialTokensMapFile)),
    };
    return new HfTokenizer(json, config, {
      name: options.name,
      file: options.file,
      sha256: createHash('sha256').update(bytes).digest('hex'),
      hub: options.hub,
    });
  }

  async encode(text: string, addSpecialTokens = false): Promise<number[]> {
    return this.tokenizer.encode(text, { add_special_tokens: addSpecialTokens }).ids;
  }

  async decode(tokens: number[]): Promise<string> {
    return this.tokenizer.decode(tokens, { skip_special_tokens: true });
  }

  /** Asked for every prompt encoded with special tokens (has_bos_prefix), so encoded once. */
  bos(): Promise<number | null> {
    this.bosToken ??= this.encode('', true).then((ids) => (ids.length ? ids[0] : null));
    return this.bosToken;
  }

  /** transformers' bos_token_id, else eos_token_id (lm-eval's prefix_token_id), else what encoding adds. */
  async prefixToken(): Promise<number> {
    const token = this.specialIds.bos ?? this.specialIds.eos ?? (await this.bos());
    if (token === undefined || token === null) {
      throw new AssayError(
        'bad_model_file',
        `${this.described.source}: the tokenizer has no BOS or EOS token and adds no start token, so an empty context cannot be scored`,
      );
    }
    return token;
  }

  async identity(): Promise<TokenizerIdentity> {
    return this.described;
  }

  /** Synchronous, for the manifest. */
  describe(): TokenizerIdentity {
    return this.described;
  }

  /** tokenizer_config.json names special tokens as strings or as AddedToken objects `{content}`. */
  private specialId(value: unknown): number | undefined {
    const content =
      typeof value === 'string'
        ? value
        : value && typeof value === 'object' && typeof (value as { content?: unknown }).content === 'string'
          ? (value as { content: string }).content
          : undefined;
    return content === undefined ? undefined : this.tokenizer.token_to_id(content);
  }
}

function parseJson(text: string, file: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch (error) {
    throw new AssayError('bad_model_file', `${file}: not JSON: ${(error as Error).message}`, {
      cause: error,
      location: { file },
    });
  }
  throw new AssayError('bad_model_file', `${file}: expected a JSON object`, { location: { file } });
}
