// assay's native scorer: llama.cpp's C API behind a few N-API functions that return only what the
// harness scores (the target token's log-probability and whether it was the argmax), or, for `assay
// kld`, per-position comparisons of two models' full distributions. node-llama-cpp's probabilities
// Map costs ~20 ms per position at a 32K vocabulary; here each position is one pass over the logits.
//
// Log-softmax is computed in double from the float logits: the float32 softmax underflows to 0 for
// very unlikely tokens (log 0 = -Infinity), log-softmax as (logit - max) - log(sum exp) does not.
//
// The functions are synchronous: the engine runs in its own child process, which does nothing else
// while it scores, and llama_decode already runs on ggml's own threads.

#include <node_api.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "ggml-backend.h"
#include "llama.h"
#include "softmax.h"

namespace {

struct Scorer {
  llama_model* model = nullptr;
  llama_context* context = nullptr;
  int32_t vocab = 0;
  uint32_t batchSize = 0;
  uint32_t sequences = 0;
};

#define CHECK(env, call)                                               \
  do {                                                                 \
    if ((call) != napi_ok) {                                           \
      napi_throw_error((env), "ASSAY_NATIVE", "N-API call failed: " #call); \
      return nullptr;                                                  \
    }                                                                  \
  } while (0)

napi_value throwError(napi_env env, const std::string& message) {
  napi_throw_error(env, "ASSAY_NATIVE", message.c_str());
  return nullptr;
}

bool getNumber(napi_env env, napi_value object, const char* key, double fallback, double* out) {
  bool has = false;
  if (napi_has_named_property(env, object, key, &has) != napi_ok) return false;
  if (!has) {
    *out = fallback;
    return true;
  }
  napi_value value;
  if (napi_get_named_property(env, object, key, &value) != napi_ok) return false;
  napi_valuetype type;
  napi_typeof(env, value, &type);
  if (type == napi_undefined) {
    *out = fallback;
    return true;
  }
  if (type == napi_boolean) {
    bool flag = false;
    napi_get_value_bool(env, value, &flag);
    *out = flag ? 1 : 0;
    return true;
  }
  return napi_get_value_double(env, value, out) == napi_ok;
}

bool getString(napi_env env, napi_value value, std::string* out) {
  size_t length = 0;
  if (napi_get_value_string_utf8(env, value, nullptr, 0, &length) != napi_ok) return false;
  out->resize(length);
  return napi_get_value_string_utf8(env, value, out->data(), length + 1, &length) == napi_ok;
}

void finalizeScorer(napi_env, void* data, void*) {
  auto* scorer = static_cast<Scorer*>(data);
  if (scorer->context) llama_free(scorer->context);
  if (scorer->model) llama_model_free(scorer->model);
  delete scorer;
}

Scorer* getScorer(napi_env env, napi_value value) {
  void* data = nullptr;
  if (napi_get_value_external(env, value, &data) != napi_ok || data == nullptr) return nullptr;
  auto* scorer = static_cast<Scorer*>(data);
  return scorer->context ? scorer : nullptr;
}

template <typename T>
bool getTypedArray(napi_env env, napi_value value, napi_typedarray_type expected, T** data, size_t* length) {
  bool is = false;
  if (napi_is_typedarray(env, value, &is) != napi_ok || !is) return false;
  napi_typedarray_type type;
  void* raw = nullptr;
  napi_value buffer;
  size_t offset = 0;
  if (napi_get_typedarray_info(env, value, &type, length, &raw, &buffer, &offset) != napi_ok) return false;
  if (type != expected) return false;
  *data = static_cast<T*>(raw);
  return true;
}

napi_value makeFloat64Array(napi_env env, const std::vector<double>& values) {
  void* data = nullptr;
  napi_value buffer, array;
  if (napi_create_arraybuffer(env, values.size() * sizeof(double), &data, &buffer) != napi_ok) return nullptr;
  if (!values.empty()) std::memcpy(data, values.data(), values.size() * sizeof(double));
  if (napi_create_typedarray(env, napi_float64_array, values.size(), buffer, 0, &array) != napi_ok) return nullptr;
  return array;
}

napi_value makeUint8Array(napi_env env, const std::vector<uint8_t>& values) {
  void* data = nullptr;
  napi_value buffer, array;
  if (napi_create_arraybuffer(env, values.size(), &data, &buffer) != napi_ok) return nullptr;
  if (!values.empty()) std::memcpy(data, values.data(), values.size());
  if (napi_create_typedarray(env, napi_uint8_array, values.size(), buffer, 0, &array) != napi_ok) return nullptr;
  return array;
}

/** max, argmax (first on ties) and log of the softmax normaliser relative to max, in double. */
struct Normaliser {
  float max;
  int32_t argmax;
  double sum;
  double logSum;
};

Normaliser normalise(const float* logits, int32_t vocab) {
  const float max = rowMax(logits, vocab);
  int32_t argmax = 0;
  while (logits[argmax] != max) argmax++;
  const double sum = rowSumExp(logits, vocab, max);
  return {max, argmax, sum, std::log(sum)};
}

double logProbability(const float* logits, const Normaliser& norm, int32_t token) {
  return (static_cast<double>(logits[token]) - norm.max) - norm.logSum;
}

/**
 * The batch as the JS side lays it out: per token its position, the bitmask of sequences it belongs
 * to (a shared prefix is one token in several sequences), and a target (>= 0: score the output here).
 */
struct BatchInput {
  const int32_t* tokens = nullptr;
  const int32_t* positions = nullptr;
  const uint32_t* sequenceMasks = nullptr;
  const int32_t* targets = nullptr;
  size_t count = 0;
};

bool readBatchInput(napi_env env, napi_value* argv, BatchInput* input) {
  size_t lengths[4];
  int32_t* tokens = nullptr;
  int32_t* positions = nullptr;
  uint32_t* masks = nullptr;
  int32_t* targets = nullptr;
  if (!getTypedArray(env, argv[0], napi_int32_array, &tokens, &lengths[0])) return false;
  if (!getTypedArray(env, argv[1], napi_int32_array, &positions, &lengths[1])) return false;
  if (!getTypedArray(env, argv[2], napi_uint32_array, &masks, &lengths[2])) return false;
  if (!getTypedArray(env, argv[3], napi_int32_array, &targets, &lengths[3])) return false;
  if (lengths[1] != lengths[0] || lengths[2] != lengths[0] || lengths[3] != lengths[0]) return false;
  *input = {tokens, positions, masks, targets, lengths[0]};
  return true;
}

/**
 * Decodes input[start, end) into `batch` and runs llama_decode. Returns an error message, or "" on
 * success; `outputs` receives the indices (within the chunk) of the outputs requested.
 */
std::string decodeChunk(Scorer* scorer, llama_batch& batch, const BatchInput& input, size_t start, size_t end,
                        std::vector<size_t>* outputs) {
  batch.n_tokens = 0;
  outputs->clear();
  for (size_t i = start; i < end; i++) {
    const int32_t token = input.tokens[i];
    if (token < 0 || token >= scorer->vocab) return "token " + std::to_string(token) + " is outside the vocabulary";
    const int32_t target = input.targets[i];
    if (target >= scorer->vocab) return "target " + std::to_string(target) + " is outside the vocabulary";
    const int n = batch.n_tokens;
    batch.token[n] = token;
    batch.pos[n] = input.positions[i];
    int seqs = 0;
    for (uint32_t s = 0; s < scorer->sequences; s++) {
      if (input.sequenceMasks[i] & (1u << s)) batch.seq_id[n][seqs++] = static_cast<llama_seq_id>(s);
    }
    if (seqs == 0) return "a token belongs to no sequence";
    batch.n_seq_id[n] = seqs;
    batch.logits[n] = target >= 0 ? 1 : 0;
    if (target >= 0) outputs->push_back(i);
    batch.n_tokens++;
  }
  const int32_t status = llama_decode(scorer->context, batch);
  if (status != 0) return "llama_decode failed with status " + std::to_string(status);
  return "";
}

// open(modelPath, { nCtx, batchSize, sequences, threads, flashAttention, kvF32, gpuLayers, backendDir })
napi_value Open(napi_env env, napi_callback_info info) {
  size_t argc = 2;
  napi_value argv[2];
  CHECK(env, napi_get_cb_info(env, info, &argc, argv, nullptr, nullptr));
  if (argc < 2) return throwError(env, "open(modelPath, options) expects 2 arguments");
  std::string modelPath, backendDir;
  if (!getString(env, argv[0], &modelPath)) return throwError(env, "modelPath must be a string");
  double nCtx, batchSize, sequences, threads, flashAttention, kvF32, gpuLayers;
  if (!getNumber(env, argv[1], "nCtx", 2048, &nCtx) || !getNumber(env, argv[1], "batchSize", 512, &batchSize) ||
      !getNumber(env, argv[1], "sequences", 1, &sequences) || !getNumber(env, argv[1], "threads", 1, &threads) ||
      !getNumber(env, argv[1], "flashAttention", 0, &flashAttention) ||
      !getNumber(env, argv[1], "kvF32", 1, &kvF32) || !getNumber(env, argv[1], "gpuLayers", 0, &gpuLayers)) {
    return throwError(env, "bad options");
  }
  if (sequences < 1 || sequences > 32) return throwError(env, "sequences must be in [1, 32]");
  bool hasDir = false;
  napi_has_named_property(env, argv[1], "backendDir", &hasDir);
  if (hasDir) {
    napi_value dir;
    napi_get_named_property(env, argv[1], "backendDir", &dir);
    getString(env, dir, &backendDir);
  }

  llama_backend_init();
  // In the engine process node-llama-cpp has already registered the CPU backend of the same libggml;
  // alone (or with a different libggml copy) the registry is empty and the backends must be loaded.
  if (ggml_backend_dev_count() == 0) {
    if (backendDir.empty()) ggml_backend_load_all();
    else ggml_backend_load_all_from_path(backendDir.c_str());
  }
  if (ggml_backend_dev_count() == 0) return throwError(env, "no ggml backend could be loaded");

  auto* scorer = new Scorer();
  llama_model_params modelParams = llama_model_default_params();
  modelParams.n_gpu_layers = static_cast<int32_t>(gpuLayers);
  scorer->model = llama_model_load_from_file(modelPath.c_str(), modelParams);
  if (!scorer->model) {
    delete scorer;
    return throwError(env, "llama.cpp could not load " + modelPath);
  }
  llama_context_params contextParams = llama_context_default_params();
  contextParams.n_ctx = static_cast<uint32_t>(nCtx);
  contextParams.n_batch = static_cast<uint32_t>(batchSize);
  contextParams.n_ubatch = static_cast<uint32_t>(batchSize);
  contextParams.n_seq_max = static_cast<uint32_t>(sequences);
  contextParams.n_threads = static_cast<int32_t>(threads);
  contextParams.n_threads_batch = static_cast<int32_t>(threads);
  contextParams.flash_attn_type = flashAttention != 0 ? LLAMA_FLASH_ATTN_TYPE_ENABLED : LLAMA_FLASH_ATTN_TYPE_DISABLED;
  // One KV buffer for all sequences: a shared prefix is stored once, in cells tagged with every
  // sequence that reads it.
  contextParams.kv_unified = true;
  contextParams.no_perf = true;
  if (kvF32 != 0) {
    contextParams.type_k = GGML_TYPE_F32;
    contextParams.type_v = GGML_TYPE_F32;
  }
  scorer->context = llama_init_from_model(scorer->model, contextParams);
  if (!scorer->context) {
    llama_model_free(scorer->model);
    delete scorer;
    return throwError(env, "llama.cpp could not create a context for " + modelPath);
  }
  scorer->vocab = llama_vocab_n_tokens(llama_model_get_vocab(scorer->model));
  scorer->batchSize = llama_n_batch(scorer->context);
  scorer->sequences = llama_n_seq_max(scorer->context);

  napi_value handle;
  CHECK(env, napi_create_external(env, scorer, finalizeScorer, nullptr, &handle));
  return handle;
}

// info(handle) -> { vocab, nCtx, batchSize, sequences, llamaCpp }
napi_value Info(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  CHECK(env, napi_get_cb_info(env, info, &argc, argv, nullptr, nullptr));
  Scorer* scorer = argc >= 1 ? getScorer(env, argv[0]) : nullptr;
  if (!scorer) return throwError(env, "not an open scorer");
  napi_value result, value;
  CHECK(env, napi_create_object(env, &result));
  CHECK(env, napi_create_int32(env, scorer->vocab, &value));
  CHECK(env, napi_set_named_property(env, result, "vocab", value));
  CHECK(env, napi_create_uint32(env, llama_n_ctx(scorer->context), &value));
  CHECK(env, napi_set_named_property(env, result, "nCtx", value));
  CHECK(env, napi_create_uint32(env, scorer->batchSize, &value));
  CHECK(env, napi_set_named_property(env, result, "batchSize", value));
  CHECK(env, napi_create_uint32(env, scorer->sequences, &value));
  CHECK(env, napi_set_named_property(env, result, "sequences", value));
  CHECK(env, napi_create_string_utf8(env, llama_print_system_info(), NAPI_AUTO_LENGTH, &value));
  CHECK(env, napi_set_named_property(env, result, "systemInfo", value));
  return result;
}

/** The k most likely tokens of a row, most likely first (ties: lower id first). */
void topTokens(const float* logits, int32_t vocab, int32_t k, std::vector<int32_t>* out) {
  out->clear();
  for (int32_t v = 0; v < vocab; v++) {
    if (static_cast<int32_t>(out->size()) == k && logits[v] <= logits[out->back()]) continue;
    auto at = std::upper_bound(out->begin(), out->end(), v, [logits](int32_t a, int32_t b) { return logits[a] > logits[b]; });
    out->insert(at, v);
    if (static_cast<int32_t>(out->size()) > k) out->pop_back();
  }
}

// score(handle, tokens, positions, sequenceMasks, outputs, queryRows, queryTargets[, topK])
//   -> { logprobs: Float64Array, greedy: Uint8Array[, topTokens: Int32Array, topLogprobs: Float64Array,
//        ranks: Int32Array] }, one entry (topK entries for the top lists) per query. With topK > 0 each
// query also gets the target's rank as vLLM counts it (tokens at least as likely, itself included), which
// `assay serve` reports in prompt_logprobs; the O(vocab) count is skipped otherwise.
// outputs[i] >= 0 asks for the logits after token i; each query (row, target) reads the target's
// log-probability from row's logits, so choices sharing a context share its last output. Queries are
// sorted by row. Splits into llama_decode calls of at most batchSize tokens; the caller orders tokens
// so each sequence's positions ascend.
napi_value Score(napi_env env, napi_callback_info info) {
  size_t argc = 8;
  napi_value argv[8];
  CHECK(env, napi_get_cb_info(env, info, &argc, argv, nullptr, nullptr));
  Scorer* scorer = argc >= 7 ? getScorer(env, argv[0]) : nullptr;
  int32_t topK = 0;
  if (argc >= 8) {
    napi_valuetype type;
    napi_typeof(env, argv[7], &type);
    if (type == napi_number) napi_get_value_int32(env, argv[7], &topK);
  }
  if (scorer && (topK < 0 || topK > scorer->vocab)) return throwError(env, "topK must be in [0, vocab]");
  if (!scorer) return throwError(env, "score(handle, tokens, positions, sequenceMasks, outputs, queryRows, queryTargets): not an open scorer");
  BatchInput input;
  int32_t* queryRows = nullptr;
  int32_t* queryTargets = nullptr;
  size_t queries = 0, queryTargetCount = 0;
  if (!readBatchInput(env, argv + 1, &input) ||
      !getTypedArray(env, argv[5], napi_int32_array, &queryRows, &queries) ||
      !getTypedArray(env, argv[6], napi_int32_array, &queryTargets, &queryTargetCount) || queries != queryTargetCount) {
    return throwError(env, "tokens, positions, outputs, queryRows, queryTargets must be Int32Arrays and sequenceMasks a Uint32Array, of matching lengths");
  }
  for (size_t k = 0; k < queries; k++) {
    const int32_t row = queryRows[k];
    if (row < 0 || static_cast<size_t>(row) >= input.count || input.targets[row] < 0 || (k > 0 && row < queryRows[k - 1])) {
      return throwError(env, "query rows must ascend and name tokens whose output was asked for");
    }
    if (queryTargets[k] < 0 || queryTargets[k] >= scorer->vocab) return throwError(env, "a query target is outside the vocabulary");
  }
  std::vector<double> logprobs, topLogprobs;
  std::vector<uint8_t> greedy;
  std::vector<int32_t> top, topIds, ranks;
  logprobs.reserve(queries);
  greedy.reserve(queries);
  llama_batch batch = llama_batch_init(static_cast<int32_t>(scorer->batchSize), 0, static_cast<int32_t>(scorer->sequences));
  std::vector<size_t> outputs;
  size_t query = 0;
  for (size_t start = 0; start < input.count; start += scorer->batchSize) {
    const size_t end = std::min(input.count, start + scorer->batchSize);
    const std::string error = decodeChunk(scorer, batch, input, start, end, &outputs);
    if (!error.empty()) {
      llama_batch_free(batch);
      return throwError(env, error);
    }
    int32_t normalisedRow = -1;
    Normaliser norm{};
    const float* logits = nullptr;
    for (; query < queries && static_cast<size_t>(queryRows[query]) < end; query++) {
      if (queryRows[query] != normalisedRow) {
        normalisedRow = queryRows[query];
        logits = llama_get_logits_ith(scorer->context, static_cast<int32_t>(normalisedRow - start));
        norm = normalise(logits, scorer->vocab);
        if (topK > 0) topTokens(logits, scorer->vocab, topK, &top);
      }
      const int32_t target = queryTargets[query];
      logprobs.push_back(logProbability(logits, norm, target));
      greedy.push_back(norm.argmax == target ? 1 : 0);
      if (topK > 0) {
        int32_t rank = 0;
        for (int32_t v = 0; v < scorer->vocab; v++) rank += logits[v] >= logits[target] ? 1 : 0;
        ranks.push_back(rank);
      }
      for (const int32_t token : top) {
        topIds.push_back(token);
        topLogprobs.push_back(logProbability(logits, norm, token));
      }
    }
  }
  llama_batch_free(batch);
  napi_value result;
  CHECK(env, napi_create_object(env, &result));
  napi_value array = makeFloat64Array(env, logprobs);
  if (!array) return throwError(env, "could not allocate the result");
  CHECK(env, napi_set_named_property(env, result, "logprobs", array));
  array = makeUint8Array(env, greedy);
  if (!array) return throwError(env, "could not allocate the result");
  CHECK(env, napi_set_named_property(env, result, "greedy", array));
  if (topK > 0) {
    void* data = nullptr;
    napi_value buffer, ids;
    CHECK(env, napi_create_arraybuffer(env, topIds.size() * sizeof(int32_t), &data, &buffer));
    if (!topIds.empty()) std::memcpy(data, topIds.data(), topIds.size() * sizeof(int32_t));
    CHECK(env, napi_create_typedarray(env, napi_int32_array, topIds.size(), buffer, 0, &ids));
    CHECK(env, napi_set_named_property(env, result, "topTokens", ids));
    CHECK(env, napi_set_named_property(env, result, "topLogprobs", makeFloat64Array(env, topLogprobs)));
    napi_value rankArray;
    CHECK(env, napi_create_arraybuffer(env, ranks.size() * sizeof(int32_t), &data, &buffer));
    if (!ranks.empty()) std::memcpy(data, ranks.data(), ranks.size() * sizeof(int32_t));
    CHECK(env, napi_create_typedarray(env, napi_int32_array, ranks.size(), buffer, 0, &rankArray));
    CHECK(env, napi_set_named_property(env, result, "ranks", rankArray));
  }
  return result;
}

// compare(base, model, tokens, positions, sequenceMasks, targets) -> per scored position:
// { baseLogprobs, modelLogprobs, kl: KL(base || model) over the whole vocabulary, sameTop }.
// Both models must share a vocabulary; the same batch is decoded on each.
napi_value Compare(napi_env env, napi_callback_info info) {
  size_t argc = 6;
  napi_value argv[6];
  CHECK(env, napi_get_cb_info(env, info, &argc, argv, nullptr, nullptr));
  Scorer* base = argc >= 6 ? getScorer(env, argv[0]) : nullptr;
  Scorer* model = argc >= 6 ? getScorer(env, argv[1]) : nullptr;
  if (!base || !model) return throwError(env, "compare(base, model, tokens, positions, sequenceMasks, targets): not open scorers");
  if (base->vocab != model->vocab) {
    return throwError(env, "the models' vocabularies differ in size (" + std::to_string(base->vocab) + " vs " +
                               std::to_string(model->vocab) + ")");
  }
  BatchInput input;
  if (!readBatchInput(env, argv + 2, &input)) {
    return throwError(env, "tokens, positions, targets must be Int32Arrays and sequenceMasks a Uint32Array, of one length");
  }
  const uint32_t chunkSize = std::min(base->batchSize, model->batchSize);
  const uint32_t sequences = std::min(base->sequences, model->sequences);
  for (size_t i = 0; i < input.count; i++) {
    if (input.sequenceMasks[i] >> sequences) return throwError(env, "a token belongs to a sequence past the contexts' limit");
  }
  std::vector<double> baseLogprobs, modelLogprobs, kl;
  std::vector<uint8_t> sameTop;
  llama_batch baseBatch = llama_batch_init(static_cast<int32_t>(chunkSize), 0, static_cast<int32_t>(sequences));
  llama_batch modelBatch = llama_batch_init(static_cast<int32_t>(chunkSize), 0, static_cast<int32_t>(sequences));
  std::vector<size_t> outputs;
  std::string error;
  for (size_t start = 0; start < input.count && error.empty(); start += chunkSize) {
    const size_t end = std::min(input.count, start + chunkSize);
    error = decodeChunk(base, baseBatch, input, start, end, &outputs);
    if (error.empty()) error = decodeChunk(model, modelBatch, input, start, end, &outputs);
    if (!error.empty()) break;
    const int32_t vocab = base->vocab;
    for (size_t k = 0; k < outputs.size(); k++) {
      const int32_t row = static_cast<int32_t>(outputs[k] - start);
      const float* p = llama_get_logits_ith(base->context, row);
      const float* q = llama_get_logits_ith(model->context, row);
      const Normaliser np = normalise(p, vocab);
      const Normaliser nq = normalise(q, vocab);
      // KL(P || Q) = sum_v P(v) (log P(v) - log Q(v)), with log P(v) - log Q(v) =
      // (p_v - q_v) - (maxP + logSumP) + (maxQ + logSumQ), so one pass over the rows suffices.
      const double divergence = rowSumExpTimesDifference(p, q, vocab, np.max) / np.sum -
                                (static_cast<double>(np.max) + np.logSum) + (static_cast<double>(nq.max) + nq.logSum);
      const int32_t target = input.targets[outputs[k]];
      baseLogprobs.push_back(logProbability(p, np, target));
      modelLogprobs.push_back(logProbability(q, nq, target));
      // Rounding can leave a tiny negative sum for identical distributions; KL is never negative.
      kl.push_back(divergence < 0 ? 0 : divergence);
      sameTop.push_back(np.argmax == nq.argmax ? 1 : 0);
    }
  }
  llama_batch_free(baseBatch);
  llama_batch_free(modelBatch);
  if (!error.empty()) return throwError(env, error);
  napi_value result;
  CHECK(env, napi_create_object(env, &result));
  CHECK(env, napi_set_named_property(env, result, "baseLogprobs", makeFloat64Array(env, baseLogprobs)));
  CHECK(env, napi_set_named_property(env, result, "modelLogprobs", makeFloat64Array(env, modelLogprobs)));
  CHECK(env, napi_set_named_property(env, result, "kl", makeFloat64Array(env, kl)));
  CHECK(env, napi_set_named_property(env, result, "sameTop", makeUint8Array(env, sameTop)));
  return result;
}

// clear(handle): empties the KV cache of every sequence.
napi_value Clear(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  CHECK(env, napi_get_cb_info(env, info, &argc, argv, nullptr, nullptr));
  Scorer* scorer = argc >= 1 ? getScorer(env, argv[0]) : nullptr;
  if (!scorer) return throwError(env, "not an open scorer");
  llama_memory_clear(llama_get_memory(scorer->context), true);
  return nullptr;
}

// removeFrom(handle, sequence, position): drops the sequence's cells at positions >= position
// (sequence -1: all sequences), keeping a shared prefix for the next suffixes.
napi_value RemoveFrom(napi_env env, napi_callback_info info) {
  size_t argc = 3;
  napi_value argv[3];
  CHECK(env, napi_get_cb_info(env, info, &argc, argv, nullptr, nullptr));
  Scorer* scorer = argc >= 3 ? getScorer(env, argv[0]) : nullptr;
  if (!scorer) return throwError(env, "not an open scorer");
  int32_t sequence = 0, position = 0;
  CHECK(env, napi_get_value_int32(env, argv[1], &sequence));
  CHECK(env, napi_get_value_int32(env, argv[2], &position));
  if (!llama_memory_seq_rm(llama_get_memory(scorer->context), sequence, position, -1)) {
    return throwError(env, "llama_memory_seq_rm failed");
  }
  return nullptr;
}

// close(handle): frees the context and model now rather than at garbage collection.
napi_value Close(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  CHECK(env, napi_get_cb_info(env, info, &argc, argv, nullptr, nullptr));
  void* data = nullptr;
  if (argc < 1 || napi_get_value_external(env, argv[0], &data) != napi_ok || !data) return nullptr;
  auto* scorer = static_cast<Scorer*>(data);
  if (scorer->context) llama_free(scorer->context);
  if (scorer->model) llama_model_free(scorer->model);
  scorer->context = nullptr;
  scorer->model = nullptr;
  return nullptr;
}

napi_value Init(napi_env env, napi_value exports) {
  const napi_property_descriptor properties[] = {
      {"open", nullptr, Open, nullptr, nullptr, nullptr, napi_default, nullptr},
      {"info", nullptr, Info, nullptr, nullptr, nullptr, napi_default, nullptr},
      {"score", nullptr, Score, nullptr, nullptr, nullptr, napi_default, nullptr},
      {"compare", nullptr, Compare, nullptr, nullptr, nullptr, napi_default, nullptr},
      {"clear", nullptr, Clear, nullptr, nullptr, nullptr, napi_default, nullptr},
      {"removeFrom", nullptr, RemoveFrom, nullptr, nullptr, nullptr, napi_default, nullptr},
      {"close", nullptr, Close, nullptr, nullptr, nullptr, napi_default, nullptr},
  };
  napi_define_properties(env, exports, sizeof(properties) / sizeof(properties[0]), properties);
  return exports;
}

}  // namespace

NAPI_MODULE(NODE_GYP_MODULE_NAME, Init)
