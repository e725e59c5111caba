#pragma once
#include <cstdint>

/** The largest logit of a row. */
float rowMax(const float* logits, int32_t count);
/** sum_v exp(logits[v] - max), accumulated in double. */
double rowSumExp(const float* logits, int32_t count, float max);
/** sum_v exp(p[v] - maxP) * (p[v] - q[v]), accumulated in double: the core of KL(P || Q). */
double rowSumExpTimesDifference(const float* p, const float* q, int32_t count, float maxP);
