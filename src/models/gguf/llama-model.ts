import { type GgufFile, type GgufTensor, type GgufValue, gguf } from './writer.js';

/**
 * Llama-architecture GGUF models built in memory: the SentencePiece ("llama") vocabulary that
 * llama.cpp's llm_tokenizer_spm reads, and the tensor layout of LLM_ARCH_LLAMA.
 */

/** llama.cpp's llama_token_type values. */
const TOKEN_NORMAL = 1;
const TOKEN_UNKNOWN = 2;
const TOKEN_CONTROL = 3;
const TOKEN_BYTE = 6;

/** SentencePiece writes spaces as U+2581; llama.cpp's SPM tokenizer escapes ' ' to it before lookup. */
export const SPM_SPACE = '\u2581';

export interface SpmVocab {
  tokens: string[];
  scores: number[];
  types: number[];
  bos: number;
  eos: number;
  unk: number;
}

/**
 * <unk>, <s>, </s>, the 256 byte-fallback tokens <0x00>…<0xFF> (so any text tokenizes), then the
 * given pieces. llama.cpp's SPM tokenizer starts from UTF-8 characters and repeatedly merges the
 * adjacent pair with the highest score whose concatenation is a token, so multi-character pieces
 * need scores that order their merges (BPE rank → higher score first); single characters need none.
 */
export function buildSpmVocab(pieces: Array<{ piece: string; score: number }>): SpmVocab {
  const tokens = ['<unk>', '<s>', '</s>'];
  const scores = [0, 0, 0];
  const types = [TOKEN_UNKNOWN, TOKEN_CONTROL, TOKEN_CONTROL];
  for (let byte = 0; byte < 256; byte++) {
    tokens.push(`<0x${byte.toString(16).toUpperCase().padStart(2, '0')}>`);
    scores.push(0);
    types.push(TOKEN_BYTE);
  }
  const seen = new Set(tokens);
  for (const { piece, score } of pieces) {
    if (seen.has(piece)) throw new Error(`duplicate vocabulary piece ${JSON.stringify(piece)}`);
    seen.add(piece);
    tokens.push(piece);
    scores.push(score);
    types.push(TOKEN_NORMAL);
  }
  return { tokens, scores, types, bos: 1, eos: 2, unk: 0 };
}

/** Printable ASCII as single-character pieces, space written as ▁: a character-level vocabulary. */
export function asciiCharPieces(): Array<{ piece: string; score: number }> {
  const pieces: Array<{ piece: string; score: number }> = [{ piece: SPM_SPACE, score: 0 }];
  for (let code = 33; code < 127; code++) pieces.push({ piece: String.fromCharCode(code), score: 0 });
  return pieces;
}

export interface LlamaHyperparameters {
  name: string;
  contextLength: number;
  embeddingLength: number;
  blockCount: number;
  feedForwardLength: number;
  headCount: number;
  headCountKv: number;
  rmsEpsilon: number;
  ropeFreqBase?: number;
  chatTemplate?: string;
  /** llama.cpp's named templates, written as `tokenizer.chat_template.NAME`. */
  namedChatTemplates?: Record<string, string>;
}

/** Every weight of a llama model, row-major in ggml order (dims[0] fastest). */
export interface LlamaWeights {
  tokenEmbedding: Float32Array; // [n_embd, n_vocab]
  outputNorm: Float32Array; // [n_embd]
  output: Float32Array; // [n_embd, n_vocab]
  blocks: Array<{
    attnNorm: Float32Array; // [n_embd]
    q: Float32Array; // [n_embd, n_embd]
    k: Float32Array; // [n_embd, n_kv]
    v: Float32Array; // [n_embd, n_kv]
    attnOutput: Float32Array; // [n_embd, n_embd]
    ffnNorm: Float32Array; // [n_embd]
    gate: Float32Array; // [n_embd, n_ff]
    up: Float32Array; // [n_embd, n_ff]
    down: Float32Array; // [n_ff, n_embd]
  }>;
}

/** The GGUF for a llama model: general.*, llama.*, tokenizer.ggml.* and the tensors llama.cpp requires. */
export function llamaGguf(hp: LlamaHyperparameters, vocab: SpmVocab, weights: LlamaWeights): GgufFile {
  const nVocab = vocab.tokens.length;
  const headDim = hp.embeddingLength / hp.headCount;
  const nKv = headDim * hp.headCountKv;
  const metadata: Array<[string, GgufValue]> = [
    ['general.architecture', gguf.str('llama')],
    ['general.name', gguf.str(hp.name)],
    ['general.file_type', gguf.u32(0)], // ALL_F32
    ['llama.context_length', gguf.u32(hp.contextLength)],
    ['llama.embedding_length', gguf.u32(hp.embeddingLength)],
    ['llama.block_count', gguf.u32(hp.blockCount)],
    ['llama.feed_forward_length', gguf.u32(hp.feedForwardLength)],
    ['llama.attention.head_count', gguf.u32(hp.headCount)],
    ['llama.attention.head_count_kv', gguf.u32(hp.headCountKv)],
    ['llama.attention.layer_norm_rms_epsilon', gguf.f32(hp.rmsEpsilon)],
    ['llama.rope.dimension_count', gguf.u32(headDim)],
    ['llama.rope.freq_base', gguf.f32(hp.ropeFreqBase ?? 10000)],
    ['llama.vocab_size', gguf.u32(nVocab)],
    ['tokenizer.ggml.model', gguf.str('llama')],
    ['tokenizer.ggml.tokens', gguf.array('string', vocab.tokens)],
    ['tokenizer.ggml.scores', gguf.array('float32', vocab.scores)],
    ['tokenizer.ggml.token_type', gguf.array('int32', vocab.types)],
    ['tokenizer.ggml.bos_token_id', gguf.u32(vocab.bos)],
    ['tokenizer.ggml.eos_token_id', gguf.u32(vocab.eos)],
    ['tokenizer.ggml.unknown_token_id', gguf.u32(vocab.unk)],
    ['tokenizer.ggml.add_bos_token', gguf.bool(true)],
    ['tokenizer.ggml.add_eos_token', gguf.bool(false)],
    // Off so that detokenize(tokenize(s)) === s: the character-level vocabularies have no "▁word" pieces to gain from it.
    ['tokenizer.ggml.add_space_prefix', gguf.bool(false)],
  ];
  if (hp.chatTemplate) metadata.push(['tokenizer.chat_template', gguf.str(hp.chatTemplate)]);
  for (const [name, template] of Object.entries(hp.namedChatTemplates ?? {}))
    metadata.push([`tokenizer.chat_template.${name}`, gguf.str(template)]);

  const e = hp.embeddingLength;
  const tensors: GgufTensor[] = [
    { name: 'token_embd.weight', dims: [e, nVocab], data: weights.tokenEmbedding },
    { name: 'output_norm.weight', dims: [e], data: weights.outputNorm },
    { name: 'output.weight', dims: [e, nVocab], data: weights.output },
  ];
  weights.blocks.forEach((block, i) => {
    tensors.push(
      { name: `blk.${i}.attn_norm.weight`, dims: [e], data: block.attnNorm },
      { name: `blk.${i}.attn_q.weight`, dims: [e, e], data: block.q },
      { name: `blk.${i}.attn_k.weight`, dims: [e, nKv], data: block.k },
      { name: `blk.${i}.attn_v.weight`, dims: [e, nKv], data: block.v },
      { name: `blk.${i}.attn_output.weight`, dims: [e, e], data: block.attnOutput },
      { name: `blk.${i}.ffn_norm.weight`, dims: [e], data: block.ffnNorm },
      { name: `blk.${i}.ffn_gate.weight`, dims: [e, hp.feedForwardLength], data: block.gate },
      { name: `blk.${i}.ffn_down.weight`, dims: [hp.feedForwardLength, e], data: block.down },
      { name: `blk.${i}.ffn_up.weight`, dims: [e, hp.feedForwardLength], data: block.up },
    );
  });
  return { metadata, tensors };
}

/** mulberry32: a tiny seeded PRNG, enough for reproducible test weights. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface RandomLlamaOptions {
  seed?: number;
  embeddingLength?: number;
  blockCount?: number;
  headCount?: number;
  headCountKv?: number;
  feedForwardLength?: number;
  contextLength?: number;
  chatTemplate?: string;
  namedChatTemplates?: Record<string, string>;
  /** Another vocabulary (bench: a 32K one, for the output layer of a realistic model); default characters. */
  vocab?: SpmVocab;
}

/**
 * A tiny llama with random weights over a character-level vocabulary. Its outputs are gibberish, but
 * attention over the whole prefix matters to every logit, which is what prefix-sharing tests need.
 * The output matrix is scaled up so that distributions are peaked (greedy choices are not near ties).
 */
export function randomLlamaGguf(options: RandomLlamaOptions = {}): GgufFile {
  const random = seededRandom(options.seed ?? 1);
  const normal = () => {
    const u = Math.max(random(), 1e-12);
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
  };
  const vocab = options.vocab ?? buildSpmVocab(asciiCharPieces());
  const hp: LlamaHyperparameters = {
    name: `assay-random-llama-${options.seed ?? 1}`,
    contextLength: options.contextLength ?? 256,
    embeddingLength: options.embeddingLength ?? 32,
    blockCount: options.blockCount ?? 2,
    feedForwardLength: options.feedForwardLength ?? 64,
    headCount: options.headCount ?? 4,
    headCountKv: options.headCountKv ?? 2,
    rmsEpsilon: 1e-5,
    chatTemplate: options.chatTemplate,
    namedChatTemplates: options.namedChatTemplates,
  };
  const e = hp.embeddingLength;
  const nKv = (e / hp.headCount) * hp.headCountKv;
  const nVocab = vocab.tokens.length;
  const matrix = (count: number, scale: number) => {
    const out = new Float32Array(count);
    for (let i = 0; i < count; i++) out[i] = normal() * scale;
    return out;
  };
  const ones = (count: number) => new Float32Array(count).fill(1);
  const weights: LlamaWeights = {
    tokenEmbedding: matrix(e * nVocab, 1),
    outputNorm: ones(e),
    output: matrix(e * nVocab, 3 / Math.sqrt(e)),
    blocks: [],
  };
  for (let i = 0; i < hp.blockCount; i++) {
    weights.blocks.push({
      attnNorm: ones(e),
      q: matrix(e * e, 2 / Math.sqrt(e)),
      k: matrix(e * nKv, 2 / Math.sqrt(e)),
      v: matrix(e * nKv, 1 / Math.sqrt(e)),
      attnOutput: matrix(e * e, 1 / Math.sqrt(e)),
      ffnNorm: ones(e),
      gate: matrix(e * hp.feedForwardLength, 1 / Math.sqrt(e)),
      up: matrix(e * hp.feedForwardLength, 1 / Math.sqrt(e)),
      down: matrix(hp.feedForwardLength * e, 1 / Math.sqrt(hp.feedForwardLength)),
    });
  }
  return llamaGguf(hp, vocab, weights);
}
